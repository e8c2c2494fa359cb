import ResonanceModel
import Testing

@testable import ResonanceBrain

/// The person-level effects a hand-off carries (`PersonEffects`, docs/cohort.md), where a
/// simulated cohort found them biased.
@Suite("person-level effects")
struct PersonEffectsTests {
  @Test(
    "the tempo slope counts only songs whose tempo is measured: tempi estimated with errors of their own would dilute it"
  )
  func tempoDilution() throws {
    var rng = SplitMix64(seed: 3)
    var songs: [PersonEffects.TempoSong] = []
    for genre in 0..<6 {
      let genreBPM = 80 + 15 * Double(genre)
      for _ in 0..<40 {
        let bpm = genreBPM + rng.normal(0, 20)
        // 1.5 bpm of heart rate per 10 BPM, plus each estimate's own error.
        let estimate = 0.15 * (bpm - 120) + rng.normal(0, 0.3)
        // An estimated tempo errs by as much as the songs' tempi spread within a genre.
        let measured = rng.uniform() < 0.3
        let estimated = bpm + rng.normal(0, 20)
        songs.append(
          .init(
            bpm: measured ? bpm : estimated, isMeasured: measured, estimate: estimate, se: 0.3))
      }
    }
    let effect = try #require(PersonEffects.tempoOnHeartRate(songs))
    #expect(effect.n == songs.filter(\.isMeasured).count)
    #expect(abs(effect.estimate - 1.5) < 3 * effect.se, "\(effect.estimate) ± \(effect.se)")
    // The same slope over every song, estimated tempi and all, comes out short.
    let all = try #require(
      PersonEffects.tempoOnHeartRate(
        songs.map {
          var s = $0; s.isMeasured = true; return s
        }))
    #expect(all.estimate < 1.5 - 5 * all.se, "\(all.estimate) ± \(all.se)")
    // Too few measured songs: no slope.
    #expect(PersonEffects.tempoOnHeartRate(Array(songs.filter(\.isMeasured).prefix(9))) == nil)
  }

  @Test(
    "evening music is compared at the same bedtime: music that comes with earlier beds gains no sleep by it"
  )
  func bedtimeConfound() throws {
    var rng = SplitMix64(seed: 5)
    let monday = CalendarDay("2022-06-06")!
    let evenings = (0..<120).map { i -> EveningNight in
      let day = CalendarDay(daysSinceEpoch: monday.daysSinceEpoch + Int64(i))
      let music = rng.uniform() < 0.6
      // Music evenings lean to earlier beds; waking is fixed, so an earlier bed is a longer
      // night, and music itself does nothing.
      let bed = 23 + rng.normal(music ? -0.4 : 0.2, 0.4)
      let asleep = 7.5 - (bed - 23) + rng.normal(0, 0.2)
      let bedtime = Timestamp(
        millisecondsSinceEpoch: day.daysSinceEpoch * 86_400_000 + Int64(bed * 3_600_000),
        utcOffsetSeconds: 0)
      let night = NightRecord(
        id: Int64(i), evening: day, bedtime: bedtime,
        wake: Timestamp(
          millisecondsSinceEpoch: (day.daysSinceEpoch + 1) * 86_400_000 + 7 * 3_600_000,
          utcOffsetSeconds: 0),
        asleepMs: Int64(asleep * 3_600_000), deepShare: nil, efficiency: nil)
      return EveningNight(
        night: night, eveningMinutes: music ? 40 : 0, eveningMusic: music,
        weekday: ReportStatistics.weekday(day), workoutThatDay: false)
    }
    let asleep = try #require(
      ReportStatistics.sleepComparisons(evenings).first { $0.outcome == "asleep_h" })
    let raw = try #require(asleep.difference)
    let adjusted = try #require(asleep.adjusted)
    let se = try #require(asleep.adjustedSE)
    #expect(raw > 0.4, "the raw difference carries the earlier beds: \(raw) h")
    #expect(abs(adjusted) < 3 * se && se < 0.06, "adjusted \(adjusted) ± \(se) h")
    let effect = try #require(PersonEffects.eveningMusicOnAsleep([asleep]))
    #expect(abs(effect.estimate - 60 * adjusted) < 1e-9 && abs(effect.se - 60 * se) < 1e-9)
  }
}

@Test("a bedtime's clock hours are local and count on past midnight: 00:30 at UTC−7 is 24.5")
func bedtimeHours() {
  let evening = CalendarDay("2022-06-06")!
  let offset: Int32 = -7 * 3600
  // 00:30 local on the 7th is 07:30 UTC.
  let bedtime = Timestamp(
    millisecondsSinceEpoch: (evening.daysSinceEpoch + 1) * 86_400_000 + 7 * 3_600_000
      + 30 * 60_000,
    utcOffsetSeconds: offset)
  let night = NightRecord(
    id: 1, evening: evening, bedtime: bedtime, wake: bedtime, asleepMs: nil, deepShare: nil,
    efficiency: nil)
  let e = EveningNight(
    night: night, eveningMinutes: 0, eveningMusic: false, weekday: 0, workoutThatDay: false)
  #expect(e.bedtimeHours == 24.5)
}
