/// Maps what the body did during a song to credits: an HRV rise is calm credit, a heart-rate
/// rise is energy credit.
///
/// Each credit is the delta over its full-credit span, clamped to −1 … 1, times a confidence
/// (0.7 with no biometrics, 0.85 with heart rate only, 1.0 with heart rate and HRV), times the
/// share of the song heard.
package enum ResponseCreditCalculator {
  /// An HRV rise of this many ms earns full calm credit.
  package static let fullCalmDeltaMs = 10.0
  /// A heart-rate rise of this many BPM earns full energy credit.
  package static let fullEnergyDeltaBPM = 10.0

  /// The credits for one listen.
  package struct Credit: Sendable, Equatable {
    package var calm: Double
    package var energy: Double
    package var confidence: Double
  }

  /// Confidence from the biometrics available: 0.7, 0.85 or 1.0.
  package static func confidence(hasHeartRate: Bool, hasHRV: Bool) -> Double {
    0.7 + (hasHeartRate ? 0.15 : 0) + (hasHeartRate && hasHRV ? 0.15 : 0)
  }

  /// Credits for a listen with the given deltas (`nil` when not measured).
  package static func credit(hrvDeltaMs: Double?, hrDeltaBPM: Double?, listenFraction: Double)
    -> Credit
  {
    let share = max(0, min(1, listenFraction))
    let confidence = confidence(hasHeartRate: hrDeltaBPM != nil, hasHRV: hrvDeltaMs != nil)
    let calm = hrvDeltaMs.map { clamp($0 / fullCalmDeltaMs) } ?? 0
    let energy = hrDeltaBPM.map { clamp($0 / fullEnergyDeltaBPM) } ?? 0
    return Credit(
      calm: calm * confidence * share, energy: energy * confidence * share, confidence: confidence)
  }

  static func clamp(_ x: Double) -> Double { max(-1, min(1, x)) }
}
