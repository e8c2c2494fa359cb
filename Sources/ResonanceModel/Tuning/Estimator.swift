/// An off-policy estimator of a target policy's mean reward per decision. The raw values are
/// the spellings of `--estimator` and of every output that names the estimator.
///
/// With w_d = π_target(chosen_d) / propensity(chosen_d) (min(w_d, λ) when clipped at λ), r_d
/// the decision's reward, q̂ the cross-fitted reward model (ResonanceTuning's `RewardModel`)
/// and n the decisions with the reward measured:
/// - `ips`: Σ w_d·r_d / n — unbiased with full support, high variance;
/// - `snips`: Σ w_d·r_d / Σ w_d — self-normalised: slightly biased, much steadier;
/// - `dm`: Σ_d Σ_r π_target(r)·q̂(r) / n — the reward model alone: steady, as biased as the
///   model is wrong;
/// - `dr` (the default): Σ_d [Σ_r π_target(r)·q̂(r) + w_d·(r_d − q̂(chosen_d))] / n — right if
///   either the propensities or the model are (Dudík, Langford & Li 2011);
/// - `sndr`: the direct method's mean plus Σ_d w_d·(r_d − q̂(chosen_d)) / Σ_d w_d — DR with its
///   correction self-normalised, as SNIPS is;
/// - `switch-dr`: DR whose correction is dropped where w_d > τ (Wang, Agarwal & Dudík 2017):
///   the direct method alone where the weights are heavy;
/// - `dros`: DR whose weight is shrunk to λ·w_d / (w_d² + λ) (Su et al. 2020), from w_d when λ
///   is large to 0 (the direct method) as λ falls.
///
/// τ and λ are chosen from a fixed grid, the largest (∞: DR itself) first, by SLOPE on the
/// data the estimate is made from, or, in `resonance tune`, on the months a choice is made on
/// (`docs/tuning.md`, "Estimators").
package enum Estimator: String, CaseIterable, Sendable, Codable {
  /// Inverse propensity scoring.
  case ips
  /// Self-normalised inverse propensity scoring.
  case snips
  /// The direct method (the reward model alone).
  case dm
  /// Doubly robust: the direct method corrected by the weighted residual of the chosen row.
  case dr
  /// Self-normalised doubly robust: the correction divided by Σw, not n.
  case sndr
  /// Switch doubly robust: DR where the weight is at most τ, the direct method above it.
  case switchDR = "switch-dr"
  /// Doubly robust with shrinkage (DRos): DR with each weight shrunk towards 0 by λ.
  case dros

  /// Whether the estimator has a parameter (τ or λ) chosen by SLOPE.
  package var isTuned: Bool { self == .switchDR || self == .dros }
}
