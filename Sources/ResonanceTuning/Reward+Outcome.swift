import ResonanceBrain
import ResonanceModel

/// Each reward computed from a decision's outcome (`Reward`'s definitions): the composite's
/// weights, the response's score, and the reward of every decision of a log.
extension Reward {
  /// The composite's weight on kept.
  package static let keepWeight = 0.4
  /// The composite's weight on the share heard.
  package static let listenShareWeight = 0.3
  /// The composite's weight on the response score.
  package static let responseWeight = 0.3

  /// A response Δ (ms of SDNN or bpm of heart rate, toward the need) as a score on 0 … 1:
  /// clamp(0.5 + Δ / 20, 0, 1), the session-quality HRV scale
  /// (`SessionQualityScorer.hrvComponent`).
  package static func responseScore(_ response: Double) -> Double {
    SessionQualityScorer.hrvComponent(deltaMs: response)
  }

  /// The composite reward of one decision's outcome, 0 … 1: the weighted mean of kept, the
  /// share heard and the response score over those known (`Reward`'s definition).
  ///
  /// - Parameters:
  ///   - kept: whether the chosen song was kept.
  ///   - listenShare: the share heard (clamped to 0 … 1; left out when not finite).
  ///   - responseScore: the response's score on 0 … 1 — measured, or the missing-response
  ///     model's value (`MissingResponses`) — left out when nil or not finite.
  /// - Returns: the composite (0 … 1 with a measured score; a modelled one may lie outside).
  package static func composite(kept: Bool, listenShare: Double, responseScore: Double?)
    -> Double
  {
    var total = keepWeight * (kept ? 1 : 0)
    var weight = keepWeight
    if listenShare.isFinite {
      total += listenShareWeight * min(1, max(0, listenShare))
      weight += listenShareWeight
    }
    if let responseScore, responseScore.isFinite {
      total += responseWeight * responseScore
      weight += responseWeight
    }
    return total / weight
  }

  /// The response reward of decision `d`: the log's `responseReward` when the
  /// missing-response model filled it, else the measured response's score; nil when neither.
  ///
  /// - Complexity: O(1).
  package static func responseScore(_ decisions: LoggedDecisions, decision d: Int) -> Double? {
    if !decisions.responseReward.isEmpty {
      return decisions.responseReward[d].flatMap { $0.isFinite ? $0 : nil }
    }
    guard let response = decisions.response[d], response.isFinite else { return nil }
    return responseScore(response)
  }

  /// This reward for decision `d` of `decisions`, 0 … 1, or nil where it was not measured.
  ///
  /// - Complexity: O(1).
  package func value(_ decisions: LoggedDecisions, decision d: Int) -> Double? {
    switch self {
    case .keep:
      return decisions.kept[d] ? 1 : 0
    case .listenShare:
      let share = decisions.listenShare[d]
      return share.isFinite ? min(1, max(0, share)) : nil
    case .response:
      return Reward.responseScore(decisions, decision: d)
    case .sessionQuality:
      guard let quality = decisions.sessionQuality[d], quality.isFinite else { return nil }
      return quality
    case .composite:
      return Reward.composite(
        kept: decisions.kept[d], listenShare: decisions.listenShare[d],
        responseScore: Reward.responseScore(decisions, decision: d))
    }
  }

  /// This reward for every decision, nil where it was not measured.
  ///
  /// - Complexity: O(decisions).
  package func values(_ decisions: LoggedDecisions) -> [Double?] {
    (0..<decisions.count).map { value(decisions, decision: $0) }
  }
}
