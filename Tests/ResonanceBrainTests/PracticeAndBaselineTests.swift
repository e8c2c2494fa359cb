import ResonanceModel
import Testing

@testable import ResonanceBrain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("breathing practice against HRV")
struct PracticeStatisticsTests {
  /// 2022-06-06, a Monday.
  static let monday = CalendarDay("2022-06-06")!

  static func day(_ n: Int) -> CalendarDay {
    CalendarDay(daysSinceEpoch: monday.daysSinceEpoch + Int64(n))
  }

  static func session(on day: CalendarDay, before: Double?, after: Double?)
    -> BreathingSessionResult
  {
    BreathingSessionResult(
      file: "b.jsonl", session: 1, pattern: "box",
      started: ReportStatisticsTests.time(day, hour: 8),
      result: BreathingResult(
        resonanceScore: nil, events: 0, matched: 0, breaths: 0, breathsPerMinute: nil,
        rateVariability: nil, pacerBreathsPerMinute: nil, phaseLocking: nil, lagSeconds: nil,
        inSyncShare: nil, coherence: nil, coherencePeakHz: nil, rsaAmplitude: nil,
        hrvBefore: before, hrvAfter: after, dominantExpression: nil, notes: []))
  }

  static func night(_ evening: CalendarDay, sdnn: Double) -> NightRecord {
    var night = ReportStatisticsTests.night(evening.daysSinceEpoch, evening, asleep: 7)
    night.overnightHRV = sdnn
    return night
  }

  @Test("the within-session change is the mean of after − before with a t interval by hand")
  func withinSession() throws {
    let sessions =
      [(50.0, 54.0), (48.0, 50.0), (52.0, 58.0), (47.0, 47.0)].enumerated().map {
        Self.session(on: Self.day($0.offset), before: $0.element.0, after: $0.element.1)
      } + [Self.session(on: Self.day(9), before: 50, after: nil)]
    let w = try #require(PracticeStatistics.withinSession(sessions))
    // Changes 4, 2, 6, 0: mean 3, sd √(20/3); t(0.95, 3) = 2.353363.
    #expect(w.sessions == 4)
    #expect(abs(w.change - 3) < 1e-12)
    let half = 2.353363 * (20.0 / 3 / 4).squareRoot()
    #expect(abs(w.low90 - (3 - half)) < 1e-5)
    #expect(abs(w.high90 - (3 + half)) < 1e-5)
    #expect(abs(w.meanBefore - 49.25) < 1e-12 && abs(w.meanAfter - 52.25) < 1e-12)
  }

  @Test("practice days recover a planted night shift; too few days give no estimate")
  func days() throws {
    // Twelve weeks; practice on a scattered two days in five, never the last three days;
    // weekends 3 ms lower; practice adds 5 ms.
    var sessions: [BreathingSessionResult] = []
    var nights: [NightRecord] = []
    var vitals: [DailyVitals] = []
    for n in 0..<84 {
      let weekday = n % 7
      let practised = n < 81 && (n * 7919 / 13) % 5 < 2
      if practised { sessions.append(Self.session(on: Self.day(n), before: 50, after: 55)) }
      let wobble = Double((n * 37) % 11) / 5 - 1  // −1 … +1, fixed
      nights.append(
        Self.night(Self.day(n), sdnn: 60 + (weekday >= 5 ? -3 : 0) + (practised ? 5 : 0) + wobble))
      vitals.append(
        DailyVitals(
          day: Self.day(n + 1), restingHeartRate: 58 + (practised ? -1 : 0) + wobble / 4,
          restingSource: .health, sdnn: nil, sdnnReadings: 0, rmssd: nil, beatLists: 0))
    }
    let effects = PracticeStatistics.effects(
      sessions: sessions, nights: nights, vitals: vitals, workoutDays: [])
    let night = try #require(effects.day("night_sdnn_ms"))
    let estimate = try #require(night.adjusted)
    #expect(abs(estimate - 5) < 0.5)
    #expect(try #require(night.low90) < 5 && 5 < (try #require(night.high90)))
    let morning = try #require(effects.day("morning_resting_hr_bpm")?.adjusted)
    #expect(abs(morning + 1) < 0.2)
    // Only the days from the first session to the last count.
    let first = try #require(sessions.first?.started).millisecondsSinceEpoch / 86_400_000
    let last = try #require(sessions.last?.started).millisecondsSinceEpoch / 86_400_000
    #expect(night.daysWith == sessions.count)
    #expect(Int64(night.daysWith + night.daysWithout) == last - first + 1)

    let few = PracticeStatistics.effects(
      sessions: [sessions[0], sessions[1]], nights: nights, vitals: vitals, workoutDays: [])
    #expect(few.day("night_sdnn_ms")?.adjusted == nil)
    #expect(few.day("night_sdnn_ms")?.daysWith == 2)
  }

  @Test("dose–response: more sessions a week, higher weekly SDNN, slope by least squares")
  func dose() throws {
    var sessions: [BreathingSessionResult] = []
    var nights: [NightRecord] = []
    for week in 0..<8 {
      let count = week % 4  // 0, 1, 2, 3 sessions
      for k in 0..<max(count, 1) where k < count {
        sessions.append(Self.session(on: Self.day(7 * week + k), before: 50, after: 52))
      }
      for d in 0..<7 {
        nights.append(Self.night(Self.day(7 * week + d), sdnn: 60 + 2 * Double(count)))
      }
    }
    let dose = try #require(
      PracticeStatistics.effects(sessions: sessions, nights: nights, vitals: [], workoutDays: [])
        .dose)
    #expect(abs(dose.slope - 2) < 1e-9)
    #expect(dose.points.count >= PracticeEffects.minimumWeeks)
  }
}

@Suite("normal ranges and sustained changes")
struct BaselineStatisticsTests {
  /// Deterministic noise: a fixed sequence of standard-normal-like values.
  static func noise(_ n: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed, stream: "baseline-test")
    return (0..<n).map { _ in rng.normal() }
  }

  static func series(_ values: [Double]) -> [(CalendarDay, Double)] {
    values.enumerated().map { (PracticeStatisticsTests.day($0.offset), $0.element) }
  }

  @Test("a step of 3 with noise 1 is found within a few days of where it was planted")
  func findsStep() throws {
    for seed in 1...5 as ClosedRange<UInt64> {
      let e = Self.noise(300, seed: seed)
      let values = (0..<300).map { i -> Double in
        let step: Double = i >= 170 ? 3 : 0
        return 60 - 0.004 * Double(i) + step + e[i]
      }
      let change = try #require(BaselineStatistics.sustainedChange(Self.series(values)))
      let planted = PracticeStatisticsTests.day(170).daysSinceEpoch
      #expect(abs(change.day.daysSinceEpoch - planted) <= 5)
      #expect(abs(change.step - 3) < 0.9)  // the line and the step share the trend
      #expect(change.low90 < change.step && change.step < change.high90)
    }
  }

  @Test("a slope, a slow wave or noise alone is not called a step")
  func noFalseStep() {
    for seed in 1...5 as ClosedRange<UInt64> {
      let e = Self.noise(365, seed: seed)
      var ar = 0.0
      let values = (0..<365).map { i -> Double in
        ar = 0.5 * ar + e[i]
        let wave = 0.8 * sin(2 * Double.pi * Double(i) / 47)
        return 60 - 3 * Double(i) / 365 + wave + ar
      }
      #expect(BaselineStatistics.sustainedChange(Self.series(values)) == nil, "seed \(seed)")
    }
    let short = Self.series([1, 2, 3])
    #expect(BaselineStatistics.sustainedChange(short) == nil)
    #expect(!BaselineStatistics.baseline(.restingHeartRate, short).searched)
  }

  @Test("the normal range is the 60 days' mean ± half their SD, and weeks are judged by it")
  func normalRange() throws {
    // 70 days alternating 59 and 61: mean 60, SD ≈ 1.0084 over 60 days; then a week at 63.
    let values = (0..<70).map { $0 % 2 == 0 ? 59.0 : 61 } + Array(repeating: 63.0, count: 7)
    let baseline = BaselineStatistics.baseline(.restingHeartRate, Self.series(values))
    let week = try #require(baseline.weeks.last)
    #expect(week.monday == PracticeStatisticsTests.day(70))
    #expect(abs(week.baseline - 60) < 1e-9)
    let sd = (Double(60) / 59).squareRoot()
    #expect(abs(week.swc - sd / 2) < 1e-9)
    #expect(week.side == 1)
    #expect(baseline.weeks.dropLast().allSatisfy { $0.side == 0 })
  }

  @Test("morning HRV takes only beat lists started before 09:00 local, as ln RMSSD")
  func morning() throws {
    func list(hour: Double, offset: Int32, rr: [Double]) -> BeatList {
      let start = ReportStatisticsTests.time(
        PracticeStatisticsTests.monday, hour: hour, offset: offset)
      var t = start.millisecondsSinceEpoch
      var beats: [HealthBeat] = []
      for interval in rr {
        t += Int64(interval)
        beats.append(HealthBeat(timeMs: t, bpm: 60_000 / interval))
      }
      return BeatList(start: start, beats: beats)
    }
    let steady = [1000.0, 1040, 1000, 1040, 1000, 1040, 1000, 1040]
    let values = BaselineStatistics.morningLnRMSSD([
      list(hour: 3, offset: -25_200, rr: steady),
      list(hour: 14, offset: -25_200, rr: steady.map { $0 * 0.5 }),
    ])
    let value = try #require(values.first)
    #expect(values.count == 1)
    #expect(value.0 == PracticeStatisticsTests.monday)
    #expect(value.1 > 3 && value.1 < 4)  // RMSSD of ±40 ms alternation: about 40 ms, ln ≈ 3.7
  }
}
