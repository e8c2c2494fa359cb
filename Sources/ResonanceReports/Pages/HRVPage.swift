import ResonanceModel

/// `hrv.md`: resting heart rate and HRV day by day, and the nights behind them.
package enum HRVPage {
  package static func make(
    days: [DailyVitals], overview: VitalsOverview, nights: [NightRecord], range: ReportRange
  ) -> ReportPage {
    var text = "# Resting heart rate and HRV, day by day\n\n"
    text += "Days from \(range.text). The resting heart rate is Health's own figure for the "
    text += "day when the export has one, otherwise the lowest hourly mean of the readings "
    text += "taken at rest (at least three in the hour). SDNN is the mean of the Watch's HRV "
    text += "readings that day; RMSSD is computed here from Health's beat-to-beat lists "
    text += "(Malik's artefact rule, NeuroKit2's definition: `docs/brain.md`).\n\n"
    var files: [ReportFile] = []
    let headline: String
    if days.isEmpty {
      text += "No day in this range has heart-rate or HRV readings.\n"
      headline = "no heart-rate or HRV readings in this range"
    } else {
      headline =
        "\(overview.days) days: resting heart rate "
        + "\(Format.optional(overview.meanResting, 1)) bpm, "
        + "SDNN \(Format.optional(overview.meanSDNN, 1)) ms on average"
      text += "## Over time\n\n"
      text += "\(overview.days) days; resting heart rate on \(overview.restingDays), SDNN on "
      text += "\(overview.sdnnDays), RMSSD on \(overview.rmssdDays)."
      text += change(overview.restingEarlyLate, unit: "bpm", name: "resting heart rate")
      text += change(overview.sdnnEarlyLate, unit: "ms", name: "SDNN") + "\n\n"
      if overview.restingDays >= 2 {
        var chart = SVGChart(
          title: "Resting heart rate", xLabel: "local date", yLabel: "beats per minute")
        chart.xScale = .days
        chart.marks = [
          .line(
            days.map { SVGChart.Point(Double($0.day.daysSinceEpoch), $0.restingHeartRate ?? .nan) },
            series: 0)
        ]
        files.append(ReportFile(name: "hrv-resting-hr.svg", text: chart.svg()))
        text += "![Resting heart rate by day](hrv-resting-hr.svg)\n\n"
      }
      if overview.sdnnDays >= 2 || overview.rmssdDays >= 2 {
        var chart = SVGChart(title: "HRV by day", xLabel: "local date", yLabel: "milliseconds")
        chart.xScale = .days
        chart.marks = [
          .line(
            days.map { SVGChart.Point(Double($0.day.daysSinceEpoch), $0.sdnn ?? .nan) }, series: 0),
          .points(
            days.compactMap { d in d.rmssd.map { SVGChart.Point(Double(d.day.daysSinceEpoch), $0) }
            },
            series: 1),
        ]
        chart.legend = ["SDNN (Watch)", "RMSSD (beat lists)"]
        files.append(ReportFile(name: "hrv-daily.svg", text: chart.svg()))
        text += "![SDNN and RMSSD by day](hrv-daily.svg)\n\n"
      }
    }
    text += "## The nights behind them\n\n"
    if nights.isEmpty {
      text += "No night in this range (the export has no sleep analysis).\n\n"
    } else {
      text +=
        "Each night's mean heart rate and SDNN between bedtime and waking, readings at rest:\n\n"
      text += Markdown.table(
        header: [
          "evening", "bedtime", "wake", "asleep (h)", "deep", "heart rate (bpm)", "SDNN (ms)",
        ],
        rows: nights.map { n in
          [
            n.evening.description, ReportTime.clock(n.bedtime), ReportTime.clock(n.wake),
            Format.optional(n.asleepHours, 1), Figures.percent(n.deepShare),
            Format.optional(n.overnightHeartRate, 1), Format.optional(n.overnightHRV, 1),
          ]
        }, alignments: ["l", "l", "l", "r", "r", "r", "r"])
      text += "\n"
    }
    text += "Every day: [hrv-daily.csv](hrv-daily.csv); the nights are in [sleep.csv](sleep.csv).\n"
    var csv = CSVTable(header: [
      "date", "resting_hr_bpm", "resting_hr_source", "sdnn_ms", "sdnn_readings", "rmssd_ms",
      "beat_lists",
    ])
    for d in days {
      csv.append([
        .text(d.day.description), .value(d.restingHeartRate),
        d.restingSource.map { .text($0.rawValue) } ?? .empty, .value(d.sdnn),
        .integer(d.sdnnReadings), .value(d.rmssd), .integer(d.beatLists),
      ])
    }
    return ReportPage(
      name: "hrv", title: "Heart rate and HRV", headline: headline,
      files: [ReportFile(name: "hrv.md", text: text)] + files + [
        ReportFile(name: "hrv-daily.csv", text: csv.text)
      ])
  }

  /// ` The resting heart rate went from 62.1 bpm in the first four weeks to 60.3 in the last
  /// four.`, or nothing without both.
  static func change(_ earlyLate: (early: Double, late: Double)?, unit: String, name: String)
    -> String
  {
    guard let (early, late) = earlyLate else { return "" }
    return " The \(name) went from \(Format.fixed(early, 1)) \(unit) in the first four weeks "
      + "to \(Format.fixed(late, 1)) in the last four."
  }
}
