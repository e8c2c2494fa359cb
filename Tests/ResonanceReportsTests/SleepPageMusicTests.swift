import ResonanceModel
import Testing

@testable import ResonanceReports

@Suite("sleep.md's evenings by what was played")
struct SleepPageMusicTests {
  /// Twelve nights, the odd evenings with music and figures.
  static var evenings: [EveningNight] {
    let day = CalendarDay("2022-06-06")!
    return (0..<12).map { (i: Int) -> EveningNight in
      let shift = Int64(i) * 86_400_000
      let night = NightRecord(
        id: Int64(i), evening: CalendarDay(daysSinceEpoch: day.daysSinceEpoch + Int64(i)),
        bedtime: Timestamp(millisecondsSinceEpoch: 1_654_556_400_000 + shift),
        wake: Timestamp(millisecondsSinceEpoch: 1_654_585_200_000 + shift),
        asleepMs: 25_200_000, deepShare: 0.2, efficiency: 0.9)
      let music = i % 2 == 1
      return EveningNight(
        night: night, eveningMinutes: music ? 40 : 0, eveningMusic: music, weekday: i % 7,
        workoutThatDay: false, heardMinutes: music ? 40 : 0,
        heartRateEffect: music ? -0.25 * Double(i) + 1 : nil, estimatedShare: music ? 0.8 : nil,
        tempoBPM: music ? 90 + Double(i) : nil)
    }
  }

  static func comparison(
    _ outcome: String, _ label: String, _ unit: String, counts: (Int, Int),
    difference: Double? = nil
  ) -> GroupComparison {
    GroupComparison(
      outcome: outcome, label: label, unit: unit, nightsWith: counts.0,
      nightsWithout: counts.1, meanWith: 7.64, meanWithout: 7.86, difference: difference,
      low90: difference.map { $0 - 0.18 }, high90: difference.map { $0 + 0.17 },
      adjusted: difference, adjustedLow90: difference.map { $0 - 0.2 },
      adjustedHigh90: difference.map { $0 + 0.2 })
  }

  static func page(_ splits: [EveningSplit]) -> ReportPage {
    let main = GroupComparison(
      outcome: "asleep_h", label: "time asleep", unit: "h", nightsWith: 6, nightsWithout: 6,
      meanWith: 7, meanWithout: 7, difference: 0, low90: -0.1, high90: 0.1)
    return SleepPage.make(
      evenings: evenings, comparisons: [main], splits: splits, range: ReportRange(DayRange()),
      eveningHours: 4, eveningMinutes: 10)
  }

  static let calm = EveningSplit(
    measure: .heartRateEffect, rule: .zero, threshold: 0, eveningsWithMusic: 256, below: 98,
    atOrAbove: 157, coveredShare: 0.876,
    comparisons: [
      comparison("asleep_h", "time asleep", "h", counts: (98, 157), difference: -0.22),
      comparison("deep_share_pct", "deep sleep", "% of staged sleep", counts: (72, 4)),
    ])
  static let tempo = EveningSplit(
    measure: .tempo, rule: .median, threshold: 95.43, eveningsWithMusic: 256, below: 128,
    atOrAbove: 128,
    comparisons: [comparison("asleep_h", "time asleep", "h", counts: (128, 128), difference: 0.02)]
  )

  @Test(
    "the section has a table per split with its parts named, says where each was split, and calls it an association"
  )
  func section() throws {
    let page = Self.page([Self.calm, Self.tempo])
    let text = page.files[0].text
    let section = try #require(text.range(of: "## Which evening music"))
    let after = String(text[section.upperBound...])
    #expect(after.contains("### Calmer against more energising songs"))
    #expect(
      after.contains(
        "| outcome | nights calmer / more energising | mean calmer | mean more energising | "
          + "difference (90%) | adjusted (90%) |"))
    #expect(after.contains("| time asleep (h) | 98 / 157 | 7.64 | 7.86 | −0.22 (−0.40 … −0.05) |"))
    #expect(after.contains("split at 0 bpm: 98 *calmer* evenings"))
    #expect(after.contains("88% of their listening was of songs with one"))
    #expect(after.contains("255 of the 256 evenings with music had a song with an estimate"))
    #expect(after.contains("### Slower against faster songs"))
    #expect(after.contains("| outcome | nights slower / faster | mean slower | mean faster |"))
    #expect(after.contains("split at their median tempo, 95.4 BPM"))
    #expect(after.contains("| time asleep (h) | 128 / 128 | 7.64 | 7.86 | +0.02 (−0.16 … +0.19) |"))
    #expect(after.contains("associations, not causes"))
    // The first comparison's statement is still there, before the section.
    #expect(text[..<section.lowerBound].contains("This is an association, not a cause."))
    // Every table row has as many cells as its header.
    for line in text.split(separator: "\n") where line.hasPrefix("|") {
      #expect(line.split(separator: "|", omittingEmptySubsequences: false).count == 8, "\(line)")
    }

    let byMusic = try #require(page.files.first { $0.name == "sleep-by-music.csv" }).text
    let rows = byMusic.split(separator: "\r\n")
    #expect(rows.count == 4)
    #expect(rows[0].hasPrefix("split,rule,threshold,evenings_below,evenings_at_or_above,"))
    #expect(rows[1].hasPrefix("hr_effect,zero,0,98,157,0.876,asleep_h,h,98,157,"))
    #expect(rows[3].hasPrefix("tempo,median,95.43,128,128,,asleep_h,"))
  }

  @Test("the per-night CSV gains each evening's song effect, tempo and covered share at the end")
  func nightColumns() throws {
    let files = Self.page([Self.calm, Self.tempo]).files
    let csv = try #require(files.first { $0.name == "sleep.csv" }).text
    let lines = csv.split(separator: "\r\n")
    #expect(
      lines[0]
        == "night_id,evening,bedtime,wake,asleep_h,deep_share,efficiency,overnight_hr_bpm,"
        + "overnight_sdnn_ms,evening_music_min,evening_music,evening_weekday,workout_that_day,"
        + "bedtime_utc,wake_utc,evening_hr_effect_bpm,evening_tempo_bpm,"
        + "evening_hr_estimated_share")
    // Night 1 had music: effect −0.25 + 1, tempo 91, 80% estimated; night 0 none.
    #expect(lines[2].hasSuffix(",0.75,91,0.8"))
    #expect(lines[1].hasSuffix("Z,,,"))
  }

  @Test("a split with fewer than five nights after one part says so and names the outcomes")
  func tooFewSentence() {
    let text = Self.page([Self.calm, Self.tempo]).files[0].text
    #expect(
      text.contains(
        "A comparison needs at least five nights after calmer evenings and five after more "
          + "energising ones, with the figure measured; too few for deep sleep (72 / 4), so "
          + "that row gives counts and no difference."))
    // The tempo split compared every outcome it has, so it says nothing of the kind.
    #expect(!text.contains("after slower evenings and five"))
    let thin = EveningSplit(
      measure: .tempo, rule: .median, threshold: 100, eveningsWithMusic: 8, below: 3, atOrAbove: 4,
      comparisons: [
        Self.comparison("asleep_h", "time asleep", "h", counts: (3, 4)),
        Self.comparison("overnight_hr_bpm", "overnight heart rate", "bpm", counts: (2, 4)),
      ])
    let thinText = Self.page([Self.calm, thin]).files[0].text
    #expect(
      thinText.contains(
        "too few for every outcome: time asleep (3 / 4), overnight heart rate (2 / 4), so those "
          + "rows give counts and no difference."))
    #expect(thinText.contains("| time asleep (h) | 3 / 4 | 7.64 | 7.86 | – | – |"))
  }

  @Test("the median used for balance is stated with the zero split it replaced")
  func medianForBalance() {
    var split = Self.calm
    split.rule = .medianForBalance(belowZero: 10, atOrAboveZero: 2)
    split.threshold = -0.4
    split.below = 6
    split.atOrAbove = 6
    split.eveningsWithMusic = 12
    let text = Self.page([split, Self.tempo]).files[0].text
    #expect(text.contains("All 12 evenings with music had a song with an estimate"))
    #expect(
      text.contains(
        "At 0 bpm the split would be 10 against 2, fewer than a quarter of the evenings on one "
          + "side, so it is at their median, −0.40 bpm: the 6 *calmer* evenings (below) against "
          + "6 *more energising* ones (at or above)."))
  }

  @Test("with no song estimates yet the section says what it needs instead of a table")
  func noEstimates() {
    let empty = EveningSplit(
      measure: .heartRateEffect, rule: .zero, threshold: nil, eveningsWithMusic: 6, below: 0,
      atOrAbove: 0,
      comparisons: [Self.comparison("asleep_h", "time asleep", "h", counts: (0, 0))])
    let text = Self.page([empty, Self.tempo]).files[0].text
    #expect(text.contains("No evening with music has a song with a heart-rate estimate yet"))
    #expect(!text.contains("nights calmer / more energising"))
    #expect(text.contains("nights slower / faster"))
  }
}
