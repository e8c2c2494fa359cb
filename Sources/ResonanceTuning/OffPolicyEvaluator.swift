import ResonanceLinear
import ResonanceModel

/// Estimates, from the DJ's logged decisions, the mean reward the app's policy would have
/// earned under other preferences (offline policy evaluation).
///
/// The evaluator is built once per log and reward: it checks the log, measures the reward of
/// every decision and fits the cross-fitted reward model. Each estimate is then O(rows), so
/// a sweep asks it for one estimate per weight vector.
///
/// ```swift
/// let evaluator = try OffPolicyEvaluator(decisions, reward: .composite)
/// let current = evaluator.estimate(preferencesInForce)
/// let tuned = evaluator.estimate(candidate, estimator: .dr, clipping: 20)
/// ```
package struct OffPolicyEvaluator: Sendable {
  /// The clipping thresholds of every estimate's sensitivity table: none, 100, 20, 10, 5.
  package static let clippingThresholds: [Double?] = [nil, 100, 20, 10, 5]

  /// The log evaluated.
  package let decisions: LoggedDecisions
  /// The reward estimated.
  package let reward: Reward
  /// Per decision, the reward (0 … 1), nil where not measured.
  package let rewards: [Double?]
  /// The cross-fitted model of the reward, for DM and DR.
  package let rewardModel: RewardModel
  /// The decisions with the reward measured, in order.
  private let measured: [Int]

  /// An evaluator of `decisions` for `reward`, with its reward model fitted at `modelPenalty`.
  ///
  /// - Complexity: that of `RewardModel.fit`.
  /// - Throws: `TuningError` when the log fails `checkConsistency()` (`inconsistentLog`,
  ///   `unusablePropensity`) or the reward model cannot be fitted (`noMeasuredReward`,
  ///   `fitFailed`).
  package init(
    _ decisions: LoggedDecisions, reward: Reward = .composite,
    modelPenalty: Double = RewardModel.defaultPenalty
  ) throws(TuningError) {
    try decisions.checkConsistency()
    let model = try RewardModel.fit(decisions, reward: reward, penalty: modelPenalty)
    try self.init(decisions, reward: reward, rewardModel: model)
  }

  /// An evaluator of `decisions` for `reward` with a given reward model (one fitted on the
  /// same log, whose `predictions` cover its rows).
  ///
  /// - Complexity: O(decisions).
  /// - Throws: `TuningError` when the log fails `checkConsistency()`, or `inconsistentLog`
  ///   when the model's predictions do not cover the log's rows.
  package init(_ decisions: LoggedDecisions, reward: Reward, rewardModel: RewardModel)
    throws(TuningError)
  {
    try decisions.checkConsistency()
    guard rewardModel.predictions.count == decisions.rows else {
      throw TuningError(
        .inconsistentLog,
        "the reward model predicts \(rewardModel.predictions.count) rows of \(decisions.rows)")
    }
    self.decisions = decisions
    self.reward = reward
    self.rewardModel = rewardModel
    let rewards = reward.values(decisions)
    self.rewards = rewards
    self.measured = (0..<decisions.count).filter { rewards[$0] != nil }
  }

  /// The estimate of the app's policy under `preferences` (only their weights matter; the
  /// policy kind is the log's, and its temperature the log's times `temperatureFactor`).
  ///
  /// - Complexity: O(rows).
  /// - Parameters:
  ///   - preferences: the target's preferences.
  ///   - estimator: the estimator (DR by default).
  ///   - clipping: the threshold λ > 0 on the importance weights, or nil for none.
  ///   - parameter: for Switch-DR and DRos, the index of τ or λ in their grid
  ///     (`EstimatorSums.parameters`); nil: chosen by SLOPE on these decisions.
  ///   - temperatureFactor: the target's softmax temperature against the log's (1: the same).
  /// - Returns: the estimate, its per-decision terms and diagnostics.
  package func estimate(
    _ preferences: UserPreferences, estimator: Estimator = .dr, clipping: Double? = nil,
    parameter: Int? = nil, temperatureFactor: Double = 1
  ) -> PolicyEstimate {
    estimate(
      TargetPolicy.evaluate(decisions, preferences, temperatureFactor: temperatureFactor),
      estimator: estimator, clipping: clipping, parameter: parameter)
  }

  /// The estimate of a target given by its probabilities on the log's rows (from
  /// `TargetPolicy.evaluate` or a faster kernel that computes the same).
  ///
  /// - Complexity: O(rows).
  /// - Parameters:
  ///   - target: the target's probability per row and likeliest row per decision.
  ///   - estimator: the estimator (DR by default).
  ///   - clipping: the threshold λ > 0 on the importance weights, or nil for none.
  ///   - parameter: for Switch-DR and DRos, the index of τ or λ in their grid; nil: chosen by
  ///     SLOPE on these decisions, each candidate's width its one-sided 95% bound's distance
  ///     from its value (the spread of the decisions' influences).
  /// - Returns: the estimate, its per-decision terms and diagnostics.
  package func estimate(
    _ target: TargetProbabilities, estimator: Estimator = .dr, clipping: Double? = nil,
    parameter: Int? = nil
  ) -> PolicyEstimate {
    precondition(
      target.probabilities.count == decisions.rows && target.likeliest.count == decisions.count,
      "the target's probabilities must cover the log")
    precondition(clipping.map { $0 > 0 } ?? true, "a clipping threshold must be > 0")
    let n = measured.count

    // Per decision used: the unclipped weight, the reward, the model's value of the target's
    // choice and of the logged choice.
    var rawWeights = [Double](repeating: 0, count: n)
    var rewardValues = [Double](repeating: 0, count: n)
    var modelValues = [Double](repeating: 0, count: n)
    var modelChosen = [Double](repeating: 0, count: n)
    var agreements = 0
    let q = rewardModel.predictions
    for (i, d) in measured.enumerated() {
      let rows = decisions.rows(of: d)
      let chosenRow = rows.lowerBound + decisions.chosen[d]
      rawWeights[i] = target.probabilities[chosenRow] / decisions.propensity[chosenRow]
      rewardValues[i] = rewards[d]!
      var value = 0.0
      for r in rows { value += target.probabilities[r] * q[r] }
      modelValues[i] = value
      modelChosen[i] = q[chosenRow]
      if target.likeliest[d] == decisions.chosen[d] { agreements += 1 }
    }

    func clipped(_ threshold: Double?) -> [Double] {
      guard let threshold else { return rawWeights }
      return rawWeights.map { min($0, threshold) }
    }
    // Per decision used, its terms with the weights w, slot by slot (`EstimatorSums`, with
    // the parameter grid).
    func slots(_ w: [Double]) -> [[Double]] {
      var slots = [[Double]](repeating: [], count: EstimatorSums.stride(grid: true))
      slots[EstimatorSums.measured] = .init(repeating: 1, count: n)
      slots[EstimatorSums.weightedReward] = (0..<n).map { w[$0] * rewardValues[$0] }
      slots[EstimatorSums.weight] = w
      slots[EstimatorSums.direct] = modelValues
      let residual = (0..<n).map { rewardValues[$0] - modelChosen[$0] }
      slots[EstimatorSums.doublyRobust] = (0..<n).map { modelValues[$0] + w[$0] * residual[$0] }
      for (k, tau) in EstimatorSums.switchThresholds.enumerated() {
        slots[EstimatorSums.switched(k)] = (0..<n).map {
          modelValues[$0] + (w[$0] <= tau ? w[$0] : 0) * residual[$0]
        }
      }
      for (k, lambda) in EstimatorSums.shrinkages.enumerated() {
        slots[EstimatorSums.shrunk(k)] = (0..<n).map {
          modelValues[$0] + lambda * w[$0] / (w[$0] * w[$0] + lambda) * residual[$0]
        }
      }
      return slots
    }
    func value(_ form: EstimatorForm, _ slots: [[Double]]) -> Double? {
      n == 0 ? nil : form.value { slots[$0].reduce(0, +) }
    }

    let weights = clipped(clipping)
    let terms = slots(weights)
    let form =
      parameter.map { EstimatorForm(estimator, parameter: $0) }
      ?? Self.chooseForm(estimator, terms: terms, decisions: n)
    let table = Self.clippingThresholds.map { threshold -> ClippingRow in
      let w = slots(clipped(threshold))
      return ClippingRow(
        threshold: threshold, ips: value(EstimatorForm(.ips), w),
        dr: value(EstimatorForm(.dr), w))
    }
    let sum = weights.reduce(0, +)
    let sumOfSquares = weights.reduce(0) { $0 + $1 * $1 }
    let diagnostics = EstimateDiagnostics(
      decisions: n, leftOut: decisions.count - n,
      effectiveSampleSize: sumOfSquares > 0 ? sum * sum / sumOfSquares : 0,
      largestWeight: rawWeights.max() ?? 0,
      clippedDecisions: clipping.map { c in rawWeights.filter { $0 > c }.count } ?? 0,
      agreementShare: n == 0 ? 0 : Double(agreements) / Double(n), clippingTable: table)
    return PolicyEstimate(
      estimator: estimator, reward: reward, clipping: clipping, value: value(form, terms),
      decisions: measured, form: form, terms: terms, weights: weights, diagnostics: diagnostics)
  }

  /// The form of `estimator` on per-decision `terms`: for Switch-DR and DRos, the grid's value
  /// SLOPE chooses, each candidate's width 1.645 times its standard error from the decisions'
  /// influences; the estimator's one form otherwise.
  static func chooseForm(_ estimator: Estimator, terms: [[Double]], decisions n: Int)
    -> EstimatorForm
  {
    guard estimator.isTuned, n > 1 else { return EstimatorForm(estimator) }
    let totals = terms.map { $0.reduce(0, +) }
    let index = SLOPE.parameter(estimator, z: NormalDistribution.quantile(1 - SLOPE.delta)) {
      form in
      var squares = 0.0
      for i in 0..<n {
        let influence = form.influence({ terms[$0][i] }, total: { totals[$0] })
        squares += influence * influence
      }
      return (form.value { totals[$0] }, (squares * Double(n) / Double(n - 1)).squareRoot())
    }
    return EstimatorForm(estimator, parameter: index)
  }
}
