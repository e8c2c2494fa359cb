/// The seed's familiarity: "play count normalized to [0, 1]".
///
/// Chosen once (`docs/brain.md`, the scorer's component 3): plays divided by the most plays of
/// any song in the library, capped at 1; 0 when nothing in the library has been played. The
/// scorer's boost under high stress or focus is applied on top of this, in `SongScorer`.
package enum Familiarity {
  /// min(1, plays / most plays in the library), 0 … 1; 0 when `maxPlayCount` ≤ 0.
  package static func score(playCount: Int, maxPlayCount: Int) -> Double {
    guard maxPlayCount > 0 else { return 0 }
    return min(1, Double(max(0, playCount)) / Double(maxPlayCount))
  }
}
