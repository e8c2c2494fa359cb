import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("which evening music: what was played, and the evenings split by it")
struct ReportStatisticsEveningMusicTests {
  static let friday = CalendarDay("2022-06-10")!

  /// A play of `song` heard from `from` to `to`, hours of `day` (UTC).
  static func play(_ song: Int64, _ from: Double, _ to: Double, on day: CalendarDay = friday)
    -> SessionPlay
  {
    SessionPlay(
      songID: song,
      heard: TimeSpan(
        startMs: ReportStatisticsTests.time(day, hour: from).millisecondsSinceEpoch,
        endMs: ReportStatisticsTests.time(day, hour: to).millisecondsSinceEpoch),
      context: .relax)
  }

  static func estimate(_ song: Int64, _ value: Double, signal: Signal = .heartRate)
    -> SongEffectEstimate
  {
    SongEffectEstimate(
      songID: song, signal: signal, plays: 10, minutes: 30, unpooled: value, genreMean: 0,
      estimate: value, sd: 0.5, low90: value - 0.8, high90: value + 0.8)
  }

  static func features(_ song: Int64, bpm: Double) -> SongFeatureEstimate {
    SongFeatureEstimate(
      songID: song, bpm: Estimate(value: bpm, sd: 3, source: .library),
      energy: Estimate(value: 0.5, sd: 0.1, source: .genrePrior),
      valence: Estimate(value: 0.5, sd: 0.1, source: .genrePrior), familiarity: 0.5)
  }

  @Test(
    "an evening's song effect and tempo weight each song by its minutes heard before bedtime; songs without an estimate are left out and counted"
  )
  func whatWasPlayed() throws {
    // Bedtime 23:00, so the evening is 19:00–23:00.
    let night = ReportStatisticsTests.night(1, Self.friday, asleep: 7)
    let evening = EveningNight(
      night: night, eveningMinutes: 120, eveningMusic: true, weekday: 4, workoutThatDay: false)
    let quiet = EveningNight(
      night: ReportStatisticsTests.night(2, ReportStatisticsTests.monday, asleep: 7),
      eveningMinutes: 0, eveningMusic: false, weekday: 0, workoutThatDay: false)
    let plays = [
      Self.play(2, 18, 18 + 5.0 / 60),  // before the window
      Self.play(4, 17, 19.5),  // a long play: its last 30 minutes are inside
      Self.play(1, 20, 20.5),  // 30 minutes
      Self.play(5, 21, 21 + 5.0 / 60),  // 5 minutes, no heart-rate estimate, no features
      Self.play(2, 22, 22 + 10.0 / 60),  // 10 minutes
      Self.play(3, 22 + 10.0 / 60, 22.5),  // 20 minutes, no heart-rate estimate
      Self.play(1, 22 + 50.0 / 60, 23 + 20.0 / 60),  // 10 minutes before bedtime
      Self.play(2, 23.5, 23.75),  // after bedtime
    ]
    let estimates = [
      Self.estimate(1, -2), Self.estimate(2, 1), Self.estimate(4, 0.5),
      Self.estimate(3, 3, signal: .hrv), Self.estimate(5, 4, signal: .hrv),
    ]
    let features = [
      Self.features(1, bpm: 80), Self.features(2, bpm: 120), Self.features(3, bpm: 100),
      Self.features(4, bpm: 90),
    ]
    let result = ReportStatistics.withEveningSongs(
      [evening, quiet], plays: plays.reversed(), estimates: estimates, features: features)
    let music = result[0]
    // Heard: 30 + 30 + 5 + 10 + 20 + 10 = 105 minutes.
    #expect(abs(music.heardMinutes - 105) < 1e-9)
    // With a heart-rate estimate: songs 4 (30 min), 1 (30 + 10) and 2 (10) — 80 minutes.
    // (0.5 × 30 − 2 × 40 + 1 × 10) / 80 = −55 / 80.
    #expect(abs(try #require(music.heartRateEffect) - -55.0 / 80) < 1e-9)
    #expect(abs(try #require(music.estimatedShare) - 80.0 / 105) < 1e-9)
    // With a tempo: all but song 5, 100 minutes: (90 × 30 + 80 × 40 + 120 × 10 + 100 × 20) / 100.
    #expect(abs(try #require(music.tempoBPM) - 91) < 1e-9)
    // An evening with nothing heard has no figures.
    #expect(result[1].heardMinutes == 0)
    #expect(result[1].heartRateEffect == nil && result[1].estimatedShare == nil)
    #expect(result[1].tempoBPM == nil)
    // What was there before is kept.
    #expect(music.night == night && music.eveningMinutes == 120 && music.eveningMusic)
  }

  /// Twelve evenings with music (the 14th and 15th have none, the 13th has no figures), with
  /// their song effects, tempi and hours asleep as given.
  static func evenings(effects: [Double], tempi: [Double], asleep: [Double]) -> [EveningNight] {
    var list = zip(zip(effects, tempi), asleep).enumerated().map { i, row in
      let day = CalendarDay(daysSinceEpoch: ReportStatisticsTests.monday.daysSinceEpoch + Int64(i))
      return EveningNight(
        night: ReportStatisticsTests.night(Int64(i), day, asleep: row.1), eveningMinutes: 60,
        eveningMusic: true, weekday: ReportStatistics.weekday(day), workoutThatDay: i % 4 == 0,
        heardMinutes: 60, heartRateEffect: row.0.0, estimatedShare: i < 6 ? 1 : 0.5,
        tempoBPM: row.0.1)
    }
    let day = CalendarDay(daysSinceEpoch: ReportStatisticsTests.monday.daysSinceEpoch + 20)
    // Music but no song with a figure: in neither part.
    list.append(
      EveningNight(
        night: ReportStatisticsTests.night(20, day, asleep: 3), eveningMinutes: 30,
        eveningMusic: true, weekday: 0, workoutThatDay: false))
    // No evening music: in neither part, whatever its figures.
    for k in 0..<2 {
      list.append(
        EveningNight(
          night: ReportStatisticsTests.night(Int64(21 + k), day, asleep: 12), eveningMinutes: 5,
          eveningMusic: false, weekday: 0, workoutThatDay: false, heardMinutes: 5,
          heartRateEffect: -3, estimatedShare: 1, tempoBPM: 60))
    }
    return list
  }

  static let asleep = [8.0, 8.2, 7.9, 8.1, 8.3, 7.0, 7.2, 6.9, 7.1, 7.3, 7.0, 7.2]
  /// Nights store whole milliseconds asleep, so hours come back within about 3e-7.
  static let hours = 1e-6
  static let tempi: [Double] = [100, 90, 130, 85, 120, 95, 110, 80, 125, 105, 115, 88]

  @Test(
    "calmer evenings (song effect below 0) against the rest, and slower against faster at the median tempo, with the differences worked by hand"
  )
  func splits() throws {
    // Five evenings whose songs lower heart rate, seven that raise it.
    let effects = [-1.0, -1.1, -1.2, -1.3, -1.4, 0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2]
    let splits = ReportStatistics.musicSplits(
      Self.evenings(effects: effects, tempi: Self.tempi, asleep: Self.asleep))
    #expect(splits.map(\.measure) == [.heartRateEffect, .tempo])

    let calm = splits[0]
    #expect(calm.rule == .zero && calm.threshold == 0)
    #expect(calm.below == 5 && calm.atOrAbove == 7)
    // Half the minutes of the last six evenings had an estimate: (6 × 60 + 6 × 30) / 720.
    #expect(abs(try #require(calm.coveredShare) - 0.75) < 1e-9)
    let calmAsleep = try #require(calm.comparisons.first { $0.outcome == "asleep_h" })
    #expect(calmAsleep.nightsWith == 5 && calmAsleep.nightsWithout == 7)
    // (8.0 + 8.2 + 7.9 + 8.1 + 8.3) / 5 = 8.1 against (7.0 + 7.2 + … + 7.2) / 7 = 7.1.
    #expect(abs(try #require(calmAsleep.meanWith) - 8.1) < Self.hours)
    #expect(abs(try #require(calmAsleep.meanWithout) - 7.1) < Self.hours)
    #expect(abs(try #require(calmAsleep.difference) - 1.0) < Self.hours)
    let (low, high) = (try #require(calmAsleep.low90), try #require(calmAsleep.high90))
    #expect(low < 1.0 && 1.0 < high && low > 0.5)
    #expect(calmAsleep.adjusted != nil)
    // Nights never measured: counts, no difference.
    let deep = try #require(calm.comparisons.first { $0.outcome == "deep_share_pct" })
    #expect(deep.nightsWith == 0 && deep.difference == nil)

    let tempo = splits[1]
    // Sorted: 80 85 88 90 95 100 | 105 110 115 120 125 130, so the median is 102.5.
    #expect(tempo.rule == .median && tempo.threshold == 102.5)
    #expect(tempo.below == 6 && tempo.atOrAbove == 6 && tempo.coveredShare == nil)
    let tempoAsleep = try #require(tempo.comparisons.first { $0.outcome == "asleep_h" })
    // Slower: evenings 0, 1, 3, 5, 7, 11; faster: 2, 4, 6, 8, 9, 10.
    let slower = (8.0 + 8.2 + 8.1 + 7.0 + 6.9 + 7.2) / 6
    let faster = (7.9 + 8.3 + 7.2 + 7.1 + 7.3 + 7.0) / 6
    #expect(abs(try #require(tempoAsleep.meanWith) - slower) < Self.hours)
    #expect(abs(try #require(tempoAsleep.difference) - (slower - faster)) < Self.hours)
    // Another split of the same nights draws its own bootstrap, and the same store the same.
    #expect(
      ReportStatistics.musicSplits(
        Self.evenings(effects: effects, tempi: Self.tempi, asleep: Self.asleep)) == splits)
  }

  @Test(
    "a split at zero that leaves under a quarter of the evenings on one side goes to the median")
  func unbalanced() throws {
    let effects = [-1.0, -1.1, -1.2, -1.3, -1.4, -1.5, -1.6, -1.7, -1.8, -1.9, 0.5, 0.7]
    let calm = ReportStatistics.musicSplits(
      Self.evenings(effects: effects, tempi: Self.tempi, asleep: Self.asleep))[0]
    #expect(calm.rule == .medianForBalance(belowZero: 10, atOrAboveZero: 2))
    // Sorted: −1.9 … −1.4 | −1.3 … −1.0, 0.5, 0.7: the median is (−1.4 − 1.3) / 2.
    #expect(abs(try #require(calm.threshold) - -1.35) < 1e-12)
    #expect(calm.below == 6 && calm.atOrAbove == 6)
    let asleep = try #require(calm.comparisons.first { $0.outcome == "asleep_h" })
    // Below −1.35: evenings 4 … 9; at or above: 0 … 3, 10, 11.
    let first = (8.3 + 7.0 + 7.2 + 6.9 + 7.1 + 7.3) / 6
    let second = (8.0 + 8.2 + 7.9 + 8.1 + 7.0 + 7.2) / 6
    #expect(abs(try #require(asleep.difference) - (first - second)) < Self.hours)
  }

  @Test("fewer than five nights after one part: counts and no difference")
  func tooFewNights() throws {
    // Four calmer evenings of twelve: a third, so the split stays at zero.
    let effects = [-1.0, -1.1, -1.2, -1.3, 0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4]
    let calm = ReportStatistics.musicSplits(
      Self.evenings(effects: effects, tempi: Self.tempi, asleep: Self.asleep))[0]
    #expect(calm.rule == .zero && calm.below == 4 && calm.atOrAbove == 8)
    let asleep = try #require(calm.comparisons.first { $0.outcome == "asleep_h" })
    #expect(asleep.nightsWith == 4 && asleep.nightsWithout == 8)
    #expect(asleep.meanWith != nil)
    #expect(asleep.difference == nil && asleep.low90 == nil && asleep.adjusted == nil)
  }

  @Test("no evening with a figure: no threshold, no evenings, nothing compared")
  func nothingToSplit() {
    let night = ReportStatisticsTests.night(1, Self.friday, asleep: 7)
    let splits = ReportStatistics.musicSplits([
      EveningNight(
        night: night, eveningMinutes: 30, eveningMusic: true, weekday: 4, workoutThatDay: false)
    ])
    for split in splits {
      #expect(split.evenings == 0 && split.threshold == nil && split.coveredShare == nil)
      #expect(split.comparisons.allSatisfy { $0.difference == nil && $0.nightsWith == 0 })
    }
  }
}
