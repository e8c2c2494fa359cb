import ResonanceModel

/// The one-step value of a policy on logged decisions from each candidate row's expected
/// reward: the mean over decisions of Σ_r p(r) · E[reward | r] (`OneStepTruth`). With the
/// truth a simulation planted, it is what an offline estimator of the same policy estimates.
package enum OneStepValue {
  /// The expected reward of one candidate from the expectations of its parts, 0 … 1:
  /// `keep` 1 − skip, `listen-share` the share, `response` the response score, `composite`
  /// 0.4 · (1 − skip) + 0.3 · share + 0.3 · response (every part measured, as the truth is).
  /// Nil for `session-quality`, which depends on the session's other choices.
  package static func expected(
    _ reward: Reward, skip: Double, share: Double, response: Double
  ) -> Double? {
    switch reward {
    case .keep: 1 - skip
    case .listenShare: share
    case .response: response
    case .composite:
      Reward.keepWeight * (1 - skip) + Reward.listenShareWeight * share
        + Reward.responseWeight * response
    case .sessionQuality: nil
    }
  }

  /// Σ_r p(r) · value(r) averaged over the decisions of `decisions`, with `probabilities` and
  /// `values` one per row in the log's row order.
  ///
  /// - Precondition: one probability and one value per row.
  package static func mean(
    _ decisions: LoggedDecisions, probabilities: [Double], values: [Double]
  ) -> Double {
    precondition(probabilities.count == decisions.rows && values.count == decisions.rows)
    guard decisions.count > 0 else { return 0 }
    var total = 0.0
    for d in 0..<decisions.count {
      for r in decisions.rows(of: d) { total += probabilities[r] * values[r] }
    }
    return total / Double(decisions.count)
  }
}
