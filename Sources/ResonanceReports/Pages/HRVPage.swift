import ResonanceModel

/// `hrv.md`: resting heart rate and HRV day by day, and the nights behind them.
package enum HRVPage {
  package static func make(
    days: [DailyVitals], overview: VitalsOverview, nights: [NightRecord],
    baselines: [SignalBaseline] = [], range: ReportRange
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
        + changesHeadline(baselines)
      text += "## Over time\n\n"
      text += "\(overview.days) days; resting heart rate on \(overview.restingDays), SDNN on "
      text += "\(overview.sdnnDays), RMSSD on \(overview.rmssdDays)."
      text += change(overview.restingEarlyLate, unit: "bpm", name: "resting heart rate")
      text += change(overview.sdnnEarlyLate, unit: "ms", name: "SDNN") + "\n\n"
      text += baselineSection(baselines)
      if overview.restingDays >= 2 {
        var chart = SVGChart(
          title: "Resting heart rate", xLabel: "local date", yLabel: "beats per minute")
        chart.xScale = .days
        // The normal range each judged week was held against, as a band behind the days.
        let range = (baselines.first { $0.signal == .restingHeartRate }?.weeks ?? []).flatMap {
          w -> [SVGChart.Interval] in
          let monday = Double(w.monday.daysSinceEpoch)
          return [monday, monday + 6].map {
            SVGChart.Interval($0, low: w.baseline - w.swc, high: w.baseline + w.swc)
          }
        }
        chart.marks =
          (range.count > 1 ? [.band(range, series: 1)] : []) + [
            .line(
              days.map {
                SVGChart.Point(Double($0.day.daysSinceEpoch), $0.restingHeartRate ?? .nan)
              },
              series: 0)
          ]
        if range.count > 1 { chart.legend = ["resting heart rate", "the normal range"] }
        files.append(ReportFile(name: "hrv-resting-hr.svg", text: chart.svg()))
        text += "![Resting heart rate by day, with the normal range](hrv-resting-hr.svg)\n\n"
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

  /// `; a sustained change: resting heart rate +3.1 bpm from 2023-01-14`, or nothing.
  static func changesHeadline(_ baselines: [SignalBaseline]) -> String {
    let changes = baselines.compactMap { b in b.change.map { (b.signal, $0) } }
    guard !changes.isEmpty else { return "" }
    return "; a sustained change: "
      + changes.map { signal, c in
        "\(signal.label) \(Figures.signed(c.step, signal.places)) "
          + "\(signal.unit) from \(c.day)"
      }.joined(separator: ", ")
  }

  /// The normal range of each signal, the weeks outside it and the sustained changes.
  static func baselineSection(_ baselines: [SignalBaseline]) -> String {
    guard !baselines.isEmpty else { return "" }
    var text = "## Your normal range\n\n"
    text +=
      "As HRV4Training draws it: the baseline is the mean of the \(SignalBaseline.windowDays) "
    text += "days before, the smallest worthwhile change (SWC) half their standard deviation, and "
    text += "the normal range the baseline ± SWC (at least \(SignalBaseline.minimumDays) days "
    text += "with a value in the window). Morning HRV is ln RMSSD of the beat lists Health "
    text += "recorded between midnight and 09:00 (`docs/reports.md` says why).\n\n"
    text += Markdown.table(
      header: ["signal", "days", "baseline", "normal range", "last 7 days", "now"],
      rows: baselines.map { b in
        let places = b.signal.places
        guard let c = b.current else {
          return [
            "\(b.signal.label), \(b.signal.unit)", String(b.days), "–", "–", "–", "too few days",
          ]
        }
        let now =
          c.lastWeekMean.map {
            $0 < c.baseline - c.swc ? "below" : $0 > c.baseline + c.swc ? "above" : "inside"
          } ?? "–"
        return [
          "\(b.signal.label), \(b.signal.unit)", String(b.days), Format.fixed(c.baseline, places),
          "\(Format.fixed(c.baseline - c.swc, places)) … \(Format.fixed(c.baseline + c.swc, places))",
          Format.optional(c.lastWeekMean, places), now,
        ]
      }, alignments: ["l", "r", "r", "r", "r", "l"])
    text += "\n### Weeks outside the normal range\n\n"
    text += "A week's mean (at least \(SignalBaseline.minimumWeekDays) days) against the range of "
    text += "the \(SignalBaseline.windowDays) days before its Monday. One week in five or more "
    text += "falls outside by chance alone (more when the days run together); a run of them is "
    text += "what matters.\n\n"
    let outside = baselines.flatMap { b in b.weeks.filter { $0.side != 0 }.map { (b.signal, $0) } }
    let judged = baselines.reduce(0) { $0 + $1.weeks.count }
    if outside.isEmpty {
      text +=
        judged == 0
        ? "No week could be judged yet: a range needs \(SignalBaseline.minimumDays) days before it.\n\n"
        : "None of the \(judged) weeks judged fell outside.\n\n"
    } else {
      text += "\(outside.count) of \(judged) weeks judged:\n\n"
      text += Markdown.table(
        header: ["week of", "signal", "mean", "normal range", "side"],
        rows: outside.sorted { ($0.1.monday, $0.0.rawValue) < ($1.1.monday, $1.0.rawValue) }.map {
          signal, w in
          let places = signal.places
          return [
            w.monday.description, signal.label, Format.fixed(w.mean, places),
            "\(Format.fixed(w.baseline - w.swc, places)) … \(Format.fixed(w.baseline + w.swc, places))",
            w.side < 0 ? "below" : "above",
          ]
        }, alignments: ["l", "l", "r", "r", "l"])
      text += "\n"
    }
    text += "### Sustained changes\n\n"
    text += "A sustained change is a step the data hold beyond their slow drift: the best split "
    text += "of a line-plus-step fit must beat the line alone by the 1% bar for a break at an "
    text += "unknown day (F > \(Format.fixed(SignalBaseline.supFThreshold, 1)), after allowing for "
    text +=
      "day-to-day persistence), with at least \(SignalBaseline.minimumSegment) days each side "
    text += "and a step of at least one SWC (`docs/reports.md`).\n\n"
    for b in baselines {
      let places = b.signal.places
      if let c = b.change {
        text += "- **\(b.signal.label)**: a sustained change began around **\(c.day)**: "
        text += "\(Figures.interval(c.step, c.low90, c.high90, places)) \(b.signal.unit) (90%), "
        text += "F = \(Format.fixed(c.statistic, 1)).\n"
      } else if b.searched {
        text += "- **\(b.signal.label)**: no sustained change over \(b.days) days.\n"
      } else {
        text += "- **\(b.signal.label)**: too few days (\(b.days)) to look for one.\n"
      }
    }
    return text + "\n"
  }
}
