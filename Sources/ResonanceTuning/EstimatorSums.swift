import ResonanceModel

/// The layout of the sums every estimator of one reward is made of: `baseStride` slots, and
/// with the parameter grid (`stride(grid:)`) one more slot per finite switch threshold and per
/// finite shrinkage, one reward's after the other's. The sweep kernel adds each decision's
/// terms to them (`SweepTotals`, per point and group), `Tuner` reads them back for its paired
/// gains, and `OffPolicyEvaluator` lays out its per-decision terms the same way.
///
/// Over the decisions with the reward R measured, with w the target's importance weight, π its
/// probabilities and q̂ the reward model's predictions:
///
/// | slot | holds |
/// |---|---|
/// | `measured` | 1 a decision: how many have the reward measured |
/// | `weightedReward` | w·R |
/// | `weight` | w |
/// | `direct` | Σ_r π(r)·q̂(r), the direct method's term |
/// | `doublyRobust` | the direct method's term + w·(R − q̂(chosen)) |
/// | `switched(k)` | the direct method's term + (w ≤ τ_k ? w : 0)·(R − q̂(chosen)) |
/// | `shrunk(k)` | the direct method's term + λ_k·w / (w² + λ_k)·(R − q̂(chosen)) |
///
/// Each estimator is then a sum of ratios of slots (`EstimatorForm`).
///
/// The slots are constants the compiler folds into the kernel's addressing.
package enum EstimatorSums {
  /// Decisions with the reward measured (1 each).
  @inline(__always) package static var measured: Int { 0 }
  /// The importance-weighted reward, w·R.
  @inline(__always) package static var weightedReward: Int { 1 }
  /// The importance weight w, over the decisions with the reward measured.
  @inline(__always) package static var weight: Int { 2 }
  /// The direct method's term, the reward model's value of the target's choice.
  @inline(__always) package static var direct: Int { 3 }
  /// The doubly robust term: the direct method's plus w·(R − q̂(chosen)).
  @inline(__always) package static var doublyRobust: Int { 4 }
  /// Slots a reward without the parameter grid.
  @inline(__always) package static var baseStride: Int { 5 }

  /// Switch-DR's finite thresholds τ, largest first (∞, DR itself, comes before them).
  package static let switchThresholds: [Double] = [50, 20, 10, 5, 2]
  /// DRos's finite shrinkages λ, largest first (∞, DR itself, comes before them).
  package static let shrinkages: [Double] = [100, 20, 5, 1, 0.25]

  /// The slot of Switch-DR's term at `switchThresholds[k]`.
  @inline(__always) package static func switched(_ k: Int) -> Int { baseStride + k }
  /// The slot of DRos's term at `shrinkages[k]`.
  @inline(__always) package static func shrunk(_ k: Int) -> Int {
    baseStride + switchThresholds.count + k
  }

  /// Slots a reward: from one reward's `measured` to the next's, with or without the grid.
  @inline(__always) package static func stride(grid: Bool) -> Int {
    grid ? baseStride + switchThresholds.count + shrinkages.count : baseStride
  }

  /// An estimator's parameter grid, ∞ (no switching or shrinkage: DR) first; empty for the
  /// estimators without a parameter.
  package static func parameters(_ estimator: Estimator) -> [Double] {
    switch estimator {
    case .switchDR: [.infinity] + switchThresholds
    case .dros: [.infinity] + shrinkages
    case .ips, .snips, .dm, .dr, .sndr: []
    }
  }
}

/// How an estimator is computed from the sums of `EstimatorSums`' slots: the sum of its
/// parts, each a ratio (Σ numerator − Σ less) / Σ denominator.
///
/// Every estimator but SNDR is one ratio (IPS w·R / measured, SNIPS w·R / w, DM direct /
/// measured, DR doublyRobust / measured, Switch-DR and DRos their slot / measured); SNDR is
/// direct / measured + (doublyRobust − direct) / w.
package struct EstimatorForm: Sendable, Hashable {
  /// One ratio of slot sums.
  package struct Part: Sendable, Hashable {
    package var numerator: Int
    package var less: Int?
    package var denominator: Int
  }

  /// The ratios added.
  package var parts: [Part]
  /// The parameter (τ or λ) the form uses; nil for the estimators without one.
  package var parameter: Double?

  /// One ratio, Σ numerator / Σ denominator.
  package static func ratio(_ numerator: Int, _ denominator: Int) -> EstimatorForm {
    EstimatorForm(parts: [Part(numerator: numerator, less: nil, denominator: denominator)])
  }

  /// The form of `estimator`, at the `index`-th value of its parameter grid
  /// (`EstimatorSums.parameters`; 0, ∞, is DR itself) for Switch-DR and DRos.
  package init(_ estimator: Estimator, parameter index: Int = 0) {
    let m = EstimatorSums.measured
    switch estimator {
    case .ips: self = .ratio(EstimatorSums.weightedReward, m)
    case .snips: self = .ratio(EstimatorSums.weightedReward, EstimatorSums.weight)
    case .dm: self = .ratio(EstimatorSums.direct, m)
    case .dr: self = .ratio(EstimatorSums.doublyRobust, m)
    case .sndr:
      self.init(parts: [
        Part(numerator: EstimatorSums.direct, less: nil, denominator: m),
        Part(
          numerator: EstimatorSums.doublyRobust, less: EstimatorSums.direct,
          denominator: EstimatorSums.weight),
      ])
    case .switchDR, .dros:
      let grid = EstimatorSums.parameters(estimator)
      precondition(grid.indices.contains(index), "a parameter index within the grid")
      let slot =
        index == 0
        ? EstimatorSums.doublyRobust
        : estimator == .switchDR
          ? EstimatorSums.switched(index - 1) : EstimatorSums.shrunk(index - 1)
      self = .ratio(slot, m)
      parameter = grid[index]
    }
  }

  private init(parts: [Part], parameter: Double? = nil) {
    self.parts = parts
    self.parameter = parameter
  }

  /// The estimate from the slots' sums (`sum(slot)`); nil when a denominator is 0.
  package func value(_ sum: (Int) -> Double) -> Double? {
    var value = 0.0
    for part in parts {
      let denominator = sum(part.denominator)
      guard denominator != 0 else { return nil }
      value += (sum(part.numerator) - (part.less.map(sum) ?? 0)) / denominator
    }
    return value
  }

  /// One unit's (a day's, a decision's) first-order contribution to the estimate's error, from
  /// its slot values (`unit`) and the totals (`total`): Σ parts (N_u − V_p·D_u) / D, whose
  /// spread over the units gives the estimate's standard error (the delta method for a sum of
  /// ratios). 0 when a denominator is 0.
  package func influence(_ unit: (Int) -> Double, total: (Int) -> Double) -> Double {
    var influence = 0.0
    for part in parts {
      let denominator = total(part.denominator)
      guard denominator != 0 else { return 0 }
      let numerator = total(part.numerator) - (part.less.map(total) ?? 0)
      let own = unit(part.numerator) - (part.less.map(unit) ?? 0)
      influence += (own - numerator / denominator * unit(part.denominator)) / denominator
    }
    return influence
  }
}
