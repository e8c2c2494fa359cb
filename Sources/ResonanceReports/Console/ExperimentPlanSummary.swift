import ResonanceModel

/// What `resonance experiment plan` prints: the arms and the design, the assumptions the
/// length rests on, the length, the stopping rule and the file.
package enum ExperimentPlanSummary {
  package static func lines(_ outcome: ExperimentPlanOutcome) -> [String] {
    let plan = outcome.plan
    let power = plan.power
    let rule = plan.stoppingRule
    let gain = signed(power.gain)
    let cycles = plan.days / rule.cycleDays
    let source =
      switch power.gainSource {
      case "margin": "--margin"
      case "tune": "the candidate's keep-rate change where tune judged it"
      default: "the default smallest worthwhile gain"
      }
    var lines = [
      "experiment: \(plan.arms.count) arms (\(plan.arms.map(\.name).joined(separator: ", "))), "
        + "randomised by day in cycles of \(rule.cycleDays) days (every weekday once per arm), "
        + "from \(plan.start), seed \(plan.seed)",
      "experiment: outcome the day's keep rate; the gain to show \(gain) (\(source))",
      "experiment: history \(power.historyDays) days, \(power.observedDays) with decisions: "
        + "keep rate \(Format.fixed(power.outcomeMean, 3)), day-to-day SD "
        + "\(Format.fixed(power.dailySD, 3)), lag-1 autocorrelation "
        + "\(Format.fixed(power.autocorrelation, 2)); a cycle's contrast SD "
        + "\(Format.fixed(power.contrastSD, 3))",
    ]
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
          + "which show \(signed(power.detectableGain)) with \(percent)% power")
    }
    lines.append(
      "experiment: after each cycle, a \(Int(((1 - rule.contrastAlpha) * 100).rounded()))% "
        + "confidence sequence per candidate (valid however often you look): adopt when its "
        + "lower end is above 0, keep when its upper end is below \(gain) or the days are over")
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
    ])
  }

  private static func signed(_ x: Double) -> String {
    (x >= 0 ? "+" : "−") + Format.fixed(abs(x), 3)
  }
}
