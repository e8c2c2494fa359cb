import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PairwiseCheck {
  /// The pairwise learning-to-rank fit on the plays the person chose themselves
  /// (`PairwiseRanker`): within each of their sessions, every kept play against every skipped
  /// one, logistic on the difference of their components as `PlayComponents` rebuilds them.
  /// The plays are not a random sample of what was on offer (the person chose them), so the
  /// fit is biased toward what the person already plays: a cross-check beside the off-policy
  /// evidence, never evidence for a change. Nil when no session has both a kept and a skipped
  /// play.
  ///
  /// - Parameter recommended: the weights the fitted direction is compared with (cosine).
  package static func fit(
    plays: [RankingPlay], features: [Int64: SongFeatures], recommended: ScoringWeights
  ) -> PairwiseCheck? {
    let components = PlayComponents.reconstruct(plays, features: features)
    var outcomes = PlayOutcomes()
    var used = 0
    var sessionComponents: [ScoringComponents] = []
    var sessionKept: [Bool] = []
    var current: Int64?
    func flush() {
      if sessionKept.contains(true), sessionKept.contains(false) {
        outcomes.append(session: sessionComponents, kept: sessionKept)
        used += sessionKept.count
      }
      sessionComponents = []
      sessionKept = []
    }
    let manual = plays.indices.filter {
      !plays[$0].byDJ && plays[$0].session != nil && components[$0] != nil
    }.sorted { (plays[$0].session!, $0) < (plays[$1].session!, $1) }
    for i in manual {
      if plays[i].session != current {
        flush()
        current = plays[i].session
      }
      sessionComponents.append(components[i]!)
      sessionKept.append(!plays[i].skipped)
    }
    flush()
    guard outcomes.count > 0, let fit = try? PairwiseRanker.fit(outcomes) else { return nil }
    let a = fit.weights.vector
    let b = recommended.vector
    let dot = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
    let norms = sqrt(a.reduce(0) { $0 + $1 * $1 }) * sqrt(b.reduce(0) { $0 + $1 * $1 })
    return PairwiseCheck(
      plays: used, sessions: fit.sessions, pairs: fit.pairs, weights: fit.weights,
      pairwiseAccuracy: fit.pairwiseAccuracy,
      agreementWithRecommended: norms > 0 ? dot / norms : 0)
  }
}
