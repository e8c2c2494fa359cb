import ResonanceModel

/// One row of the clipping sensitivity table: the IPS and DR estimates with the importance
/// weights clipped at one threshold.
package struct ClippingRow: Sendable, Equatable {
  /// The clipping threshold λ (weights above it count as λ); nil: no clipping.
  package var threshold: Double?
  /// The IPS estimate with that clipping; nil when no decision has the reward measured.
  package var ips: Double?
  /// The DR estimate with that clipping; nil when no decision has the reward measured.
  package var dr: Double?

  /// A table row for `threshold` (nil: unclipped).
  package init(threshold: Double?, ips: Double?, dr: Double?) {
    self.threshold = threshold
    self.ips = ips
    self.dr = dr
  }
}

/// How far an estimate can be trusted: how much the target's importance weights concentrate
/// on a few decisions, how often the target agrees with the logged choice, and how much the
/// estimate moves when large weights are clipped.
package struct EstimateDiagnostics: Sendable, Equatable {
  /// Decisions with the reward measured: the ones the estimate uses.
  package var decisions: Int
  /// Decisions left out because the reward was not measured.
  package var leftOut: Int
  /// (Σw)² / Σw² over the decisions used, with the weights the estimate used (clipped when
  /// it clips): n when the target is the logging policy, falling as the weights concentrate;
  /// 0 when every weight is 0.
  package var effectiveSampleSize: Double
  /// The largest importance weight before clipping; 0 with no decision.
  package var largestWeight: Double
  /// Decisions whose weight the clipping threshold lowered (0 without clipping).
  package var clippedDecisions: Int
  /// The share of decisions used, 0 … 1, where the target's likeliest row is the logged
  /// choice (0 with no decision).
  package var agreementShare: Double
  /// The IPS and DR estimates unclipped and clipped at each of
  /// `OffPolicyEvaluator.clippingThresholds` (none, 100, 20, 10, 5), in that order.
  package var clippingTable: [ClippingRow]

  /// Diagnostics from their parts, as described on each property.
  package init(
    decisions: Int, leftOut: Int, effectiveSampleSize: Double, largestWeight: Double,
    clippedDecisions: Int, agreementShare: Double, clippingTable: [ClippingRow]
  ) {
    self.decisions = decisions
    self.leftOut = leftOut
    self.effectiveSampleSize = effectiveSampleSize
    self.largestWeight = largestWeight
    self.clippedDecisions = clippedDecisions
    self.agreementShare = agreementShare
    self.clippingTable = clippingTable
  }

  /// Whether the effective sample size is below a tenth of the decisions used: the target
  /// leans on a few decisions, and IPS-type estimates of it are unreliable.
  package var isEffectiveSampleSizeLow: Bool {
    effectiveSampleSize < 0.1 * Double(decisions)
  }
}

/// A target policy's estimated mean reward per decision, with the per-decision terms behind it
/// (so a caller can sum them by day or week, paired against another estimate on the same log)
/// and its diagnostics.
///
/// Every estimator is a sum of ratios of sums over the decisions used (`form` over `terms`,
/// laid out as `EstimatorSums`' slots). A resample of the decisions (with repeats) estimates
/// the same way: `value(over:)`. To bootstrap whole days, group the positions of `decisions`
/// by the local day of `LoggedDecisions.time`; two estimates of one reward from one evaluator
/// list the same decisions in the same order, so one resample of positions pairs them (a
/// candidate against the preferences in force).
package struct PolicyEstimate: Sendable, Equatable {
  /// The estimator used.
  package var estimator: Estimator
  /// The reward estimated.
  package var reward: Reward
  /// The clipping threshold λ on the importance weights; nil for none.
  package var clipping: Double?
  /// The estimated mean reward per decision (the reward's scale, 0 … 1 for every `Reward`);
  /// nil when no decision has the reward measured, or a denominator (SNIPS's, SNDR's Σw) is 0.
  package var value: Double?
  /// The decisions used (those with the reward measured), as indices into the log, in order.
  package var decisions: [Int]
  /// How the estimate is made from `terms`, with the parameter (τ, λ) it used.
  package var form: EstimatorForm
  /// Per slot of `form` (`EstimatorSums`' layout), per decision used: the decision's term.
  package var terms: [[Double]]
  /// Per decision used: the importance weight, clipped when the estimate clips (DM reports it
  /// without using it).
  package var weights: [Double]
  /// How far the estimate can be trusted.
  package var diagnostics: EstimateDiagnostics

  /// An estimate from its parts, as described on each property.
  package init(
    estimator: Estimator, reward: Reward, clipping: Double?, value: Double?, decisions: [Int],
    form: EstimatorForm, terms: [[Double]], weights: [Double], diagnostics: EstimateDiagnostics
  ) {
    self.estimator = estimator
    self.reward = reward
    self.clipping = clipping
    self.value = value
    self.decisions = decisions
    self.form = form
    self.terms = terms
    self.weights = weights
    self.diagnostics = diagnostics
  }

  /// Per decision used: its contribution, Σ parts (numerator − less) × n / Σ denominator,
  /// whose mean is `value` (for the estimators divided by n simply the numerator); empty when
  /// `value` is nil.
  package var contributions: [Double] {
    let n = decisions.count
    var contributions = [Double](repeating: 0, count: n)
    for part in form.parts {
      let total = terms[part.denominator].reduce(0, +)
      guard total != 0 else { return [] }
      let scale = Double(n) / total
      for i in 0..<n {
        contributions[i] +=
          (terms[part.numerator][i] - (part.less.map { terms[$0][i] } ?? 0)) * scale
      }
    }
    return contributions
  }

  /// The estimate over a resample: `form` over the sums of `positions` (indices into
  /// `decisions`, repeats allowed); nil when a denominator sums to 0.
  ///
  /// - Complexity: O(positions × slots of the form).
  package func value(over positions: some Sequence<Int>) -> Double? {
    var sums = [Double](repeating: 0, count: terms.count)
    let slots = Set(
      form.parts.flatMap { [$0.numerator, $0.denominator] + ($0.less.map { [$0] } ?? []) })
    for i in positions {
      for slot in slots { sums[slot] += terms[slot][i] }
    }
    return form.value { sums[$0] }
  }
}
