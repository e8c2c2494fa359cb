import ResonanceModel

/// The pacer app's Resonance Score, exactly as the app computes it (`../shared/seeds/`):
///
/// 1. a breath event at every pacer transition into Inhale or Exhale (holds create none);
/// 2. each event's window runs from its transition to the next pacer transition of any phase
///    (the last one to the end of the waveform);
/// 3. the event matches when the waveform at the window's end minus the waveform at its start
///    is more than 15% of the session's global range (max − min) for an Inhale, or less than
///    −15% of it for an Exhale;
/// 4. score = matched ÷ total × 100.
///
/// "The waveform at" a time is the last sample at or before it (the app reads its buffered
/// trace); a window that starts before the first sample reads the first.
package struct ResonanceScore: Sendable, Equatable {
  /// One breath event and whether the chest followed it.
  package struct Event: Sendable, Equatable {
    package var start: Double
    package var end: Double
    package var phase: BreathingRecording.Phase
    package var change: Double
    package var matched: Bool
  }

  /// The share of the global range a window's change must exceed.
  package static let threshold = 0.15

  package var events: [Event]
  package var matched: Int { events.filter(\.matched).count }
  /// 0 … 100; `nil` when there is no breath event or no waveform.
  package var score: Double?

  package init(
    pacer: [BreathingRecording.PacerEvent], trace: [BreathingRecording.Sample]
  ) {
    events = []
    guard !trace.isEmpty else { return }
    let values = trace.map(\.value)
    let range = (values.max() ?? 0) - (values.min() ?? 0)
    let end = trace.last?.t ?? 0
    for (i, transition) in pacer.enumerated() where transition.phase != .hold {
      let windowEnd = i + 1 < pacer.count ? pacer[i + 1].t : end
      let change =
        ResonanceScore.value(at: windowEnd, in: trace)
        - ResonanceScore.value(at: transition.t, in: trace)
      let matched =
        transition.phase == .inhale
        ? change > ResonanceScore.threshold * range : change < -ResonanceScore.threshold * range
      events.append(
        Event(
          start: transition.t, end: windowEnd, phase: transition.phase, change: change,
          matched: matched))
    }
    score =
      events.isEmpty ? nil : 100 * Double(events.filter(\.matched).count) / Double(events.count)
  }

  /// The last sample at or before `t` (binary search); the first sample before the trace starts.
  static func value(at t: Double, in trace: [BreathingRecording.Sample]) -> Double {
    let after = trace.partitioningIndex { $0.t > t }
    return trace[max(after - 1, 0)].value
  }
}
