import ResonanceModel

/// `tuning.md`: the last sweep and the last `tune`, from the store: what the DJ's weights
/// should be and how sure that is.
package enum TuningPage {
  package static func make(sweep: SweepResult?, tuning: TuningReport?) -> ReportPage {
    var text = "# Tuning the DJ: what its weights should be, and how sure that is\n\n"
    text += "From the last `resonance sweep` and `resonance tune` the store records; "
    text += "`docs/tuning.md` explains every estimator, diagnostic and rule.\n\n"
    var files: [ReportFile] = []
    var headline = "no tuning yet: run resonance tune"
    text += "## The recommendation\n\n"
    if let tuning {
      // The reason up to its explanation after a colon: one line for the index.
      let short = tuning.reason.split(separator: ": ", maxSplits: 1).first.map(String.init) ?? ""
      headline = "\(tuning.recommendation.rawValue) the preferences: \(short)"
      text += "**\(tuning.recommendation == .change ? "Change" : "Keep") the preferences.** "
      text += sentence(tuning.reason) + "\n\n"
      if let plain = plainWords(tuning) { text += "In plain words: " + plain + "\n\n" }
      text += "Judged on \(Format.grouped(tuning.decisions)) logged decisions"
      if let from = tuning.from, let to = tuning.to { text += " from \(from) to \(to)" }
      text +=
        ", \(tuning.estimator.rawValue) estimates of the \(tuning.reward.rawValue) reward, design "
      text += "\(tuning.design). The rule: `change` only when the \(percent(tuning.level)) "
      text += "interval of the forward-chaining gain — each month after the first judged by "
      text += "the choice made on the months before it, pooled — lies above "
      text += "\(Format.fixed(tuning.margin, 3)), the chosen preferences' own interval on the "
      text += "last month (the month they were not chosen on) lies above 0, and their effective "
      text += "sample size there is at least \(Format.fixed(tuning.minimumESS, 0))."
      if let spending = tuning.spending, let entry = spending.entry {
        // Why the level is not the one asked for: the ledger's share (docs/tuning.md).
        text += " The level is \(percent(tuning.level)), not \(percent(1 - entry.alpha)): "
        text +=
          spending.kind == .repeated
          ? "this run repeated the test of an earlier one through \(entry.throughMonth), at "
            + "its level, so that running `tune` again buys no second chance."
          : "runs on the same preferences in force share the \(percent(entry.alpha)) error "
            + "rate between them, and this one spent \(Format.fixed(spending.spent, 4)) of it, "
            + "the share its months (\(entry.firstMonth)…\(entry.throughMonth)) bring, so "
            + "that running `tune` every month does not end in a change by chance."
      }
      text += "\n\n"
      if tuning.forwardGain != nil, tuning.folds.allSatisfy({ $0.gain == nil }) {
        text += "**Choosing on the past changed nothing:** on none of the "
        text += "\(tuning.folds.count) months judged did a choice made on the months before it "
        text += "clear the rule, so the preferences in force ran throughout and gained 0.\n\n"
      } else if let gain = tuning.forwardGain {
        text += "**Choosing on the past gained \(Figures.signed(gain.estimate, 3))** "
        text += "(\(percent(gain.level)) interval \(Figures.signed(gain.lower, 3)) … "
        text += "\(Figures.signed(gain.upper, 3))) over "
        text += "\(Format.grouped(tuning.judgedDecisions ?? 0)) decisions, each judged by a "
        text += "choice that never saw its month.\n\n"
      }
      if let t = tuning.temperature {
        text += "**The temperature, judged apart.** The weights are compared at the greediness "
        text += "in force; the weights in force at other temperatures (×"
        text += t.factors.map { Format.trimmed($0) }.joined(separator: ", ×")
        text += " of \(Format.trimmed(t.inForce))) are chosen and judged the same way: "
        text += t.reason + (t.reason.hasSuffix(".") ? "" : ".") + "\n\n"
      }
      if tuning.clearsMargin != nil || tuning.clearsZero != nil {
        text += Markdown.table(
          header: ["condition for `change`", "held"],
          rows: [
            [
              "the pooled gain's lower end is above the margin, \(Format.fixed(tuning.margin, 3))",
              yesNo(tuning.clearsMargin),
            ],
            [
              "the chosen preferences' own lower end on the last month is above 0",
              yesNo(tuning.clearsZero),
            ],
            [
              "their effective sample size there is at least "
                + Format.fixed(tuning.minimumESS, 0),
              yesNo(tuning.heldOut.map { $0.effectiveSampleSize >= tuning.minimumESS }),
            ],
          ], alignments: ["l", "l"])
        text += "\n"
      }
      if let held = tuning.heldOut {
        text += "### The chosen preferences on the last month, \(held.month)\n\n"
        text += Markdown.table(
          header: ["figure", "value"],
          rows: [
            ["decisions", Format.grouped(held.decisions)],
            ["preferences in force", Format.fixed(held.inForceValue, 3)],
            ["chosen preferences", Format.fixed(held.chosenValue, 3)],
            [
              "gain (\(percent(held.gain.level)) interval)",
              Figures.interval(held.gain.estimate, held.gain.lower, held.gain.upper, 3),
            ],
            ["effective sample size", Format.fixed(held.effectiveSampleSize, 0)],
            ["largest importance weight", Format.fixed(held.largestWeight, 1)],
            [
              "decisions where the likeliest choice is the logged one",
              Figures.percent(held.agreementShare),
            ],
          ], alignments: ["l", "r"])
        text += "\n"
        if let keep = held.keepChangePer100 {
          text += "In plain words: had the DJ run the chosen preferences in \(held.month), "
          text += "it would have had about \(Format.fixed(abs(keep), 0)) "
          text += keep >= 0 ? "fewer" : "more"
          text += " skips per 100 songs it played (the offline estimate; `docs/validation.md` "
          text += "shows how such estimates compare with what a closed loop delivers).\n\n"
        }
        if !held.clipping.isEmpty {
          text += "How the gain depends on the largest weights (each weight capped at the "
          text += "threshold): "
          text +=
            held.clipping.map { c in
              "\(c.threshold.map { Format.fixed($0, 0) } ?? "no cap"): "
                + (c.gain.map { Figures.signed($0, 3) } ?? "–")
            }.joined(separator: "; ") + ".\n\n"
        }
      }
      if !tuning.folds.isEmpty {
        text += "### Forward-chaining folds\n\n"
        text += "Choosing on the months before each month, judged on it (with reward models "
        text += "fitted on those months alone); a month where no point cleared the rule keeps "
        text += "the preferences in force and gains nothing.\n\n"
        text += Markdown.table(
          header: ["month", "decisions", "gain of the point chosen before it"],
          rows: tuning.folds.map {
            [
              $0.month, Format.grouped($0.decisions),
              $0.gain.map { Figures.signed($0, 3) } ?? "none chosen",
            ]
          }, alignments: ["l", "r", "r"])
        text += "\n"
      }
      if !tuning.contexts.isEmpty {
        text += "### By context\n\n"
        text += Markdown.table(
          header: ["context", "decisions", "held out", "claimed", "why"],
          rows: tuning.contexts.map {
            [
              $0.context.rawValue, Format.grouped($0.decisions),
              Format.grouped($0.heldOutDecisions),
              $0.claimed ? "yes" : "no", $0.reason,
            ]
          }, alignments: ["l", "r", "r", "l", "l"])
        text += "\n"
      }
      text += "### The weights\n\n"
      if tuning.candidate == nil {
        text += "No preferences were chosen, so there is no candidate: the recommended weights "
        text += "are those in force.\n\n"
      }
      let rows: [(String, KeyPath<ScoringWeights, Double>)] = [
        ("tempo match (bpmWeight)", \.bpm), ("energy match (energyWeight)", \.energy),
        ("familiarity (familiarityWeight)", \.familiarity),
        ("learned response (historicalWeight)", \.historical),
        ("context (contextWeight)", \.context), ("recency penalty", \.recency),
        ("time-of-day penalty", \.timeOfDay),
      ]
      if let candidate = tuning.candidate {
        text += Markdown.table(
          header: ["component", "in force", "candidate", "recommended"],
          rows: rows.map { name, key in
            [
              name, Format.fixed(tuning.inForce.weights[keyPath: key], 3),
              Format.fixed(candidate.weights[keyPath: key], 3),
              Format.fixed(tuning.recommended.weights[keyPath: key], 3),
            ]
          }, alignments: ["l", "r", "r", "r"])
      } else {
        text += Markdown.table(
          header: ["component", "in force and recommended"],
          rows: rows.map { name, key in
            [name, Format.fixed(tuning.inForce.weights[keyPath: key], 3)]
          }, alignments: ["l", "r"])
      }
      text += "\n"
    } else {
      text += "The store records no `resonance tune` run yet.\n\n"
    }

    text += "## The sweep\n\n"
    var csvFile: ReportFile?
    if let sweep {
      let front = sweep.points.filter(\.isPareto).count
      text += "The last sweep: design \(sweep.design), \(Format.grouped(sweep.points.count)) "
      text += "points over \(Format.grouped(sweep.decisions)) decisions"
      if let from = sweep.from, let to = sweep.to { text += " (\(from) … \(to))" }
      text +=
        ", \(sweep.estimator.rawValue) estimates of \(sweep.reward.rawValue). Each point is a set of the seven "
      text += "weights; the chart sets each point's estimated keep rate against its "
      text += "physiological response, and marks the \(front) on the Pareto front (no other point "
      text += "does better on both). Chosen on the whole history, the sweep's best point is "
      text += "optimistic; `tune` is what decides.\n\n"
      let measured = sweep.points.filter { $0.keepRate != nil && $0.response != nil }
      if measured.count >= 2 {
        var chart = SVGChart(
          title: "The sweep: keep rate against response", xLabel: "estimated keep rate (0–1)",
          yLabel: "estimated response (0–1)")
        chart.marks = [
          .points(
            measured.filter { !$0.isPareto && $0.label == nil }.map {
              .init($0.keepRate!, $0.response!)
            }, series: 5),
          .points(measured.filter(\.isPareto).map { .init($0.keepRate!, $0.response!) }, series: 1),
          .markers(
            measured.filter { $0.label != nil }.map { .init($0.keepRate!, $0.response!) }, series: 0
          ),
        ]
        chart.legend = ["a design point", "on the Pareto front", "preferences in force"]
        // The legend's colours follow the series numbers of the marks above.
        chart.legendSeries = [5, 1, 0]
        files.append(ReportFile(name: "tuning-sweep.svg", text: chart.svg()))
        text += "![Keep rate against response over the sweep](tuning-sweep.svg)\n\n"
      } else {
        text += "The sweep has no point with both a keep rate and a response (the response "
        text += "needs heart-rate data around the DJ's plays), so there is no front to draw.\n\n"
      }
      text += "Every point: [tuning-sweep.csv](tuning-sweep.csv).\n"
      csvFile = ReportFile(name: "tuning-sweep.csv", text: SweepReport.csv(sweep).text)
    } else {
      text += "The store records no sweep yet (`resonance sweep` runs one).\n"
    }
    return ReportPage(
      name: "tuning", title: "Tuning", headline: headline,
      files: [ReportFile(name: "tuning.md", text: text)] + files + (csvFile.map { [$0] } ?? []))
  }

  /// A level or rate as a percentage: whole when it is one to 1e-9 (1 − 0.95 is not exactly
  /// 0.05), else with two decimals.
  static func percent(_ level: Double) -> String {
    let p = level * 100
    return (abs(p - p.rounded()) < 1e-9 ? Format.fixed(p.rounded(), 0) : Format.fixed(p, 2)) + "%"
  }

  /// `yes`, `no`, or `–` when the condition was never reached.
  static func yesNo(_ held: Bool?) -> String { held.map { $0 ? "yes" : "no" } ?? "–" }

  /// The recommendation's reason said without the rule's vocabulary, for the outcomes the
  /// rule can reach; nil when the reason is already plain (no log, too little history).
  static func plainWords(_ t: TuningReport) -> String? {
    let level = percent(t.level)
    let margin = Format.fixed(t.margin, 2)
    let scale = "on the \(t.reward.rawValue) reward's 0–1 scale"
    // A change of the temperature alone is explained by its own reason.
    if t.temperature?.applied == true { return nil }
    if t.recommendation == .change, let gain = t.forwardGain {
      return "choosing weights on each month's past did better than yours on the months that "
        + "followed, by \(Figures.signed(gain.estimate, 3)) \(scale) and, with \(level) "
        + "confidence, by at least \(Figures.signed(gain.lower, 3)) — more than the "
        + "\(margin) worth a change — and the weights it would write beat yours on a month they "
        + "never saw. They are the recommended ones below."
    }
    guard t.forwardGain != nil else { return nil }
    if t.folds.allSatisfy({ $0.gain == nil }) {
      return "no set of weights in the design beat yours by \(margin) or more \(scale), with "
        + "\(level) confidence and enough of the log behind it, on the months it could be "
        + "chosen on; there is nothing to change to, so yours stay."
    }
    if t.candidate == nil {
      return "weights were chosen for some months, but none beat yours clearly on the months "
        + "before the last, so there are no weights to write; yours stay."
    }
    if let held = t.heldOut, held.effectiveSampleSize < t.minimumESS {
      return "the log holds too few decisions like the ones the chosen weights would make "
        + "(an effective sample size of \(Format.fixed(held.effectiveSampleSize, 0)), below "
        + "\(Format.fixed(t.minimumESS, 0))) to judge them; yours stay."
    }
    if t.clearsMargin == false, let gain = t.forwardGain {
      return "choosing weights this way may have done better, but not clearly enough: with "
        + "\(level) confidence its gain could be as small as \(Figures.signed(gain.lower, 3)), "
        + "not above the \(margin) worth a change; yours stay."
    }
    if t.clearsZero == false, let held = t.heldOut {
      return "choosing weights this way did better on the whole, but the weights it would write "
        + "did not clearly beat yours on \(held.month), the month they never saw (their gain "
        + "there could be as low as \(Figures.signed(held.gain.lower, 3))); yours stay."
    }
    return nil
  }

  /// The reason with a capital and a full stop.
  static func sentence(_ reason: String) -> String {
    guard let first = reason.first else { return "" }
    return first.uppercased() + reason.dropFirst() + (reason.hasSuffix(".") ? "" : ".")
  }
}
