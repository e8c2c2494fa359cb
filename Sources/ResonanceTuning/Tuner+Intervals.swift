import ResonanceBrain
import ResonanceModel

/// The intervals of `tune`: paired gains with a block bootstrap over their days.
extension Tuner {
  /// The paired gain `a − b` with a percentile interval from the circular block bootstrap of
  /// its days (`DayBlocks`).
  package static func bootstrap(
    _ a: PolicyEstimate, _ b: PolicyEstimate, days: [CalendarDay], settings: TuningSettings,
    level: Double
  ) -> TuningEvidence.Interval {
    precondition(a.decisions == b.decisions, "paired estimates cover the same decisions")
    return pooledBootstrap([(a, b, days)], settings: settings, level: level)
  }

  /// The pooled paired gain — each estimate's parts (`EstimatorForm`), Σ numerators /
  /// Σ denominators over every judged month, added — of the choices less the same of the
  /// preferences in force; its percentile interval from the circular block bootstrap of each
  /// judged month's days (`DayBlocks`: blocks of a week of consecutive calendar days, drawn
  /// until the month's span is covered once). Month by month, because the months are judged
  /// under different choices: a resample keeps each month's share of the evidence, as the
  /// estimate does.
  static func pooledBootstrap(
    _ months: [(chosen: PolicyEstimate, current: PolicyEstimate, days: [CalendarDay])],
    settings: TuningSettings, level: Double
  ) -> TuningEvidence.Interval {
    // Each month's estimates may read different slots (Switch-DR's and DRos's parameter is
    // chosen fold by fold), but every one has the same parts: pooled, part by part, each
    // part's numerator and denominator sums run over every month's decisions. They are kept
    // per day, so that a resample is a weighted sum of days.
    let parts = months.first?.chosen.form.parts.count ?? 0
    var dayList: [CalendarDay] = []
    var dayIndex: [CalendarDay: Int] = [:]
    var monthDays: [[Int]] = []  // per month, its days' indices into dayList
    var chosen: [Double] = []  // per day, per part: numerator, denominator
    var current: [Double] = []
    func add(_ e: PolicyEstimate, position i: Int, day g: Int, to sums: inout [Double]) {
      for (p, part) in e.form.parts.enumerated() {
        sums[(g * parts + p) * 2] +=
          e.terms[part.numerator][i] - (part.less.map { e.terms[$0][i] } ?? 0)
        sums[(g * parts + p) * 2 + 1] += e.terms[part.denominator][i]
      }
    }
    for month in months {
      monthDays.append([])
      for (i, day) in month.days.enumerated() {
        let g: Int
        if let known = dayIndex[day] {
          g = known
        } else {
          g = dayList.count
          dayIndex[day] = g
          dayList.append(day)
          monthDays[monthDays.count - 1].append(g)
          chosen += repeatElement(0, count: 2 * parts)
          current += repeatElement(0, count: 2 * parts)
        }
        add(month.chosen, position: i, day: g, to: &chosen)
        add(month.current, position: i, day: g, to: &current)
      }
    }
    func gain(_ counts: [Int]) -> Double? {
      var total = 0.0
      for (sums, sign) in [(chosen, 1.0), (current, -1.0)] {
        for p in 0..<parts {
          var n = 0.0
          var d = 0.0
          for (g, c) in counts.enumerated() where c > 0 {
            n += Double(c) * sums[(g * parts + p) * 2]
            d += Double(c) * sums[(g * parts + p) * 2 + 1]
          }
          guard d != 0 else { return nil }
          total += sign * n / d
        }
      }
      return total
    }
    let all = Array(dayList.indices)
    let estimate = gain(all.map { _ in 1 }) ?? .nan
    guard monthDays.contains(where: { $0.count > 1 }) else {
      return .init(estimate: estimate, lower: .nan, upper: .nan, level: level)
    }
    let blocks = DayBlocks(dayList)
    var rng = SplitMix64(seed: settings.bootstrapSeed, stream: "tune-bootstrap")
    var gains: [Double] = []
    gains.reserveCapacity(settings.bootstrapReplicates)
    var counts = [Int](repeating: 0, count: dayList.count)
    for _ in 0..<settings.bootstrapReplicates {
      for days in monthDays {
        for (i, c) in blocks.resample(days, rng: &rng).enumerated() { counts[days[i]] = c }
      }
      if let g = gain(counts) { gains.append(g) }
    }
    gains.sort()
    let tail = (1 - level) / 2
    return .init(
      estimate: estimate, lower: Statistics.quantile(gains, tail),
      upper: Statistics.quantile(gains, 1 - tail), level: level)
  }
}
