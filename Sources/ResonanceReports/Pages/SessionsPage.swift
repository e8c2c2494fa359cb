import ResonanceModel

/// `sessions.md`: every listening session with its quality, the weekly trend, and what set the
/// best sessions apart from the worst.
package enum SessionsPage {
  /// The parts of a session the contrast compares, as the page names them, with their decimals.
  static let parts: [String: (String, Int)] = [
    "skip_rate": ("skip rate", 2), "engagement": ("engagement", 2),
    "hr_delta_bpm": ("heart-rate change (bpm)", 1), "sdnn_delta_ms": ("HRV change (ms)", 1),
    "next_night_sleep_score": ("next night's sleep score", 2), "length_min": ("length (min)", 0),
    "plays": ("plays", 1),
  ]

  package static func make(
    sessions: [SessionRecord], overview: SessionOverview, weeks: [WeeklyQuality],
    trend: LinearTrend?, contrast: SessionContrast?, masking: QualityMasking? = nil,
    range: ReportRange
  ) -> ReportPage {
    var text = "# Listening sessions: which were good, and is it getting better?\n\n"
    text += "Sessions from \(range.text), as `resonance analyze` reconstructed them (plays less "
    text += "than 30 minutes apart, split where the context changes). A session's quality is "
    text += "the seed's composite of four parts, 0 … 1: few skips, HRV rising while it played, "
    text += "songs listened through, and the next night's sleep. A part a session did not "
    text += "measure — most have no HRV reading, some no next night — is predicted from your "
    text += "own sessions in the same context rather than left out, so that every session is "
    text += "scored on the same four parts (`docs/brain.md`)."
    if let masking {
      text += " Hiding HRV on the \(Format.grouped(masking.sessions)) sessions that measured "
      text += "it moves their mean quality by \(Figures.signed(masking.predictedShift, 3)) this "
      text += "way; left out, with the other parts reweighted, it would move it by "
      text += "\(Figures.signed(masking.renormalisedShift, 3))."
    }
    text += "\n\n"
    var files: [ReportFile] = []
    let headline: String
    if sessions.isEmpty {
      text += "No session in this range: `resonance analyze` reconstructs them from the "
      text += "listening history.\n"
      headline = "no listening sessions in this range"
    } else {
      let meanQuality = overview.meanQuality
      headline =
        "\(Format.grouped(sessions.count)) sessions, mean quality "
        + "\(Format.optional(meanQuality, 2))"
        + (trend.map { ", \(trendWords($0))" } ?? "")
      text += "## The trend\n\n"
      text += "\(Format.grouped(sessions.count)) sessions over \(weeks.count) weeks; "
      text += "\(overview.rated) have a quality, averaging \(Format.optional(meanQuality, 2)). "
      if let trend {
        let perMonth = Self.weeksPerMonth
        text += "The mean quality \(trendWords(trend)): "
        text += Figures.interval(
          trend.slope * perMonth, trend.low90 * perMonth, trend.high90 * perMonth, 3)
        text += " a month on the quality's 0 … 1 scale (the least-squares slope of the weekly "
        text += "means over \(trend.points) weeks, with its 90% interval).\n\n"
      } else {
        text += "A trend needs three weeks with rated sessions.\n\n"
      }
      if weeks.count >= 2 {
        var chart = SVGChart(
          title: "Session quality by week", xLabel: "week (local date of its Monday)",
          yLabel: "mean quality (0–1)")
        chart.xScale = .days
        let points = weeks.compactMap { w in
          w.meanQuality.map { SVGChart.Point(Double(w.week.daysSinceEpoch), $0) }
        }
        chart.marks = [.line(points, series: 0), .points(points, series: 0)]
        if let trend, let first = points.first, let last = points.last {
          // The trend is fitted on weeks since 1970; the chart's x is days.
          let line = [first.x, last.x].map { SVGChart.Point($0, trend.value(at: $0 / 7)) }
          chart.marks.append(.line(line, series: 1))
          chart.legend = ["weekly mean", "least-squares trend"]
        }
        files.append(ReportFile(name: "sessions-weekly.svg", text: chart.svg()))
        text += "![Session quality by week](sessions-weekly.svg)\n\n"
      }
      if let contrast {
        text += "## Best and worst sessions\n\n"
        let usual = Usual(sessions)
        text += table(contrast.best, title: "The best", usual: usual, better: true)
        text += table(contrast.worst, title: "The worst", usual: usual, better: false)
        text += "What differed, on average, between the best quarter (\(contrast.quarter) "
        text += "sessions) and the worst:\n\n"
        text += Markdown.table(
          header: ["", "best quarter", "worst quarter"],
          rows: contrast.parts.map { part in
            let (label, places) = Self.parts[part.name] ?? (part.name, 2)
            return [
              label, Format.optional(part.best, places), Format.optional(part.worst, places),
            ]
          }, alignments: ["l", "r", "r"])
        text += "\nBy context: "
        text +=
          contrast.contexts.map { "\($0.context.rawValue) \($0.best) best, \($0.worst) worst" }
          .joined(separator: "; ") + ".\n\n"
      }
      text += "## Every session\n\n"
      text += Markdown.table(
        header: [
          "start (local)", "context", "min", "plays", "skips", "engagement", "HR Δ (bpm)",
          "HRV Δ (ms)", "sleep", "quality",
        ],
        rows: sessions.map { s in
          [
            ReportTime.date(s.start) + " " + ReportTime.clock(s.start), s.context.rawValue,
            Format.fixed(s.minutes, 0), String(s.plays), Figures.percent(s.skipRate),
            Figures.percent(s.engagement), s.heartRateChange.map { Figures.signed($0, 1) } ?? "–",
            s.hrvChange.map { Figures.signed($0, 1) } ?? "–", Format.optional(s.sleepScore, 2),
            Format.optional(s.quality, 2),
          ]
        }, alignments: ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r"])
      text += "\n"
    }
    text += "Every session with full precision: [sessions.csv](sessions.csv); the weeks: "
    text += "[sessions-weekly.csv](sessions-weekly.csv).\n"

    var csv = CSVTable(header: [
      "session_id", "start", "start_local_date", "start_local_hour", "end", "context",
      "length_min", "plays", "skip_rate", "engagement", "mean_hr_bpm", "mean_sdnn_ms",
      "hr_delta_bpm", "sdnn_delta_ms", "next_night_id", "next_night_sleep_score", "quality",
      "quality_basis", "start_utc", "end_utc",
    ])
    for s in sessions {
      csv.append([
        .integer(Int(s.id)), .text(ReportTime.iso8601(s.start)), .text(ReportTime.date(s.start)),
        .integer(ReportTime.hour(s.start)), .text(ReportTime.iso8601(s.end)),
        .text(s.context.rawValue),
        .number(s.minutes), .integer(s.plays), .number(s.skipRate), .value(s.engagement),
        .value(s.meanHeartRate), .value(s.meanHRV), .value(s.heartRateChange),
        .value(s.hrvChange), s.nextNightID.map { .integer(Int($0)) } ?? .empty,
        .value(s.sleepScore), .value(s.quality),
        .text(s.qualityBasis.map(\.rawValue).joined(separator: "+")),
        .text(ReportTime.utc(s.start)), .text(ReportTime.utc(s.end)),
      ])
    }
    var weekly = CSVTable(header: ["week_start", "sessions", "mean_quality", "mean_skip_rate"])
    for w in weeks {
      weekly.append([
        .text(w.week.description), .integer(w.sessions), .value(w.meanQuality),
        .number(w.meanSkipRate),
      ])
    }
    return ReportPage(
      name: "sessions", title: "Sessions", headline: headline,
      files: [ReportFile(name: "sessions.md", text: text)] + files + [
        ReportFile(name: "sessions.csv", text: csv.text),
        ReportFile(name: "sessions-weekly.csv", text: weekly.text),
      ])
  }

  /// A table of listed sessions with, per session, the parts that set it apart from the
  /// person's usual session: those better than usual for the best (`better`), worse for the
  /// worst, the two furthest from usual first.
  static func table(_ sessions: [SessionRecord], title: String, usual: Usual, better: Bool)
    -> String
  {
    "\(title), with what set each apart from your usual session:\n\n"
      + Markdown.table(
        header: [
          "start (local)", "context", "min", "skips", "HRV Δ (ms)", "sleep", "quality",
          "set apart by",
        ],
        rows: sessions.map { s in
          [
            ReportTime.date(s.start) + " " + ReportTime.clock(s.start), s.context.rawValue,
            Format.fixed(s.minutes, 0), Figures.percent(s.skipRate),
            s.hrvChange.map { Figures.signed($0, 1) } ?? "–", Format.optional(s.sleepScore, 2),
            Format.optional(s.quality, 2), usual.apart(s, better: better),
          ]
        }, alignments: ["l", "l", "r", "r", "r", "r", "r", "l"]) + "\n"
  }

  /// The person's usual session: the mean and spread of each part over the page's sessions,
  /// against which a listed session's parts are told apart.
  struct Usual {
    /// Per part: its name, how it is read off a session, its mean and standard deviation,
    /// whether more is better, and how a value is written.
    struct Part {
      var value: (SessionRecord) -> Double?
      var mean: Double
      var sd: Double
      var higherIsBetter: Bool
      var words: (Double, Double, Bool) -> String
    }
    var parts: [Part] = []

    init(_ sessions: [SessionRecord]) {
      let specs: [((SessionRecord) -> Double?, Bool, (Double, Double, Bool) -> String)] = [
        (
          { $0.skipRate }, false,
          { v, m, good in
            "\(good ? "few" : "many") skips (\(Figures.percent(v)) against \(Figures.percent(m)))"
          }
        ),
        (
          { $0.engagement }, true,
          { v, m, good in
            "\(good ? "listened through" : "cut short") (\(Figures.percent(v)) heard against "
              + "\(Figures.percent(m)))"
          }
        ),
        (
          { $0.hrvChange }, true,
          { v, m, _ in
            "HRV \(Figures.signed(v, 1)) ms (usually \(Figures.signed(m, 1)))"
          }
        ),
        (
          { $0.sleepScore }, true,
          { v, m, good in
            "\(good ? "a good" : "a poor") night after (\(Format.fixed(v, 2)) against "
              + "\(Format.fixed(m, 2)))"
          }
        ),
      ]
      for (value, higher, words) in specs {
        let xs = sessions.compactMap(value).filter(\.isFinite)
        guard xs.count >= 2 else { continue }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let sd = (xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count - 1))
          .squareRoot()
        guard sd > 0 else { continue }
        parts.append(
          Part(value: value, mean: mean, sd: sd, higherIsBetter: higher, words: words))
      }
    }

    /// The session's parts on the `better` side of usual, furthest first (in standard
    /// deviations), at most two; `–` when none is.
    func apart(_ s: SessionRecord, better: Bool) -> String {
      let ranked = parts.compactMap { part -> (Double, String)? in
        guard let v = part.value(s), v.isFinite else { return nil }
        let z = (v - part.mean) / part.sd * (part.higherIsBetter ? 1 : -1)
        let distance = better ? z : -z
        guard distance > 0 else { return nil }
        return (distance, part.words(v, part.mean, better))
      }.sorted { $0.0 > $1.0 }
      return ranked.isEmpty ? "–" : ranked.prefix(2).map(\.1).joined(separator: "; ")
    }
  }

  /// Weeks in an average month (365.25 / 12 / 7): the trend is fitted per week, said per month.
  static let weeksPerMonth = 365.25 / 12 / 7

  /// `is rising`, `is falling`, or `shows no change detected at 90%` (the interval spans 0).
  static func trendWords(_ trend: LinearTrend) -> String {
    if trend.low90 > 0 { return "is rising" }
    if trend.high90 < 0 { return "is falling" }
    return "shows no change detected at 90%"
  }
}
