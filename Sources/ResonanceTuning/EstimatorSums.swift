import ResonanceModel

/// The layout of the sums every estimator of one reward is a ratio of: five slots, one reward's
/// after the other's, `stride` apart. The sweep kernel adds each decision's terms to them
/// (`SweepTotals`, per point and group), `Tuner` reads them back for its paired gains, and
/// `OffPolicyEvaluator` lays out its per-decision terms the same way.
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
///
/// Each estimator is then the ratio of a numerator slot to a denominator slot
/// (`numerator(_:)`, `denominator(_:)`): IPS w·R / measured, SNIPS w·R / w, DM direct /
/// measured, DR doublyRobust / measured.
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
  /// Slots a reward: from one reward's `measured` to the next's.
  @inline(__always) package static var stride: Int { 5 }

  /// The slot `estimator` divides.
  @inline(__always) package static func numerator(_ estimator: Estimator) -> Int {
    switch estimator {
    case .ips, .snips: weightedReward
    case .dm: direct
    case .dr: doublyRobust
    }
  }

  /// The slot `estimator` divides by.
  @inline(__always) package static func denominator(_ estimator: Estimator) -> Int {
    switch estimator {
    case .snips: weight
    case .ips, .dm, .dr: measured
    }
  }
}
