/// What offline evaluation counts as a good outcome of a decision: each is a number per
/// decision, on 0 … 1, or nil where it was not measured (such decisions are left out of that
/// reward's estimate, and the estimate says how many it used). The raw values are the
/// spellings of `--reward` and of every output that names the reward.
///
/// - `keep`: 1 when the chosen song was kept (not skipped), else 0. Always measured.
/// - `listenShare`: the share of the chosen song heard, clamped to 0 … 1; nil when not finite.
/// - `response`: the physiological response toward the need on the session-quality HRV scale,
///   `responseScore(Δ)` = clamp(0.5 + Δ / 20, 0, 1), Δ in the signal's units with the sign
///   that means better (ms of SDNN for calm, bpm of heart rate for energy): +10 → 1, 0 → 0.5,
///   −10 → 0. Where some responses went unmeasured, every decision's is the missing-response
///   model's doubly robust value instead (ResonanceTuning's `MissingResponses`); nil only where
///   that model has nothing to go on.
/// - `sessionQuality`: the seed's quality of the session the decision was in; nil when none
///   or not finite.
/// - `composite` (the default):
///   `composite = 0.4·kept + 0.3·share + 0.3·responseScore(response)`, with kept 1 or 0,
///   share the share heard clamped to 0 … 1, and responseScore as above (modelled where
///   missing). A share or response still missing (nil or not finite) is left out and the
///   remaining weights renormalised to sum to 1: without the response, (0.4·kept + 0.3·share)
///   / 0.7; without both, kept. Always measured.
///
/// ResonanceTuning computes each reward from a decision's outcome.
package enum Reward: String, CaseIterable, Sendable, Codable {
  /// 1 kept, 0 skipped.
  case keep
  /// The share of the song heard, 0 … 1.
  case listenShare = "listen-share"
  /// The physiological response's score, 0 … 1 (`responseScore`).
  case response
  /// The session's quality, 0 … 1.
  case sessionQuality = "session-quality"
  /// 0.4·kept + 0.3·share + 0.3·responseScore, renormalised over what was measured.
  case composite
}
