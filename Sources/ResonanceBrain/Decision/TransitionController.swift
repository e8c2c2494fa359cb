import ResonanceModel

/// Blends a song's base score with how smoothly it follows the previous song.
package enum TransitionController {
  /// Share of the final score that is the base score; the rest is transition smoothness.
  package static let baseShare = 0.7
  /// A tempo jump of this many BPM or more has no tempo continuity left.
  package static let bpmJumpLimit = 40.0

  /// Continuity from `previous` to `next`, 0 … 1: the mean of tempo continuity
  /// (1 − |ΔBPM| / 40, floored at 0) and energy continuity (1 − |Δenergy|).
  package static func smoothness(from previous: SongFeatures, to next: SongFeatures) -> Double {
    let tempo = max(0, 1 - abs(next.bpm - previous.bpm) / bpmJumpLimit)
    let energy = 1 - min(1, abs(next.energy - previous.energy))
    return (tempo + energy) / 2
  }

  /// 0.7 × base + 0.3 × smoothness; the base alone when nothing played before.
  package static func finalScore(base: Double, next: SongFeatures, previous: SongFeatures?)
    -> Double
  {
    guard let previous else { return base }
    return finalScore(base: base, smoothness: smoothness(from: previous, to: next))
  }

  /// 0.7 × base + 0.3 × smoothness, the blend once the smoothness is known (offline
  /// evaluation keeps each candidate's).
  package static func finalScore(base: Double, smoothness: Double) -> Double {
    baseShare * base + (1 - baseShare) * smoothness
  }
}
