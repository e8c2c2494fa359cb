import ResonanceLinear
import ResonanceModel

/// The response reward where some responses were not measured: a model of which plays get a
/// measured response and of what the response is, so that a decision without one counts
/// rather than drops out (`docs/tuning.md`, "Missing responses").
///
/// A response needs a reading before the play and one during it; a play skipped in its first
/// seconds often has none during it, so the responses that are missing are missing more often
/// for the choices a person skips. Dropping those decisions (the `response` reward) or
/// renormalising the composite without them biases every estimate of a policy that changes
/// how often people skip. Here each decision d gets the augmented inverse-probability value
///
///     R̃_d = m̂(z_d) + O_d / p̂(z_d) · (R_d − m̂(z_d))
///
/// with R_d the measured response score, O_d 1 when it was measured and 0 when not, m̂ a ridge
/// regression of the score on what the decision and its outcome show (`outcomeFeatures`), and
/// p̂ a ridge logistic regression of O on the outcome (`observationFeatures`), floored at
/// `minimumObservation`. R̃ has the expectation of the response whenever responses are missing
/// at random given those features and either model is right (the doubly robust property),
/// and offline evaluation reads it as the decision's response reward.
///
/// **Forward fitting.** The models that give month m's values are fitted on the months before
/// it alone (the first month's on itself), so that no decision's reward depends on a later
/// month: forward chaining chooses on the past without the judged month shaping the rewards it
/// chooses on.
///
/// A log whose responses were all measured keeps its measured scores unchanged (`fill` returns
/// an empty array). Where the months before a decision measured no response at all, it has no
/// model to go on: its response stays unmeasured (nil).
package enum MissingResponses {
  /// The smallest measured chance p̂ a decision's weight divides by (at most ×10).
  package static let minimumObservation = 0.1
  /// The ridge penalty of both models, on every feature but the intercept.
  package static let penalty = 1.0
  /// A play heard for less than this share of its song counts as a quick skip (about ten
  /// seconds of a typical song): the plays a reading during the play most often misses.
  package static let quickSkipShare = 0.05

  /// Names of `observationFeatures`' columns, in order.
  package static let observationFeatureNames: [String] =
    [
      "heart_rate_need", "quick_skip", "heart_rate_need_quick_skip", "share",
      "heart_rate_need_share", "kept",
    ] + ActivityContext.allCases.map { "context_\($0.rawValue)" }

  /// Names of `outcomeFeatures`' columns, in order: the reward model's, then the outcome's.
  package static let outcomeFeatureNames: [String] =
    RewardModel.featureNames
    + ["kept", "share", "quick_skip", "heart_rate_need_quick_skip", "heart_rate_need_share"]

  /// The response reward of every decision of `decisions` (`LoggedDecisions.responseReward`),
  /// or an empty array when every decision's response was measured.
  ///
  /// - Complexity: O(M·n·p²) for M months and n decisions.
  /// - Throws: `TuningError` of kind `fitFailed` when a model cannot be fitted.
  package static func fill(_ decisions: LoggedDecisions) throws(TuningError) -> [Double?] {
    let scores = measuredScores(decisions)
    guard scores.contains(where: { $0 == nil }) else { return [] }
    let monthOf = decisions.time.map(CalendarMonth.init)
    let months = Array(Set(monthOf)).sorted()
    var filled = [Double?](repeating: nil, count: decisions.count)
    for (m, month) in months.enumerated() {
      let own = (0..<decisions.count).filter { monthOf[$0] == month }
      let training = m == 0 ? own : (0..<decisions.count).filter { monthOf[$0] < month }
      let measured = training.filter { scores[$0] != nil }
      guard !measured.isEmpty else {
        for d in own { filled[d] = scores[d] }
        continue
      }
      let outcome = try ridge(decisions, measured, scores: scores)
      let observation =
        measured.count < training.count ? try observed(decisions, training, scores: scores) : nil
      for d in own {
        let predicted = outcome.predict(outcomeFeatures(decisions, decision: d))
        guard let score = scores[d] else {
          filled[d] = predicted
          continue
        }
        let p =
          observation.map {
            max(minimumObservation, $0.probability(observationFeatures(decisions, decision: d)))
          } ?? 1
        filled[d] = predicted + (score - predicted) / p
      }
    }
    return filled
  }

  /// Each decision's measured response score, nil where none was measured.
  static func measuredScores(_ decisions: LoggedDecisions) -> [Double?] {
    decisions.response.map { r in r.flatMap { $0.isFinite ? Reward.responseScore($0) : nil } }
  }

  /// What the chance of a measured response is modelled on: whether the need reads heart rate
  /// (energy, mood lift) rather than HRV, a quick skip, the share heard, both against the
  /// need, kept, and the context.
  static func observationFeatures(_ decisions: LoggedDecisions, decision d: Int) -> [Double] {
    let (heartRate, quick, share) = outcome(decisions, decision: d)
    var x = [heartRate, quick, heartRate * quick, share, heartRate * share]
    x.append(decisions.kept[d] ? 1 : 0)
    for context in ActivityContext.allCases { x.append(decisions.context[d] == context ? 1 : 0) }
    return x
  }

  /// What the response score is modelled on: the chosen row's reward-model features
  /// (`RewardModel.features`), then kept, the share heard, a quick skip, and the last two
  /// against a heart-rate need.
  static func outcomeFeatures(_ decisions: LoggedDecisions, decision d: Int) -> [Double] {
    let (heartRate, quick, share) = outcome(decisions, decision: d)
    let row = decisions.rowStart[d] + decisions.chosen[d]
    return RewardModel.features(decisions, row: row, decision: d)
      + [decisions.kept[d] ? 1 : 0, share, quick, heartRate * quick, heartRate * share]
  }

  private static func outcome(_ decisions: LoggedDecisions, decision d: Int) -> (
    heartRate: Double, quick: Double, share: Double
  ) {
    let need = decisions.need[d]
    let heartRate: Double = need == .energy || need == .moodLift ? 1 : 0
    let raw = decisions.listenShare[d]
    let share = raw.isFinite ? min(1, max(0, raw)) : 0
    return (heartRate, raw.isFinite && share < quickSkipShare ? 1 : 0, share)
  }

  private static func ridge(_ decisions: LoggedDecisions, _ rows: [Int], scores: [Double?])
    throws(TuningError) -> RidgeFit
  {
    let x = Matrix(
      rows: rows.count, columns: outcomeFeatureNames.count,
      elements: rows.flatMap { outcomeFeatures(decisions, decision: $0) })
    do {
      return try RidgeRegression.fit(
        X: x, y: rows.map { scores[$0] ?? 0 }, lambda: penalty, noiseVariance: 1)
    } catch {
      throw TuningError(.fitFailed, "missing-response model: \(error)")
    }
  }

  private static func observed(_ decisions: LoggedDecisions, _ rows: [Int], scores: [Double?])
    throws(TuningError) -> LogisticFit
  {
    let x = Matrix(
      rows: rows.count, columns: observationFeatureNames.count,
      elements: rows.flatMap { observationFeatures(decisions, decision: $0) })
    do {
      return try LogisticRegression.fit(
        X: x, y: rows.map { scores[$0] == nil ? 0 : 1 }, lambda: penalty)
    } catch {
      throw TuningError(.fitFailed, "missing-response observation model: \(error)")
    }
  }
}
