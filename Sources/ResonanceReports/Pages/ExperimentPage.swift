import ResonanceModel

/// `experiment.md`: the last `resonance experiment analyze` the store records — the plan, what
/// its days say so far against the stopping rule, how each candidate's interval narrowed cycle
/// by cycle, and every day with the arm it was given and ran.
package enum ExperimentPage {
  package static func make(_ report: ExperimentReport?) -> ReportPage {
    var text = "# The experiment: the preferences in force against a candidate, day by day\n\n"
    guard let report else {
      text += "No experiment has been analysed. `resonance experiment plan` writes a randomised "
      text += "experiment for the DJ to carry out, planned on your own days; "
      text += "`resonance experiment analyze --plan FILE` reads its days so far and stores what "
      text += "they say here. `docs/experiments.md` explains the design and the guarantee.\n"
      return ReportPage(
        name: "experiment", title: "Experiment",
        headline: "no experiment analysed: resonance experiment plan, then analyze",
        files: [ReportFile(name: "experiment.md", text: text)])
    }
    let plan = report.plan
    let outcome = report.outcome
    let evening = plan.evening != nil
    if evening {
      text = "# The experiment: music before bed, evening by evening\n\n"
    }
    text += "From the last `resonance experiment analyze` the store records, of the plan "
    text += "`\(Markdown.escape(report.planFile))`, through \(outcome.asOf). "
    text += "`docs/experiments.md` explains the design, the power analysis and the guarantee.\n\n"

    text += "## What it says\n\n"
    let headline = Self.headline(outcome)
    text += "**\(Self.sentence(headline))** "
    text +=
      outcome.analysis == "per-protocol"
      ? "Only the \(evening ? "evenings" : "days") that ran their planned arm are counted "
        + "(per protocol): the randomisation's guarantee holds only if the others departed by "
        + "chance.\n\n"
      : "Every \(evening ? "evening" : "day") is counted under the arm the plan gave it "
        + "(intention to treat), which keeps the randomisation's guarantee.\n\n"
    let level = Int(((outcome.contrasts.first?.level ?? 0.95) * 100).rounded())
    let (unit, digits, reference) =
      evening ? ("minutes asleep", 1, "usual") : ("keep rate", 3, "in-force")
    text += Markdown.table(
      header: [
        evening ? "arm" : "candidate", "whole cycles", "\(unit) against \(reference)",
        "\(level)% confidence sequence",
        "randomisation p",
      ],
      rows: outcome.contrasts.map { c in
        [
          c.arm, "\(c.cycles)", c.estimate.map { Figures.signed($0, digits) } ?? "–",
          c.lower.flatMap { lower in
            c.upper.map { Figures.signed(lower, digits) + " … " + Figures.signed($0, digits) }
          } ?? "read from cycle \(plan.stoppingRule.minimumCycles)",
          c.permutationP.map { Format.fixed($0, 3) } ?? "–",
        ]
      }, alignments: ["l", "r", "r", "r", "r"])
    text += "\nThe rule: adopt \(evening ? "an arm" : "a candidate") when its sequence's lower "
    text += "end is above 0; keep \(evening ? "the usual evenings" : "the preferences in force") "
    text += "when every upper end is below the planned gain, "
    text +=
      "\(Figures.signed(plan.stoppingRule.margin, digits)), or the plan's \(plan.days) days are "
    text += "over; otherwise continue. The sequence may be read as often as you like: the "
    text += "chance that it ever excludes the true contrast stays near "
    text += "\(Figures.percent(plan.stoppingRule.contrastAlpha, 1))."
    let rule = plan.stoppingRule
    if let budget = rule.familyAlpha {
      text += " That error rate comes out of the budget of the preferences in force, "
      text += "\(Format.trimmed(budget, 4)), which `resonance tune`'s runs on them share: they "
      text += "had spent \(Format.trimmed(rule.familySpent ?? 0, 4)) and other experiments held "
      text += "\(Format.trimmed(rule.familyReserved ?? 0, 4)) when it was planned, and the "
      text += "experiment took half of the rest, \(Format.trimmed(rule.alpha, 4)), leaving the "
      text += "other half to tune's months to come; however the two are run, the chance that "
      text += "any of them changes the preferences for nothing stays within the budget."
    }
    text += "\n\n"
    if let evenings = outcome.evenings { text += Self.evenings(evenings) }
    text += Self.compliance(outcome.compliance)

    var files: [ReportFile] = []
    if !report.track.isEmpty {
      // Days into the plan: each reading at the end of its cycle, the plan's first day and its
      // planned end drawn down, so that a reader sees how far it has come.
      let cycleDays = Double(plan.stoppingRule.cycleDays)
      var chart = SVGChart(
        title: "\(unit.prefix(1).uppercased() + unit.dropFirst()) against \(reference), at the "
          + "end of each whole cycle", xLabel: "days into the plan", yLabel: "\(unit) contrast")
      let arms = outcome.contrasts.map(\.arm)
      for (series, arm) in arms.enumerated() {
        let steps = report.track.filter { $0.arm == arm }
        let day = { (step: ExperimentReport.Step) in Double(step.cycles) * cycleDays }
        if steps.count >= 2 {
          chart.marks.append(
            .band(steps.map { .init(day($0), low: $0.lower, high: $0.upper) }, series: series))
          chart.marks.append(.line(steps.map { .init(day($0), $0.estimate) }, series: series))
        }
        for step in steps {
          chart.marks.append(
            .line([.init(day(step), step.lower), .init(day(step), step.upper)], series: series))
        }
        chart.marks.append(.markers(steps.map { .init(day($0), $0.estimate) }, series: series))
      }
      chart.marks.append(.reference(0, vertical: false))
      chart.marks.append(.reference(plan.stoppingRule.margin, vertical: false))
      chart.marks.append(.reference(0, vertical: true))
      chart.marks.append(.reference(Double(plan.days), vertical: true))
      chart.legend = arms
      files.append(ReportFile(name: "experiment-track.svg", text: chart.svg()))
      text += "## How the interval narrowed\n\n"
      text += "![\(unit.prefix(1).uppercased() + unit.dropFirst()) against \(reference), at the "
      text += "end of each whole cycle](experiment-track.svg)\n\n"
      text += "Each \(evening ? "arm" : "candidate")'s mean cycle contrast (dot) and "
      text += "confidence sequence (bar, and band between cycles) at the end of each whole "
      text += "cycle from the first the sequence is read at; across, 0 and the planned gain; "
      text += "down, the plan's first day and its planned end.\n\n"
    }

    text += "## The plan\n\n"
    let power = plan.power
    text += "Arms: " + plan.arms.map { "`\(Markdown.escape($0.name))`" }.joined(separator: ", ")
    text += ", from \(plan.start) for \(plan.days) days in cycles of "
    text += "\(plan.stoppingRule.cycleDays) (every weekday once per arm), drawn from seed "
    text += "\(plan.seed). The outcome: "
    text += evening ? "the night's minutes asleep" : "the day's keep rate"
    text += ". Planned on \(power.observedDays) days with the outcome of the last "
    text +=
      "\(power.historyDays): \(unit) \(Format.fixed(power.outcomeMean, digits)), day-to-day SD "
    text += "\(Format.fixed(power.dailySD, digits)), lag-1 autocorrelation "
    text += "\(Figures.signed(power.autocorrelation, 2)), a cycle's contrast SD "
    text += "\(Format.fixed(power.contrastSD, digits)). "
    text += "The gain to show, \(Figures.signed(power.gain, digits)) (\(power.gainSource)), "
    if let needed = power.daysNeeded {
      text += "needs \(Format.grouped(needed)) days for \(Figures.percent(power.target)) power"
    } else {
      text += "needs more than ten years for \(Figures.percent(power.target)) power"
    }
    text +=
      power.fits
      ? ".\n\n"
      : "; the plan runs \(plan.days) days, which could show "
        + "\(Figures.signed(power.detectableGain, digits)).\n\n"
    if let e = plan.evening {
      text += "Each evening runs its arm from \(e.windowMinutes) minutes before the bedtime the "
      text += "app predicts — the median of the last \(e.lookbackDays) days' nights of the kind "
      text += "(\(e.weeknightBedtime) on weeknights and \(e.weekendBedtime) on Friday and "
      text += "Saturday nights when planned) — until the next morning: `calm` plays "
      text += "\(plan.arms.first { $0.evening == .calm }?.songs?.count ?? 0) songs estimated to "
      text += "lower your heart rate, `none` plays nothing, `usual` is the DJ as it runs.\n\n"
    }
    let changed = Self.differences(plan)
    if !changed.isEmpty {
      text += Markdown.table(
        header: ["setting"] + plan.arms.map(\.name),
        rows: changed, alignments: ["l"] + plan.arms.map { _ in "r" })
      text += "\nOnly the settings the arms differ in are shown; the plan file holds them all.\n\n"
    }

    var csv = CSVTable(
      header: ["date", "planned_arm", "ran_arm", "decisions", "keep_rate", "counted"]
        + (evening ? ["asleep_minutes", "music_minutes"] : []))
    for day in report.days {
      csv.append(
        [
          .text(day.day), .text(day.planned), day.ran.map { .text($0) } ?? .empty,
          .integer(day.decisions), .value(day.keepRate), .integer(day.counted ? 1 : 0),
        ] + (evening ? [.value(day.asleepMinutes), .value(day.musicMinutes)] : []))
    }
    files.append(ReportFile(name: "experiment-days.csv", text: csv.text))
    text += "## Every day so far\n\n"
    text += "In `experiment-days.csv`: each day of the plan through \(outcome.asOf), the arm "
    text += "planned and the arm the log shows ran, its decisions, its keep rate and whether "
    text += "the analysis counted it"
    text +=
      evening
      ? "; and that night's minutes asleep and the minutes of music heard in the "
        + "hour before its bedtime.\n" : ".\n"
    return ReportPage(
      name: "experiment", title: "Experiment", headline: headline,
      files: [ReportFile(name: "experiment.md", text: text)] + files)
  }

  /// The stopping rule's decision in words, as the page, the index and the console say it:
  /// `adopt candidate`, `keep the preferences in force, the plan's days over`, `continue, 26
  /// days left`; for music before bed, `adopt calm music before bed`, `keep the usual
  /// evenings, …`.
  package static func decision(_ outcome: ExperimentAnalyzeOutcome) -> String {
    let evening = outcome.evenings != nil
    let kept = evening ? "keep the usual evenings" : "keep the preferences in force"
    return switch outcome.decision {
    case "adopt" where evening:
      outcome.adopted == "none" ? "adopt no music before bed" : "adopt calm music before bed"
    case "adopt": "adopt \(outcome.adopted ?? "")"
    case "keep" where outcome.daysLeft == 0: "\(kept), the plan's days over"
    case "keep" where evening: "\(kept), neither calm nor none able to gain the planned amount"
    case "keep": "\(kept), no candidate able to gain the planned amount"
    default: "continue, \(outcome.daysLeft) days left"
    }
  }

  /// The decision in one line, with the contrast it rests on:
  /// `continue, 26 days left: candidate +0.031 (−0.020 … +0.082) in keep rate`.
  package static func headline(_ outcome: ExperimentAnalyzeOutcome) -> String {
    let decision = Self.decision(outcome)
    let shown = outcome.contrasts.first { $0.arm == outcome.adopted } ?? outcome.contrasts.first
    guard let c = shown, let estimate = c.estimate, let lower = c.lower, let upper = c.upper
    else {
      return decision + " (too few whole cycles to read the sequence)"
    }
    let evening = outcome.evenings != nil
    return decision + ": \(c.arm) " + Figures.interval(estimate, lower, upper, evening ? 1 : 3)
      + (evening ? " minutes asleep" : " in keep rate")
  }

  /// An evening-music experiment's evenings: the music each arm's held, and the effect of
  /// that music on minutes asleep.
  private static func evenings(_ e: ExperimentAnalyzeOutcome.Evenings) -> String {
    var text = "## Music before bed\n\n"
    text += "Evenings with ten minutes of music or more in the hour before that night's "
    text += "bedtime, from every source: "
    text += e.arms.map { "`\($0.arm)` \($0.withMusic) of \($0.evenings)" }.joined(separator: ", ")
    text += ". "
    if let estimate = e.estimate {
      text += "Calm evenings against no-music ones over \(e.cycles) whole cycles: "
      text += "\(Figures.signed(e.asleepContrast ?? 0, 1)) minutes asleep for "
      text += "\(Figures.signed(e.musicContrast ?? 0, 2)) of evenings with music, so music in "
      text += "the hour before bed brings \(Figures.signed(estimate, 1)) minutes asleep ("
      if let lower = e.lower, let upper = e.upper {
        text += "\(Figures.percent(e.level)) confidence sequence \(Figures.signed(lower, 1)) … "
        text += "\(Figures.signed(upper, 1))"
      } else {
        text += "not yet bounded: the arms' music differs too little so far"
      }
      text += "). Dividing by the difference in music keeps music played by hand on no-music "
      text += "evenings from diluting the estimate.\n\n"
    } else {
      text += "The effect of that music is read from the fourth whole cycle.\n\n"
    }
    return text
  }

  private static func sentence(_ line: String) -> String {
    line.prefix(1).uppercased() + line.dropFirst() + "."
  }

  /// What the log shows ran.
  private static func compliance(_ compliance: ExperimentCompliance) -> String {
    guard compliance.daysWithDecisions > 0 else { return "" }
    guard compliance.logged else {
      return "The decision log does not name the arm of its decisions (version 3 does), so "
        + "what the DJ ran on each day cannot be checked.\n\n"
    }
    var text = "The decision log names every decision's arm: "
    text += "\(compliance.followedDays) of \(compliance.daysWithDecisions) days with decisions "
    text += "ran their planned arm"
    guard !compliance.departures.isEmpty else { return text + ".\n\n" }
    text += "; these did not:\n\n"
    text += Markdown.table(
      header: ["day", "planned", "ran (decisions)"],
      rows: compliance.departures.map { d in
        [d.day, d.planned, d.ran.map { "\($0.arm) (\($0.decisions))" }.joined(separator: ", ")]
      }, alignments: ["l", "l", "l"])
    return text + "\n"
  }

  /// The settings the arms differ in, one row each: the seven weights and the temperature.
  private static func differences(_ plan: ExperimentPlan) -> [[String]] {
    let settings: [(String, (UserPreferences) -> Double)] = [
      ("bpm weight", \.bpmWeight), ("energy weight", \.energyWeight),
      ("familiarity weight", \.familiarityWeight), ("historical weight", \.historicalWeight),
      ("context weight", \.contextWeight), ("recency penalty", \.recencyPenaltyWeight),
      ("time-of-day penalty", \.timeOfDayPenaltyWeight),
      ("temperature", { $0.policy.temperature }),
    ]
    return settings.compactMap { name, value in
      let values = plan.arms.map { value($0.preferences) }
      guard Set(values).count > 1 else { return nil }
      return [name] + values.map { Format.trimmed($0) }
    }
  }
}
