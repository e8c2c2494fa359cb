import ResonanceModel

/// `breathing.md`: every breathing-pacer session, by pattern and by month, and the trend of the
/// Resonance Score.
package enum BreathingPage {
  package static func make(
    sessions: [BreathingSessionResult], overall: BreathingGroup, byPattern: [BreathingGroup],
    byMonth: [BreathingGroup], practice: PracticeEffects, range: ReportRange
  ) -> ReportPage {
    var text = "# Breathing sessions: how are they going?\n\n"
    text += "Breathing-pacer sessions from \(range.text), each analysed from its recording of "
    text += "the chest's motion (`docs/breathing.md`): the Resonance Score (0 … 100, how well "
    text += "the breathing followed the pacer), the breathing rate, phase locking to the pacer "
    text += "(0 … 1), the heart's coherence, and SDNN before and after.\n\n"
    var files: [ReportFile] = []
    let headline: String
    let ordered = sessions.sorted {
      ($0.started?.millisecondsSinceEpoch ?? .min, $0.session) < (
        $1.started?.millisecondsSinceEpoch ?? .min, $1.session
      )
    }
    if sessions.isEmpty {
      text += "No breathing session in this range: the pacer app's session recordings are "
      text += "what `resonance ingest` reads for them.\n"
      headline = "no breathing sessions in this range"
    } else {
      let firstMonth = byMonth.first { $0.meanScore != nil }
      let lastMonth = byMonth.last { $0.meanScore != nil }
      var trend = ""
      if let a = firstMonth, let b = lastMonth, a.name != b.name, let x = a.meanScore,
        let y = b.meanScore
      {
        trend = ", \(Format.fixed(x, 0)) in \(a.name) → \(Format.fixed(y, 0)) in \(b.name)"
      }
      headline =
        "\(sessions.count) sessions, mean Resonance Score "
        + "\(Format.optional(overall.meanScore, 0))" + trend + practiceHeadline(practice)
      text += practiceSection(practice)
      text += "## By month\n\n"
      text += groups(byMonth, first: "month")
      text += "\n## By pattern\n\n"
      text += groups(byPattern, first: "pattern")
      text += "\n"
      let points = ordered.compactMap { s -> SVGChart.Point? in
        guard let started = s.started, let score = s.result.resonanceScore else { return nil }
        return SVGChart.Point(Double(CalendarDay(started).daysSinceEpoch), score)
      }
      if points.count >= 2 {
        var chart = SVGChart(
          title: "Resonance Score by session", xLabel: "local date",
          yLabel: "Resonance Score (0–100)")
        chart.xScale = .days
        chart.marks = [.points(points, series: 0)]
        let months = byMonth.compactMap { g -> SVGChart.Point? in
          guard let score = g.meanScore, let day = CalendarDay(g.name + "-15") else { return nil }
          return SVGChart.Point(Double(day.daysSinceEpoch), score)
        }
        if months.count >= 2 {
          chart.marks.append(.line(months, series: 1))
          chart.legend = ["a session", "the month's mean"]
        }
        files.append(ReportFile(name: "breathing-score.svg", text: chart.svg()))
        text += "![Resonance Score by session](breathing-score.svg)\n\n"
      }
      text += "## Every session\n\n"
      text += Markdown.table(
        header: [
          "date", "pattern", "score", "breaths/min", "pacer", "phase locking", "coherence",
          "SDNN before → after (ms)",
        ],
        rows: ordered.map { s in
          let r = s.result
          return [
            s.started.map { ReportTime.date($0) + " " + ReportTime.clock($0) } ?? "–", s.pattern,
            Format.optional(r.resonanceScore, 0), Format.optional(r.breathsPerMinute, 1),
            Format.optional(r.pacerBreathsPerMinute, 1), Format.optional(r.phaseLocking, 2),
            Format.optional(r.coherence, 2),
            "\(Format.optional(r.hrvBefore, 1)) → \(Format.optional(r.hrvAfter, 1))",
          ]
        }, alignments: ["l", "l", "r", "r", "r", "r", "r", "r"])
      text += "\n"
    }
    text += "Every session with full precision: [breathing.csv](breathing.csv).\n"
    var csv = CSVTable(header: [
      "session", "file", "pattern", "started", "started_local_date", "started_local_hour",
      "resonance_score", "breaths_per_min", "pacer_breaths_per_min", "rate_variability",
      "phase_locking", "lag_s", "in_sync_share", "coherence", "coherence_peak_hz",
      "rsa_amplitude", "sdnn_before_ms", "sdnn_after_ms", "started_utc",
    ])
    for s in ordered {
      let r = s.result
      csv.append([
        .integer(s.session), .text(s.file), .text(s.pattern),
        s.started.map { .text(ReportTime.iso8601($0)) } ?? .empty,
        s.started.map { .text(ReportTime.date($0)) } ?? .empty,
        s.started.map { .integer(ReportTime.hour($0)) } ?? .empty, .value(r.resonanceScore),
        .value(r.breathsPerMinute), .value(r.pacerBreathsPerMinute), .value(r.rateVariability),
        .value(r.phaseLocking), .value(r.lagSeconds), .value(r.inSyncShare), .value(r.coherence),
        .value(r.coherencePeakHz), .value(r.rsaAmplitude), .value(r.hrvBefore), .value(r.hrvAfter),
        s.started.map { .text(ReportTime.utc($0)) } ?? .empty,
      ])
    }
    if let dose = practice.dose {
      var weeks = CSVTable(header: ["week", "sessions", "overnight_sdnn_ms"])
      for point in dose.points {
        weeks.append([.text(point.week.description), .integer(point.sessions), .value(point.sdnn)])
      }
      files.append(ReportFile(name: "breathing-weeks.csv", text: weeks.text))
    }
    return ReportPage(
      name: "breathing", title: "Breathing", headline: headline,
      files: [ReportFile(name: "breathing.md", text: text)] + files + [
        ReportFile(name: "breathing.csv", text: csv.text)
      ])
  }

  /// `; within a session SDNN +6.1 ms (+4.9 … +7.3), nights after practice +4.8 ms (…)`:
  /// the two practice figures the index line carries, each with its 90% interval.
  static func practiceHeadline(_ practice: PracticeEffects) -> String {
    var parts: [String] = []
    if let w = practice.withinSession {
      parts.append("within a session SDNN \(Figures.interval(w.change, w.low90, w.high90, 1)) ms")
    }
    if let night = practice.day("night_sdnn_ms"), let adjusted = night.adjusted {
      parts.append(
        "nights after practice \(Figures.interval(adjusted, night.low90, night.high90, 1)) ms "
          + "SDNN against other nights")
    }
    return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ") + " (90%)"
  }

  /// "Is my breathing practice helping my HRV?": the change within sessions, days with
  /// practice against days without, and the weeks' dose–response.
  static func practiceSection(_ practice: PracticeEffects) -> String {
    var text = "## Is practice helping my HRV?\n\n"
    if let w = practice.withinSession {
      text += "**Within a session.** Over \(w.sessions) sessions with an SDNN reading before and "
      text += "after, SDNN went from \(Format.fixed(w.meanBefore, 1)) ms to "
      text += "\(Format.fixed(w.meanAfter, 1)) ms on average: a change of "
      text += "\(Figures.interval(w.change, w.low90, w.high90, 1)) ms (90% interval over "
      text +=
        "sessions). \(w.low90 > 0 ? "Sessions raise HRV while they last." : w.high90 < 0 ? "Sessions lower HRV while they last." : "The interval reaches 0: no change detected at 90%.")\n\n"
    } else {
      text +=
        "**Within a session.** No two sessions have an SDNN reading both before and after.\n\n"
    }
    let minimum = PracticeEffects.minimumDays
    let recommended = PracticeEffects.recommendedDays
    text += "**Days with practice against days without**, from the first day with a session to "
    text += "the last: each outcome's difference from a least-squares fit with the weekday and "
    text += "a workout that day, with a 90% interval. A comparison needs at least \(minimum) days "
    text += "on each side; under \(recommended) on either side it is a hint, not a finding.\n\n"
    if practice.days.isEmpty {
      text += "No day with a session in this range.\n\n"
    } else {
      text += Markdown.table(
        header: ["outcome", "days with / without", "mean with", "mean without", "adjusted (90%)"],
        rows: practice.days.map { d in
          let thin =
            d.adjusted == nil
            ? " (too few days)"
            : min(d.daysWith, d.daysWithout) < recommended ? " (a hint)" : ""
          return [
            "\(d.label) (\(d.unit))", "\(d.daysWith) / \(d.daysWithout)",
            Format.optional(d.meanWith, 1), Format.optional(d.meanWithout, 1),
            Figures.interval(d.adjusted, d.low90, d.high90, 1) + thin,
          ]
        }, alignments: ["l", "r", "r", "r", "r"])
      text += "\n"
    }
    if let dose = practice.dose {
      text += "**More practice, more HRV?** Over \(dose.weeks) weeks, each extra session a week "
      text += "goes with \(Figures.interval(dose.slope, dose.low90, dose.high90, 2)) ms of the "
      text += "week's mean overnight SDNN (least-squares slope, 90% interval; every week in "
      text += "[breathing-weeks.csv](breathing-weeks.csv)).\n\n"
    } else {
      text += "**More practice, more HRV?** Too few weeks (at least "
      text += "\(PracticeEffects.minimumWeeks), each with three nights measured) to fit.\n\n"
    }
    text += "**These are associations, not causes**: days were not assigned to practice, and a "
    text += "day with a session may also be a calmer day. The before → after change also holds "
    text += "the minute's own wander and each reading's noise, which average out over sessions.\n\n"
    return text
  }

  static func groups(_ groups: [BreathingGroup], first: String) -> String {
    Markdown.table(
      header: [first, "sessions", "mean score", "mean breaths/min", "mean phase locking"],
      rows: groups.map {
        [
          $0.name, String($0.sessions), Format.optional($0.meanScore, 0),
          Format.optional($0.meanBreathsPerMinute, 1), Format.optional($0.meanPhaseLocking, 2),
        ]
      }, alignments: ["l", "r", "r", "r", "r"])
  }
}
