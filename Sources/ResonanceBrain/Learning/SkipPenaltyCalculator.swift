/// The seed's two-tier skip penalty.
///
/// An early skip (less than 15% of the song heard) costs −0.3, a late one (15–30%) −0.15; a
/// skip after 30% costs nothing. A listen that was not marked as skipped but ended before 30%
/// without reaching the song's natural end is treated as a skip too (the seed's auto-detection
/// of non-manual skips).
package enum SkipPenaltyCalculator {
  package static let earlyThreshold = 0.15
  package static let lateThreshold = 0.30
  package static let earlyPenalty = -0.3
  package static let latePenalty = -0.15

  /// Whether a listen counts as a skip for learning.
  ///
  /// - Parameters:
  ///   - listenFraction: share of the song heard, 0 … 1.
  ///   - markedSkipped: the source marked it as skipped.
  ///   - reachedEnd: the source says it played to its natural end.
  package static func isSkip(listenFraction: Double, markedSkipped: Bool, reachedEnd: Bool) -> Bool
  {
    markedSkipped || (!reachedEnd && listenFraction < lateThreshold)
  }

  /// The penalty for a listen: −0.3, −0.15 or 0.
  package static func penalty(listenFraction: Double, markedSkipped: Bool, reachedEnd: Bool)
    -> Double
  {
    guard
      isSkip(listenFraction: listenFraction, markedSkipped: markedSkipped, reachedEnd: reachedEnd)
    else { return 0 }
    if listenFraction < earlyThreshold { return earlyPenalty }
    if listenFraction < lateThreshold { return latePenalty }
    return 0
  }
}
