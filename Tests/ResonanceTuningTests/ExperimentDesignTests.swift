import Foundation
import ResonanceLinear
import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Experiments: weekday-balanced schedules, a confidence sequence, and power from history")
struct ExperimentDesignTests {
  static let monday = CalendarDay("2024-01-01")!

  @Test(
    "every cycle gives each weekday every arm once and each week its arms as evenly as 7 days allow",
    arguments: [2, 3, 4])
  func balanced(arms k: Int) {
    let schedule = ExperimentSchedule(arms: k, start: Self.monday, cycles: 6, seed: 7)
    #expect(schedule.days == 6 * 7 * k)
    for c in 0..<6 {
      let cycle = Array(schedule.assignment[(c * 7 * k)..<((c + 1) * 7 * k)])
      for weekday in 0..<7 {
        let arms = (0..<k).map { cycle[7 * $0 + weekday] }
        #expect(Set(arms) == Set(0..<k), "cycle \(c), weekday \(weekday)")
      }
      for week in 0..<k {
        let counts = (0..<k).map { arm in cycle[(7 * week)..<(7 * week + 7)].count { $0 == arm } }
        #expect(counts.max()! - counts.min()! <= 1)
      }
    }
  }

  @Test("the seed decides the schedule: the same seed the same days, another seed others")
  func seeded() {
    let a = ExperimentSchedule(arms: 2, start: Self.monday, cycles: 8, seed: 3)
    #expect(a == ExperimentSchedule(arms: 2, start: Self.monday, cycles: 8, seed: 3))
    #expect(
      a.assignment != ExperimentSchedule(arms: 2, start: Self.monday, cycles: 8, seed: 4).assignment
    )
    #expect(a.arm(on: Self.monday) == a.assignment[0])
    #expect(a.arm(on: CalendarDay(daysSinceEpoch: Self.monday.daysSinceEpoch + 112)) == nil)
  }

  @Test("each day of a cycle has each arm with chance 1/k", arguments: [2, 3])
  func randomised(arms k: Int) {
    let cycles = 3000
    let schedule = ExperimentSchedule(arms: k, start: Self.monday, cycles: cycles, seed: 11)
    let length = 7 * k
    for day in 0..<length {
      let first = (0..<cycles).count { schedule.assignment[$0 * length + day] == 1 }
      #expect(abs(Double(first) / Double(cycles) - 1 / Double(k)) < 0.03, "day \(day)")
    }
  }

  @Test("the sequence's half-width is the normal mixture's, worked by hand")
  func margin() {
    let sequence = ConfidenceSequence(alpha: 0.05, rho2: 0.1)
    // n = 10: a = 2; √(2·2/(100·0.1) · log(√2/0.05)) = √(0.4 · 3.342306) = 1.156254.
    #expect(abs(sequence.margin(10) - 1.156_254) < 1e-6)
    let tuned = ConfidenceSequence(alpha: 0.05, tunedFor: 20)
    let l = log(20.0)
    #expect(abs(tuned.rho2 - (2 * l + log(1 + 2 * l)) / 20) < 1e-12)
    #expect(sequence.interval([1]) == nil)
  }

  @Test(
    "looked at after every observation, the sequence misses the mean in about α of runs; a fixed 95% interval looked at as often misses far more"
  )
  func anytimeValid() {
    var random = SplitMix64(seed: 5)
    func normal() -> Double {
      let u = max(random.uniform(), 1e-300)
      return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * random.uniform())
    }
    let runs = 600
    let n = 150
    let sequence = ConfidenceSequence(alpha: 0.05, tunedFor: 40)
    var sequenceMissed = 0
    var fixedMissed = 0
    for _ in 0..<runs {
      var values: [Double] = []
      var missed = (false, false)
      for _ in 0..<n {
        values.append(0.3 + normal())
        guard values.count >= 10, let i = sequence.interval(values) else { continue }
        if i.lower > 0.3 || i.upper < 0.3 { missed.0 = true }
        let se =
          (i.estimate - i.lower) / sequence.margin(values.count) / Double(values.count).squareRoot()
        if abs(i.estimate - 0.3) > 1.96 * se { missed.1 = true }
      }
      sequenceMissed += missed.0 ? 1 : 0
      fixedMissed += missed.1 ? 1 : 0
    }
    #expect(Double(sequenceMissed) / Double(runs) <= 0.07)
    #expect(Double(fixedMissed) / Double(runs) >= 0.2)
  }

  /// A year of daily outcomes, independent from day to day, mean 0.6 and standard deviation
  /// `sd`, with `missing` of the days empty.
  static func history(sd: Double, seed: UInt64, missing: Double = 0) -> [Double?] {
    var random = SplitMix64(seed: seed)
    return (0..<364).map { _ in
      let u = max(random.uniform(), 1e-300)
      let z = (-2 * log(u)).squareRoot() * cos(2 * Double.pi * random.uniform())
      return random.uniform() < missing ? nil : 0.6 + sd * z
    }
  }

  @Test("the contrast's spread measured on history is the one independent days give: σ·√(2/7)")
  func contrastSpread() throws {
    let power = try #require(
      ExperimentPower(outcomes: Self.history(sd: 0.1, seed: 2), arms: 2, seed: 1))
    #expect(abs(power.contrastSD / (0.1 * (2.0 / 7).squareRoot()) - 1) < 0.1)
    #expect(abs(power.dailySD - 0.1) < 0.01)
    #expect(abs(power.autocorrelation) < 0.15)
    #expect(power.historyCycles == 26)
    // Too little history: fewer than two whole cycles with outcomes.
    #expect(
      ExperimentPower(outcomes: Array(Self.history(sd: 0.1, seed: 2)[0..<20]), arms: 2, seed: 1)
        == nil)
  }

  @Test(
    "the planned cycles show the gain they were planned for with about the power aimed at, by simulation"
  )
  func plannedPower() throws {
    let power = try #require(
      ExperimentPower(outcomes: Self.history(sd: 0.1, seed: 4), arms: 2, seed: 1))
    let cycles = try #require(power.cycles(toShow: 0.05, alpha: 0.05, power: 0.9, limit: 200))
    #expect(power.detectable(cycles: cycles, alpha: 0.05, power: 0.9) <= 0.05)
    #expect(power.detectable(cycles: cycles - 1, alpha: 0.05, power: 0.9) > 0.05)
    #expect(power.cycles(toShow: 0.05, alpha: 0.05, power: 0.9, limit: cycles - 1) == nil)
    // Simulated experiments of that length with the gain planted on the candidate's days.
    let sequence = ConfidenceSequence(alpha: 0.05, tunedFor: cycles)
    var random = SplitMix64(seed: 9)
    var shown = 0
    let runs = 400
    for run in 0..<runs {
      let schedule = ExperimentSchedule(
        arms: 2, start: Self.monday, cycles: cycles, seed: UInt64(run))
      let outcomes: [Double?] = schedule.assignment.map { arm in
        let u = max(random.uniform(), 1e-300)
        let z = (-2 * log(u)).squareRoot() * cos(2 * Double.pi * random.uniform())
        return 0.6 + 0.1 * z + (arm == 1 ? 0.05 : 0)
      }
      let contrasts = ExperimentSchedule.contrasts(
        outcomes, assignment: schedule.assignment, arms: 2, arm: 1
      ).compactMap { $0 }
      if let i = sequence.interval(contrasts), i.lower > 0 { shown += 1 }
    }
    let share = Double(shown) / Double(runs)
    #expect(share > 0.85 && share < 0.97, "shown on \(share) of runs")
  }
}
