import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("the report's statistics")
struct ReportStatisticsTests {
  static let hour: Int64 = 3_600_000
  /// 2022-06-06, a Monday, 00:00 UTC.
  static let monday = CalendarDay("2022-06-06")!

  static func time(_ day: CalendarDay, hour h: Double, offset: Int32 = 0) -> Timestamp {
    Timestamp(
      millisecondsSinceEpoch: day.daysSinceEpoch * 86_400_000 + Int64(h * 3_600_000)
        - Int64(offset) * 1000,
      utcOffsetSeconds: offset)
  }

  static func night(_ id: Int64, _ evening: CalendarDay, asleep hours: Double) -> NightRecord {
    NightRecord(
      id: id, evening: evening, bedtime: time(evening, hour: 23),
      wake: time(CalendarDay(daysSinceEpoch: evening.daysSinceEpoch + 1), hour: 7),
      asleepMs: Int64(hours * 3_600_000), deepShare: nil, efficiency: nil)
  }

  static func session(_ id: Int64, from: Timestamp, minutes: Double, quality: Double? = nil)
    -> SessionRecord
  {
    SessionRecord(
      id: id, start: from,
      end: Timestamp(
        millisecondsSinceEpoch: from.millisecondsSinceEpoch + Int64(minutes * 60_000),
        utcOffsetSeconds: from.utcOffsetSeconds),
      context: .relax, plays: 5, skipRate: 0.2, quality: quality)
  }

  @Test("weekdays: 1970-01-01 was a Thursday, 2022-06-06 a Monday")
  func weekdays() {
    #expect(ReportStatistics.weekday(CalendarDay(daysSinceEpoch: 0)) == 3)
    #expect(ReportStatistics.weekday(Self.monday) == 0)
    #expect(ReportStatistics.weekday(CalendarDay("2022-06-11")!) == 5)
  }

  @Test(
    "an evening counts the music in the four hours before bedtime, not after it, and knows its weekday and workouts"
  )
  func evenings() {
    let friday = CalendarDay("2022-06-10")!
    let night = Self.night(1, friday, asleep: 7)
    let sessions = [
      Self.session(1, from: Self.time(friday, hour: 18), minutes: 30),  // before the window
      Self.session(2, from: Self.time(friday, hour: 18.5), minutes: 60),  // 30 min inside
      Self.session(3, from: Self.time(friday, hour: 21.5), minutes: 60),  // 60 min inside
      Self.session(4, from: Self.time(friday, hour: 23.5), minutes: 60),  // after bedtime
    ]
    let workout = TimeSpan(
      startMs: Self.time(friday, hour: 9).millisecondsSinceEpoch,
      endMs: Self.time(friday, hour: 10).millisecondsSinceEpoch)
    let evening = ReportStatistics.evenings([night], sessions: sessions, workouts: [workout])[0]
    #expect(abs(evening.eveningMinutes - 90) < 1e-9)
    #expect(evening.eveningMusic)
    #expect(evening.weekday == 4)  // Friday
    #expect(evening.workoutThatDay)
    let quiet = ReportStatistics.evenings(
      [Self.night(2, Self.monday, asleep: 7)], sessions: sessions, workouts: [workout])[0]
    #expect(quiet.eveningMinutes == 0 && !quiet.eveningMusic && quiet.weekday == 0)
    #expect(!quiet.workoutThatDay)
  }

  /// 60 nights: after music 8 h ± a little, otherwise 7 h ± a little, and weekends +0.5 h.
  static func evenings(count: Int = 60, seed: UInt64 = 9) -> [EveningNight] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { i in
      let day = CalendarDay(daysSinceEpoch: monday.daysSinceEpoch + Int64(i))
      let music = i % 3 != 0
      let weekday = ReportStatistics.weekday(day)
      let weekend = [4, 5].contains(weekday)
      let hours = (music ? 8.0 : 7.0) + (weekend ? 0.5 : 0) + rng.uniform(-0.3, 0.3)
      return EveningNight(
        night: night(Int64(i), day, asleep: hours), eveningMinutes: music ? 45 : 0,
        eveningMusic: music, weekday: weekday, workoutThatDay: i % 5 == 0)
    }
  }

  @Test(
    "the sleep comparison finds the planted hour, its interval covers it, and the adjusted figure does too"
  )
  func sleepComparison() throws {
    let comparisons = ReportStatistics.sleepComparisons(Self.evenings())
    let asleep = try #require(comparisons.first { $0.outcome == "asleep_h" })
    #expect(asleep.nightsWith == 40 && asleep.nightsWithout == 20)
    let difference = try #require(asleep.difference)
    #expect(abs(difference - 1) < 0.2)
    let (low, high) = (try #require(asleep.low90), try #require(asleep.high90))
    #expect(low < 1 && 1 < high && low > 0.7 && high < 1.3)
    let adjusted = try #require(asleep.adjusted)
    #expect(abs(adjusted - 1) < 0.1)
    let se = (try #require(asleep.adjustedHigh90) - adjusted) / 1.6448536269514722
    #expect(abs(adjusted - 1) < 3 * se)
    // The same store gives the same interval.
    #expect(ReportStatistics.sleepComparisons(Self.evenings()) == comparisons)
    // Outcomes never measured: counts, no difference.
    let hr = try #require(comparisons.first { $0.outcome == "overnight_hr_bpm" })
    #expect(hr.nightsWith == 0 && hr.difference == nil && hr.low90 == nil)
  }

  @Test("over 200 simulated histories both 90% intervals cover the planted hour 80–97% of the time")
  func coverage() throws {
    var bootstrap = 0
    var adjusted = 0
    for seed in 1...200 {
      let asleep = try #require(
        ReportStatistics.sleepComparisons(Self.evenings(seed: UInt64(seed))).first {
          $0.outcome == "asleep_h"
        })
      if let low = asleep.low90, let high = asleep.high90, low < 1, 1 < high { bootstrap += 1 }
      if let low = asleep.adjustedLow90, let high = asleep.adjustedHigh90, low < 1, 1 < high {
        adjusted += 1
      }
    }
    // The raw difference also carries the weekend's half hour where music and weekends
    // overlap unevenly, so only the adjusted interval is held to the nominal level.
    #expect((160...194).contains(adjusted), "adjusted interval covered \(adjusted) of 200")
    #expect(bootstrap >= 120, "bootstrap interval covered \(bootstrap) of 200")
  }

  @Test("fewer than five nights on a side: no difference is claimed")
  func tooFewNights() {
    let few =
      Array(Self.evenings().filter { !$0.eveningMusic }.prefix(4))
      + Self.evenings().filter(\.eveningMusic)
    let asleep = ReportStatistics.sleepComparisons(few).first { $0.outcome == "asleep_h" }
    #expect(asleep?.nightsWithout == 4)
    #expect(asleep?.difference == nil && asleep?.adjusted == nil)
  }

  @Test("weekly quality: weeks start on Mondays, and a steady rise of 0.01 a week is its trend")
  func weeklyTrend() throws {
    let offsets: [Double] = [0, 0.02, -0.02]
    var sessions: [SessionRecord] = []
    for week in 0..<10 {
      for k in 0..<3 {
        let day = CalendarDay(daysSinceEpoch: Self.monday.daysSinceEpoch + Int64(7 * week + 2 * k))
        let quality = 0.5 + 0.01 * Double(week) + offsets[k]
        sessions.append(
          Self.session(
            Int64(week * 3 + k), from: Self.time(day, hour: 20), minutes: 30, quality: quality))
      }
    }
    let weeks = ReportStatistics.weeklyQuality(sessions)
    #expect(weeks.count == 10)
    #expect(weeks.allSatisfy { ReportStatistics.weekday($0.week) == 0 && $0.sessions == 3 })
    let trend = try #require(ReportStatistics.qualityTrend(weeks))
    #expect(abs(trend.slope - 0.01) < 1e-9)
    #expect(trend.low90 <= trend.slope && trend.slope <= trend.high90)
    #expect(trend.points == 10)
    #expect(ReportStatistics.qualityTrend(Array(weeks.prefix(2))) == nil)
  }

  @Test(
    "the best and worst sessions: the five at each end, and the parts' means in the best and worst quarters"
  )
  func contrast() throws {
    let sessions = (0..<20).map { i in
      var s = Self.session(
        Int64(i), from: Self.time(Self.monday, hour: Double(i) / 2), minutes: 10,
        quality: Double(i) / 20)
      s.skipRate = 1 - Double(i) / 20
      s.context = i % 2 == 0 ? .relax : .commute
      return s
    }
    let contrast = try #require(
      ReportStatistics.contrast(
        sessions + [Self.session(99, from: Self.time(Self.monday, hour: 20), minutes: 5)]))
    #expect(contrast.best.map(\.id) == [19, 18, 17, 16, 15])
    #expect(contrast.worst.map(\.id) == [0, 1, 2, 3, 4])
    #expect(contrast.quarter == 5)
    let skip = try #require(contrast.parts.first { $0.name == "skip_rate" })
    #expect(abs((skip.best ?? 0) - 0.15) < 1e-12 && abs((skip.worst ?? 0) - 0.9) < 1e-12)
    #expect(
      contrast.contexts == [
        .init(context: .commute, best: 3, worst: 2), .init(context: .relax, best: 2, worst: 3),
      ])
    #expect(ReportStatistics.contrast(Array(sessions.prefix(9))) == nil)
    let overview = ReportStatistics.overview(
      sessions + [Self.session(99, from: Self.time(Self.monday, hour: 20), minutes: 5)])
    #expect(overview.sessions == 21 && overview.rated == 20)
    #expect(abs((overview.meanQuality ?? 0) - 0.475) < 1e-12)
  }

  @Test(
    "the resting heart rate is Health's figure when there is one, else the lowest hourly mean at rest"
  )
  func dailyVitals() throws {
    let day = Self.monday
    let other = CalendarDay(daysSinceEpoch: day.daysSinceEpoch + 1)
    func reading(_ d: CalendarDay, _ h: Double, _ v: Double, moving: Bool = false) -> SignalReading
    {
      SignalReading(
        timeMs: Self.time(d, hour: h).millisecondsSinceEpoch, value: v, isMoving: moving)
    }
    let heart =
      [3.1, 3.3, 3.5].map { reading(other, $0, 52) }
      + [14.1, 14.2, 14.3].map { reading(other, $0, 70) }
      + [5.1, 5.2].map { reading(other, $0, 40) }  // two readings: not an hour's mean
      + [6.1, 6.2, 6.3].map { reading(other, $0, 45, moving: true) }  // moving: not at rest
    let vitals = ReportStatistics.dailyVitals(
      resting: [SignalSample(timeMs: Self.time(day, hour: 8).millisecondsSinceEpoch, value: 58)],
      heartRate: heart, hrv: [reading(day, 9, 40), reading(day, 21, 50)], beatLists: [],
      offsets: UTCOffsetTimeline(points: []))
    #expect(vitals.count == 2)
    #expect(vitals[0].restingHeartRate == 58 && vitals[0].restingSource == .health)
    #expect(vitals[0].sdnn == 45 && vitals[0].sdnnReadings == 2)
    #expect(vitals[1].restingHeartRate == 52 && vitals[1].restingSource == .lowestHourAtRest)
  }

  @Test("overnight figures are the means at rest between bedtime and waking")
  func overnight() {
    let night = Self.night(1, Self.monday, asleep: 7)
    let next = CalendarDay(daysSinceEpoch: Self.monday.daysSinceEpoch + 1)
    let readings = [
      SignalReading(
        timeMs: Self.time(Self.monday, hour: 22).millisecondsSinceEpoch, value: 90, isMoving: false),
      SignalReading(
        timeMs: Self.time(next, hour: 1).millisecondsSinceEpoch, value: 50, isMoving: false),
      SignalReading(
        timeMs: Self.time(next, hour: 2).millisecondsSinceEpoch, value: 54, isMoving: false),
      SignalReading(
        timeMs: Self.time(next, hour: 3).millisecondsSinceEpoch, value: 99, isMoving: true),
      SignalReading(
        timeMs: Self.time(next, hour: 8).millisecondsSinceEpoch, value: 80, isMoving: false),
    ]
    let filled = ReportStatistics.withOvernightVitals([night], heartRate: readings, hrv: [])[0]
    #expect(filled.overnightHeartRate == 52)
    #expect(filled.overnightHRV == nil)
  }

  @Test(
    "rankings: songs with three plays in a context or more, by calm and by energy, each song in one list at most and only with a positive score"
  )
  func rankings() {
    let songs = (1...4).map {
      SongRecord(id: Int64($0), title: "s\($0)", artist: "a", genre: "g", plays: 10, skips: 1)
    }
    func effect(_ id: Int64, _ calm: Double, _ energy: Double, _ n: Int) -> SongEffect {
      SongEffect(
        songID: id, context: .relax,
        effect: LearnedSongEffect(calm: calm, energy: energy, focus: 0, mood: 0, sampleCount: n),
        updatedAtMs: 0)
    }
    let ranked = ReportStatistics.rankings(
      effects: [
        effect(1, 0.9, -0.5, 2), effect(2, 0.5, 0.1, 3), effect(3, 0.7, 0.6, 8),
        effect(4, -0.2, 0.9, 4), effect(5, -0.1, -0.3, 9), effect(6, 0.2, 0.8, 5),
      ],
      songs: songs
        + [5, 6].map {
          SongRecord(id: $0, title: "s\($0)", artist: "a", genre: "g", plays: 10, skips: 1)
        }, count: 2)
    #expect(ranked.count == 1)
    #expect(ranked[0].context == .relax)
    // Song 1 has too few plays; 3 leans calm, 6 energy; 5 scores below 0 on both.
    #expect(ranked[0].calming.map(\.song.id) == [3, 2])
    #expect(ranked[0].energising.map(\.song.id) == [4, 6])
  }
}
