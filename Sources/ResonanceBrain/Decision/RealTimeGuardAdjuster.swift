import ResonanceModel

/// `RealTimeGuardAdjuster` (the seed's `Brain/`): watches heart rate and skips during a session
/// and adjusts the guards as it goes (`docs/brain.md`, "Real-time adjuster").
///
/// - **BPM ceiling.** In a calm-need decision, when heart rate has risen at least
///   `riseThresholdBPM` (5 bpm) above the session's first reading, candidates faster than
///   `max(68, 98 − 3 × (rise − 5))` bpm are not played: 98 bpm at a 5 bpm rise, 83 at 10, the
///   calm target of 68 from 15. The ceiling only comes down within a session.
/// - **Familiarity after skips.** After two skips in a row the familiarity weight counts 1.25
///   times, after three or more 1.5 times; a kept song resets it.
package enum RealTimeGuardAdjuster {
  /// The rise over the session's first heart rate at which the ceiling comes in, bpm.
  package static let riseThresholdBPM = 5.0
  /// The ceiling at that rise, bpm, and how much it falls per bpm of further rise.
  package static let firstCeilingBPM = 98.0
  package static let ceilingFallPerBPM = 3.0
  /// The familiarity boost per skip in a row beyond the first, and its cap.
  package static let boostPerSkip = 0.25
  package static let maximumBoost = 1.5

  /// A new session's state, with its first heart-rate reading (nil when none).
  package static func start(heartRate: Double?) -> AdjusterState {
    AdjusterState(baselineHeartRate: heartRate)
  }

  /// The state a decision is made with: the ceiling lowered when heart rate has risen in a
  /// calm-need decision.
  package static func beforeDecision(
    _ state: AdjusterState, need: Need, heartRate: Double?
  ) -> AdjusterState {
    guard need == .calm, let baseline = state.baselineHeartRate, let heartRate else {
      return state
    }
    let rise = heartRate - baseline
    guard rise >= riseThresholdBPM else { return state }
    let ceiling = max(
      SongScorer.targetBPM(for: .calm),
      firstCeilingBPM - ceilingFallPerBPM * (rise - riseThresholdBPM))
    var next = state
    next.bpmCeiling = min(state.bpmCeiling ?? .infinity, ceiling)
    return next
  }

  /// The state after a play: skips in a row counted, the familiarity boost set from them.
  package static func afterPlay(_ state: AdjusterState, skipped: Bool) -> AdjusterState {
    var next = state
    next.consecutiveSkips = skipped ? state.consecutiveSkips + 1 : 0
    next.familiarityBoost = min(
      maximumBoost, 1 + boostPerSkip * Double(max(0, next.consecutiveSkips - 1)))
    return next
  }
}
