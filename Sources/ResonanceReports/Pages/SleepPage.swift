import ResonanceModel

/// `sleep.md`: nights after an evening with music against the other nights, and the evenings
/// with music split by what was played (`SleepPage+Music.swift`).
package enum SleepPage {
  /// Every compared outcome after evening music against other nights, favourable or not, with
  /// its 90% interval: `after evening music (90% intervals): asleep +24 min (+6 … +42),
  /// overnight heart rate +3.4 bpm (+2.4 … +4.4), …, against other nights`. Time asleep is in
  /// minutes; nil when no outcome has a difference.
  static func headline(_ comparisons: [GroupComparison]) -> String? {
    let parts = comparisons.compactMap { c -> String? in
      guard let d = c.difference else { return nil }
      let hours = c.unit == "h"
      let scale = hours ? 60.0 : 1
      let places = hours ? 0 : 1
      let unit = hours ? "min" : c.unit == "% of staged sleep" ? "points" : c.unit
      let label = hours ? "asleep" : c.label
      return "\(label) \(Figures.signed(d * scale, places)) \(unit) "
        + "(\(Figures.signed((c.low90 ?? d) * scale, places)) … "
        + "\(Figures.signed((c.high90 ?? d) * scale, places)))"
    }
    guard !parts.isEmpty else { return nil }
    return "after evening music (90% intervals): " + parts.joined(separator: ", ")
      + " against other nights"
  }

  package static func make(
    evenings: [EveningNight], comparisons: [GroupComparison], splits: [EveningSplit],
    range: ReportRange, eveningHours: Double, eveningMinutes: Double
  ) -> ReportPage {
    var text = "# Evening music and the night after\n\n"
    text += "Nights from \(range.text). An evening *with music* is one with at least "
    text += "\(Format.fixed(eveningMinutes, 0)) minutes of listening in the "
    text += "\(Format.fixed(eveningHours, 0)) hours before bedtime. The overnight heart rate and "
    text += "HRV are the means of the readings taken at rest between bedtime and waking.\n\n"
    var files: [ReportFile] = []
    let headline: String
    let with = evenings.filter(\.eveningMusic).count
    if evenings.isEmpty {
      text += "No night in this range: the sleep stage needs Health's sleep analysis "
      text += "(`HKCategoryTypeIdentifierSleepAnalysis`) in the export.\n"
      headline = "no nights in this range: the export has no sleep analysis"
    } else if comparisons.allSatisfy({ $0.difference == nil }) {
      text += "\(evenings.count) nights, \(with) after an evening with music. A comparison needs "
      text += "at least five nights on each side, with the figure measured.\n"
      headline = "\(evenings.count) nights, \(with) after evening music: too few to compare"
    } else {
      headline = Self.headline(comparisons) ?? "\(evenings.count) nights compared"
      text += "## The comparison\n\n"
      text += "\(evenings.count) nights, \(with) after an evening with music. The difference is "
      text += "the mean after music less the mean after other evenings, with a 90% interval "
      text += "from 2,000 bootstrap resamples of the nights (seeded: the same store gives the "
      text += "same interval). The adjusted difference comes from a least-squares regression "
      text += "of the outcome on evening music, the evening's weekday, a workout that day and "
      text += "the bedtime's clock time, with a 90% interval from its standard error. Bedtime is "
      text += "in it because an earlier bed alone means a longer night, and it moves which "
      text += "evenings count as evenings with music: the window is the four hours before it.\n\n"
      text += Markdown.table(
        header: [
          "outcome", "nights with / without", "mean with", "mean without", "difference (90%)",
          "adjusted (90%)",
        ],
        rows: comparisonRows(comparisons), alignments: ["l", "r", "r", "r", "r", "r"])
      text += "\n"
      text += "**This is an association, not a cause.** The nights were not assigned: an "
      text += "evening with music may also be a calmer evening, a day with less caffeine or "
      text += "alcohol, or a different mood — none of which the data hold. The regression takes "
      text += "out only the weekday, workouts and the bedtime. An interval "
      text += "that spans zero means the data cannot tell the two kinds of night apart.\n\n"
      let points = evenings.compactMap { e in
        e.night.asleepHours.map { SVGChart.Point(e.eveningMinutes, $0) }
      }
      if points.count >= 5 {
        var chart = SVGChart(
          title: "Evening listening and time asleep",
          xLabel: "minutes of music in the \(Format.fixed(eveningHours, 0)) h before bedtime",
          yLabel: "time asleep (h)")
        chart.marks = [
          .points(
            evenings.filter { !$0.eveningMusic }.compactMap { e in
              e.night.asleepHours.map { SVGChart.Point(e.eveningMinutes, $0) }
            }, series: 0),
          .points(
            evenings.filter(\.eveningMusic).compactMap { e in
              e.night.asleepHours.map { SVGChart.Point(e.eveningMinutes, $0) }
            }, series: 1),
        ]
        chart.legend = ["other evenings", "evenings with music"]
        files.append(ReportFile(name: "sleep-evenings.svg", text: chart.svg()))
        text += "![Evening listening against time asleep](sleep-evenings.svg)\n\n"
      }
    }
    if !evenings.isEmpty {
      text += musicSection(splits, eveningHours: eveningHours)
    }
    text += "Every night with its evening: [sleep.csv](sleep.csv); the comparison: "
    text += "[sleep-comparison.csv](sleep-comparison.csv); by what was played: "
    text += "[sleep-by-music.csv](sleep-by-music.csv).\n"

    var csv = CSVTable(header: [
      "night_id", "evening", "bedtime", "wake", "asleep_h", "deep_share", "efficiency",
      "overnight_hr_bpm", "overnight_sdnn_ms", "evening_music_min", "evening_music",
      "evening_weekday", "workout_that_day", "bedtime_utc", "wake_utc", "evening_hr_effect_bpm",
      "evening_tempo_bpm", "evening_hr_estimated_share",
    ])
    for e in evenings {
      let n = e.night
      csv.append([
        .integer(Int(n.id)), .text(n.evening.description), .text(ReportTime.iso8601(n.bedtime)),
        .text(ReportTime.iso8601(n.wake)), .value(n.asleepHours), .value(n.deepShare),
        .value(n.efficiency), .value(n.overnightHeartRate), .value(n.overnightHRV),
        .number(e.eveningMinutes), .integer(e.eveningMusic ? 1 : 0),
        .integer(e.weekday + 1), .integer(e.workoutThatDay ? 1 : 0),
        .text(ReportTime.utc(n.bedtime)), .text(ReportTime.utc(n.wake)),
        .value(e.heartRateEffect), .value(e.tempoBPM), .value(e.estimatedShare),
      ])
    }
    var comparison = CSVTable(header: [
      "outcome", "unit", "nights_with_music", "nights_without", "mean_with", "mean_without",
      "difference", "difference_low90", "difference_high90", "adjusted_difference",
      "adjusted_low90", "adjusted_high90",
    ])
    for c in comparisons {
      comparison.append([
        .text(c.outcome), .text(c.unit), .integer(c.nightsWith), .integer(c.nightsWithout),
        .value(c.meanWith), .value(c.meanWithout), .value(c.difference), .value(c.low90),
        .value(c.high90), .value(c.adjusted), .value(c.adjustedLow90), .value(c.adjustedHigh90),
      ])
    }
    return ReportPage(
      name: "sleep", title: "Sleep", headline: headline,
      files: [ReportFile(name: "sleep.md", text: text)] + files + [
        ReportFile(name: "sleep.csv", text: csv.text),
        ReportFile(name: "sleep-comparison.csv", text: comparison.text),
        ReportFile(name: "sleep-by-music.csv", text: musicCSV(splits).text),
      ])
  }
}
