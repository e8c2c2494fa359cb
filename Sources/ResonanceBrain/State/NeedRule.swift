import ResonanceModel

/// How stress is read from HRV, and which need a context and stress imply — the part of the
/// seed's state engine that the decision engine depends on.
package enum NeedRule {
  /// The seed's population HRV baseline, in ms.
  package static let populationHRVMs = 50.0
  /// Above this stress (SDNN below about 31 ms) the need is calm, whatever the context.
  package static let calmStressThreshold = 0.8

  /// Stress as an inverse ratio to the 50 ms baseline: 0.5 × 50 / HRV, clamped to 0 … 1
  /// (HRV 50 ms → 0.5, 25 ms → 1, 100 ms → 0.25).
  package static func stress(hrvMs: Double) -> Double {
    guard hrvMs > 0, hrvMs.isFinite else { return 1 }
    return max(0, min(1, 0.5 * populationHRVMs / hrvMs))
  }

  /// The HRV a stress stands for, inverting `stress(hrvMs:)`: 0.5 × 50 / stress, in ms; nil
  /// for a stress of 0 or less. A stress clamped at 1 reads as 25 ms, whatever lay below.
  package static func hrv(stress: Double) -> Double? {
    stress > 0 ? 0.5 * populationHRVMs / stress : nil
  }

  /// The need: calm under high stress; otherwise by context (workout and wake-up → energy,
  /// deep work → focus, pre-sleep and relax → calm, commute and general → mood lift).
  package static func need(context: ActivityContext, stress: Double) -> Need {
    if stress > calmStressThreshold { return .calm }
    switch context {
    case .workout, .wakeUp: return .energy
    case .deepWork: return .focus
    case .preSleep, .relax: return .calm
    case .commute, .general: return .moodLift
    }
  }
}
