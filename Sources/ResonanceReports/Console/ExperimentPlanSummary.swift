import ResonanceModel

/// What `resonance experiment plan` prints: the arms and the design, the assumptions the
/// length rests on, the length, the stopping rule and the file.
package enum ExperimentPlanSummary {
  /// Past a year, a plan's contrast is an average over a person who may have changed
  /// (docs/experiments.md, "Plans as long as they need").
  static let longPlanDays = 365

  package static func lines(_ outcome: ExperimentPlanOutcome) -> [String] {
    let plan = outcome.plan
    let power = plan.power
    let rule = plan.stoppingRule
    let gain = signed(power.gain, plan.evening != nil ? 1 : 3)
    let cycles = plan.days / rule.cycleDays
    let source =
      switch power.gainSource {
      case "margin": "--margin"
      case "tune": "the candidate's keep-rate change where tune judged it"
      default: "the default smallest worthwhile gain"
      }
    let evening = plan.evening != nil
    let (unit, digits) = evening ? ("minutes asleep", 1) : ("keep rate", 3)
    var lines = [
      "experiment: \(plan.arms.count) arms (\(plan.arms.map(\.name).joined(separator: ", "))), "
        + "randomised by \(plan.block) in cycles of \(rule.cycleDays) days (every weekday once "
        + "per arm), from \(plan.start), seed \(plan.seed)",
      "experiment: outcome "
        + (evening ? "the night's minutes asleep" : "the day's keep rate")
        + "; the gain to show \(signed(power.gain, digits)) (\(source))",
      "experiment: history \(power.historyDays) days, \(power.observedDays) with the outcome: "
        + "\(unit) \(Format.fixed(power.outcomeMean, digits)), day-to-day SD "
        + "\(Format.fixed(power.dailySD, digits)), lag-1 autocorrelation "
        + "\(Format.fixed(power.autocorrelation, 2)); a cycle's contrast SD "
        + "\(Format.fixed(power.contrastSD, digits))",
    ]
    if let e = plan.evening, let calm = plan.arms.first(where: { $0.evening == .calm }) {
      lines.append(
        "experiment: evenings from \(e.windowMinutes) minutes before the bedtime the app "
          + "predicts (median of the last \(e.lookbackDays) days' nights of the kind: now "
          + "\(e.weeknightBedtime) on weeknights, \(e.weekendBedtime) on Friday and Saturday); "
          + "calm plays \(calm.songs?.count ?? 0) songs estimated to lower your heart rate")
    }
    let percent = Int((power.target * 100).rounded())
    if power.fits, let needed = power.daysNeeded {
      lines.append(
        "experiment: \(percent)% power to show \(gain) after \(Format.grouped(needed)) days "
          + "(\(cycles) cycles), within --max-days \(plan.maxDays): planned for "
          + "\(Format.grouped(plan.days)) days")
    } else {
      let needs =
        power.daysNeeded.map { "needs \(Format.grouped($0)) days" } ?? "needs more than ten years"
      lines.append(
        "experiment: \(percent)% power to show \(gain) \(needs), more than --max-days "
          + "\(plan.maxDays): planned for \(Format.grouped(plan.days)) days (\(cycles) cycles), "
          + "which show \(signed(power.detectableGain, plan.evening != nil ? 1 : 3)) with "
          + "\(percent)% power")
    }
    if plan.days > Self.longPlanDays {
      lines.append(
        "experiment: over \(Format.grouped(plan.days)) days "
          + (evening ? "your nights" : "your taste")
          + " may change; the contrast is the arms' difference averaged over them all, not "
          + "what it would be today")
    }
    lines.append(
      "experiment: from the \(ordinal(rule.minimumCycles)) whole cycle, a "
        + "\(Int(((1 - rule.contrastAlpha) * 100).rounded()))% confidence sequence per "
        + "\(plan.evening != nil ? "arm against usual" : "candidate") (valid however often you "
        + "look): adopt when its "
        + "lower end is above 0, keep when its upper end is below \(gain) or the days are over")
    if let budget = rule.familyAlpha {
      let spent = (rule.familySpent ?? 0) + (rule.familyReserved ?? 0)
      lines.append(
        "experiment: its error rate \(Format.trimmed(rule.alpha, 4)) is half of what the "
          + "preferences in force have left of their \(Format.trimmed(budget, 4)): their tune "
          + "runs and other experiments hold \(Format.trimmed(spent, 4)), and the rest stays "
          + "for tune's months to come")
    }
    lines.append("experiment: wrote \(outcome.out)")
    return lines
  }

  /// `--json` (`docs/cli.md`).
  package static func json(_ outcome: ExperimentPlanOutcome) -> JSONValue {
    let plan = outcome.plan
    let power = plan.power
    return .object([
      "format_version": 1, "out": .string(outcome.out), "question": .string(plan.question.rawValue),
      "arms": .array(plan.arms.map { .string($0.name) }), "start": .string(plan.start),
      "days": .int(Int64(plan.days)), "max_days": .int(Int64(plan.maxDays)),
      "cycle_days": .int(Int64(plan.stoppingRule.cycleDays)), "seed": .int(Int64(plan.seed)),
      "power": [
        "target": .number(power.target), "gain": .number(power.gain),
        "gain_source": .string(power.gainSource),
        "days_needed": power.daysNeeded.map { .int(Int64($0)) } ?? .null,
        "fits": .bool(power.fits), "detectable_gain": .number(power.detectableGain),
        "daily_sd": .number(power.dailySD), "autocorrelation": .number(power.autocorrelation),
        "contrast_sd": .number(power.contrastSD),
      ],
      "alpha": .number(plan.stoppingRule.alpha),
      "contrast_alpha": .number(plan.stoppingRule.contrastAlpha),
    ])
  }

  private static func ordinal(_ n: Int) -> String {
    ["first", "second", "third", "fourth", "fifth", "sixth"].dropFirst(n - 1).first ?? "\(n)th"
  }

  private static func signed(_ x: Double, _ digits: Int = 3) -> String {
    (x >= 0 ? "+" : "−") + Format.fixed(abs(x), digits)
  }
}

extension ExperimentPlanSummary {
  /// What `resonance experiment analyze` prints: each candidate's contrast so far, then the
  /// decision.
  package static func lines(_ outcome: ExperimentAnalyzeOutcome) -> [String] {
    var lines: [String] = []
    for c in outcome.contrasts {
      guard let estimate = c.estimate, let lower = c.lower, let upper = c.upper else {
        lines.append(
          "experiment: \(c.arm): \(c.cycles) whole cycle\(c.cycles == 1 ? "" : "s") so far; "
            + "the sequence is read from the fourth")
        continue
      }
      let (unit, digits, reference) =
        outcome.evenings != nil ? ("minutes asleep", 1, "usual") : ("keep rate", 3, "in-force")
      lines.append(
        "experiment: \(c.arm) against \(reference) over \(c.cycles) cycles: \(unit) "
          + "\(signed(estimate, digits)) (\(Int((c.level * 100).rounded()))% confidence sequence "
          + "\(signed(lower, digits)) … \(signed(upper, digits))), randomisation p = "
          + Format.fixed(c.permutationP ?? 1, 3))
    }
    if let e = outcome.evenings {
      lines.append(
        "experiment: evenings with music in the hour before bed: "
          + e.arms.map { "\($0.arm) \($0.withMusic) of \($0.evenings)" }.joined(separator: ", "))
      if let estimate = e.estimate {
        let interval =
          if let lower = e.lower, let upper = e.upper {
            "\(signed(lower, 1)) … \(signed(upper, 1))"
          } else {
            "not yet bounded"
          }
        lines.append(
          "experiment: music in the hour before bed, calm evenings against no-music ones over "
            + "\(e.cycles) cycles: \(signed(estimate, 1)) minutes asleep per evening with music "
            + "(\(Int((e.level * 100).rounded()))% confidence sequence \(interval))")
      }
    }
    let compliance = outcome.compliance
    if compliance.logged {
      lines.append(
        "experiment: the log names every decision's arm: \(compliance.followedDays) of "
          + "\(compliance.daysWithDecisions) days with decisions ran their planned arm")
      for departure in compliance.departures.prefix(Self.departuresShown) {
        let ran = departure.ran.map { "\($0.arm) (\($0.decisions))" }.joined(separator: ", ")
        lines.append(
          "experiment:   \(departure.day) planned \(departure.planned), ran \(ran)")
      }
      if compliance.departures.count > Self.departuresShown {
        lines.append(
          "experiment:   and \(compliance.departures.count - Self.departuresShown) more (--json lists them all)"
        )
      }
    } else if compliance.daysWithDecisions > 0 {
      lines.append(
        "experiment: the log does not name the decisions' arms (decision log version 3 does): "
          + "what the DJ ran cannot be checked")
    }
    let decision = ExperimentPage.decision(outcome)
    let counted =
      outcome.analysis == "per-protocol"
      ? "only the \(outcome.evenings != nil ? "evenings" : "days") that ran their planned arm "
        + "counted (per protocol)"
      : "every \(outcome.evenings != nil ? "evening" : "day") counted under its planned arm"
    lines.append("experiment: through \(outcome.asOf), \(counted): \(decision)")
    return lines
  }

  /// Departures listed in the text; `--json` lists all.
  static let departuresShown = 10

  /// `--json` (`docs/cli.md`).
  package static func json(_ outcome: ExperimentAnalyzeOutcome) -> JSONValue {
    let number: (Double?) -> JSONValue = { $0.map { .number($0) } ?? .null }
    let contrast: (ExperimentAnalyzeOutcome.Contrast) -> JSONValue = { c in
      [
        "arm": .string(c.arm), "cycles": .int(Int64(c.cycles)), "estimate": number(c.estimate),
        "lower": number(c.lower), "upper": number(c.upper), "level": .number(c.level),
        "permutation_p": number(c.permutationP),
      ]
    }
    let primary =
      outcome.contrasts.first { $0.arm == outcome.adopted } ?? outcome.contrasts.first
    return .object([
      "format_version": 1, "plan": .string(outcome.plan), "decision": .string(outcome.decision),
      "adopted": outcome.adopted.map { .string($0) } ?? .null, "as_of": .string(outcome.asOf),
      "days_left": .int(Int64(outcome.daysLeft)),
      "contrast": primary.map(contrast) ?? .null,
      "permutation_p": number(primary?.permutationP),
      "contrasts": .array(outcome.contrasts.map(contrast)),
      "analysis": .string(outcome.analysis),
      "evenings": outcome.evenings.map { e in
        [
          "arms": .array(
            e.arms.map {
              [
                "arm": .string($0.arm), "evenings": .int(Int64($0.evenings)),
                "with_music": .int(Int64($0.withMusic)),
              ]
            }),
          "music_effect": [
            "cycles": .int(Int64(e.cycles)), "asleep_contrast": number(e.asleepContrast),
            "music_contrast": number(e.musicContrast), "estimate": number(e.estimate),
            "lower": number(e.lower), "upper": number(e.upper), "level": .number(e.level),
          ],
        ]
      } ?? .null,
      "compliance": [
        "logged": .bool(outcome.compliance.logged),
        "days_with_decisions": .int(Int64(outcome.compliance.daysWithDecisions)),
        "followed_days": .int(Int64(outcome.compliance.followedDays)),
        "departures": .array(
          outcome.compliance.departures.map { d in
            [
              "day": .string(d.day), "planned": .string(d.planned),
              "ran": .array(
                d.ran.map { ["arm": .string($0.arm), "decisions": .int(Int64($0.decisions))] }),
            ]
          }),
      ],
    ])
  }
}
