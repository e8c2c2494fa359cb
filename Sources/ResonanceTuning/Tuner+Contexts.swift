import ResonanceBrain
import ResonanceModel

extension Tuner {
  /// A context `--by-context` looks at: its result so far, and whether it has enough
  /// decisions in the last month to be tried at all.
  struct ContextPlan {
    var result: ContextTuning
    var tried: Bool
  }

  /// Every context, and whether it has at least `minimumESS` decisions in the last month (the
  /// contexts tried are the tests the run's Bonferroni level counts, with the general one).
  static func contextsToTry(
    _ log: LoggedDecisions, monthOf: [Int], months: [CalendarMonth], settings: TuningSettings
  ) -> [ContextPlan] {
    let held = months.count - 1
    return ActivityContext.allCases.map { context in
      let mine = (0..<log.count).filter { log.context[$0] == context }
      let heldCount = mine.filter { monthOf[$0] == held }.count
      var result = ContextTuning(
        context: context, decisions: mine.count, heldOutDecisions: heldCount,
        weights: nil, gain: nil, effectiveSampleSize: nil, claimed: false, reason: "")
      let tried = heldCount >= Int(settings.minimumESS)
      if !tried {
        result.reason =
          "\(heldCount) decisions in \(months[held]), fewer than the "
          + "\(Int(settings.minimumESS)) effective ones the bar needs: not tried"
      }
      return ContextPlan(result: result, tried: tried)
    }
  }

  /// `--by-context`: each context tried runs the same forward chaining on its own decisions,
  /// and claims a profile when its pooled gain clears the same bar at `level`, the run's
  /// Bonferroni level 1 − (1 − level)/k for the k tests made (the general one and these).
  static func byContext(
    _ plans: [ContextPlan], log: LoggedDecisions, monthOf: [Int], months: [CalendarMonth],
    folds: [FoldModels], rewards: [Reward], inForce: UserPreferences, design: [ScoringWeights],
    settings: TuningSettings, level: Double
  ) throws(TuningError) -> [ContextTuning] {
    let held = months.count - 1
    var results = plans.map(\.result)
    for (c, plan) in plans.enumerated() where plan.tried {
      let context = plan.result.context
      let chain = try Self.chain(
        log: log, monthOf: monthOf, months: months, folds: folds,
        where: { log.context[$0] == context }, rewards: rewards, inForce: inForce,
        design: design, settings: settings, level: level)
      guard let last = chain.last else {
        results[c].reason = "no preferences did clearly better on its months before the last"
        continue
      }
      results[c].weights = last.candidate.weights
      results[c].effectiveSampleSize = last.evidence.effectiveSampleSize
      guard let gain = chain.gain else { continue }
      results[c].gain = gain
      results[c].claimed =
        gain.lower > settings.margin && last.evidence.effectiveSampleSize >= settings.minimumESS
      results[c].reason =
        results[c].claimed
        ? "forward-chaining gain \(signed(gain.estimate)) over \(chain.judgedMonths) months, "
          + "\(percent(level)) interval \(signed(gain.lower)) … \(signed(gain.upper)), above "
          + margin(settings.margin)
        : last.evidence.effectiveSampleSize < settings.minimumESS
          ? "effective sample size \(Int(last.evidence.effectiveSampleSize.rounded())) in "
            + "\(months[held]) under \(Int(settings.minimumESS))"
          : "the forward-chaining gain's \(percent(level)) interval "
            + "(\(signed(gain.lower)) … \(signed(gain.upper))) reaches "
            + "\(margin(settings.margin)) or below"
    }
    return results
  }
}
