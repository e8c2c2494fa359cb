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
///   either the propensities or the model are (Dudík, Langford & Li 2011).
package enum Estimator: String, CaseIterable, Sendable, Codable {
  /// Inverse propensity scoring.
  case ips
  /// Self-normalised inverse propensity scoring.
  case snips
  /// The direct method (the reward model alone).
  case dm
  /// Doubly robust: the direct method corrected by the weighted residual of the chosen row.
  case dr
}
