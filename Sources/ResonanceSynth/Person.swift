import ResonanceModel

/// The simulated person's hidden constants: physiology, habits and taste.
package struct SynthPerson: Sendable, Equatable {
  package var birthDate: String
  package var birthYear: Int
  /// Resting heart rate on the first day, BPM, and its drift over a year.
  package var restingHRStart: Double
  package var restingHRDriftPerYear: Double
  /// Awake, at-rest SDNN, ms.
  package var hrvBaseMs: Double
  /// How the person judges songs (`--person`); `mixed` is resolved into `traits`.
  package var kind: SynthConfiguration.PersonKind
  /// The weights the person keeps or skips by on the first day (the same seven components
  /// the app scores), drawn per seed (`PersonTaste.draw`).
  package var preferences: ScoringWeights
  /// What the person's appeal holds besides the seven components.
  package var traits: PersonTraits
  /// Overall share of DJ picks the person skips.
  package var targetSkipShare: Double
  /// The names their devices carry.
  package var phoneName: String
  package var watchName: String

  package static func make(
    seed: UInt64, kind: SynthConfiguration.PersonKind, tasteContrast: Double = 1
  ) -> SynthPerson {
    var rng = SplitMix64(seed: seed, stream: "person")
    let restingHR = rng.normal(61, 2)
    let drift = -rng.uniform(1.5, 3.5)
    let hrv = rng.normal(46, 4)
    let taste = PersonTaste.draw(seed: seed, kind: kind, contrast: tasteContrast)
    return SynthPerson(
      birthDate: "1991-04-12", birthYear: 1991,
      restingHRStart: restingHR, restingHRDriftPerYear: drift, hrvBaseMs: hrv, kind: kind,
      preferences: taste.weights, traits: taste.traits, targetSkipShare: 0.42,
      phoneName: "Jane\u{2019}s iPhone", watchName: "Jane\u{2019}s Apple\u{00A0}Watch")
  }
}
