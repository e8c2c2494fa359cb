import ResonanceModel

/// The simulated person's hidden constants: physiology, habits and taste.
package struct SynthPerson: Sendable, Equatable, Codable {
  package var birthDate: String
  package var birthYear: Int
  /// Resting heart rate on the first day, BPM, and its drift over a year.
  package var restingHRStart: Double
  package var restingHRDriftPerYear: Double
  /// Awake, at-rest SDNN, ms.
  package var hrvBaseMs: Double
  /// The weights the person keeps or skips by (the same seven components the app scores).
  package var preferences: ScoringWeights
  /// Overall share of DJ picks the person skips.
  package var targetSkipShare: Double
  /// The names their devices carry.
  package var phoneName: String
  package var watchName: String

  package static func make(seed: UInt64, preferences: SynthConfiguration.Preferences) -> SynthPerson
  {
    var rng = SplitMix64(seed: seed, stream: "person")
    let own = ScoringWeights(
      bpm: 0.40, energy: 0.30, familiarity: 0.05, historical: 0.05, context: 0.20,
      recency: 0.10, timeOfDay: 0.30)
    return SynthPerson(
      birthDate: "1991-04-12", birthYear: 1991,
      restingHRStart: rng.normal(61, 2), restingHRDriftPerYear: -rng.uniform(1.5, 3.5),
      hrvBaseMs: rng.normal(46, 4),
      preferences: preferences == .app ? .appDefault : own,
      targetSkipShare: 0.42,
      phoneName: "Jane\u{2019}s iPhone", watchName: "Jane\u{2019}s Apple\u{00A0}Watch")
  }
}
