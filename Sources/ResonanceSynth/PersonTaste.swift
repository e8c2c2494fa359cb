import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the person's appeal holds besides the seven components (`docs/synth.md`, "Person
/// kinds"). Zero strengths switch a trait off; `app-model` and `null` have none.
package struct PersonTraits: Sendable, Equatable, Codable {
  /// Appeal a song loses when its recent plays weigh fully on it (`satiation`).
  package var satiation: Double = 0
  /// Days over which one play's weight fades by a factor e.
  package var satiationDays: Double = 0
  /// Change of each of the seven weights per 30 days (`drift`); zeros for none.
  package var driftPerMonth: ScoringWeights = ScoringWeights(vector: Array(repeating: 0, count: 7))
  /// Standard deviation of the appeal added per artist (`hidden-feature`).
  package var artistAffinitySpread: Double = 0
  /// Appeal per standard deviation of each song's latent trait (`hidden-feature`).
  package var latentTraitWeight: Double = 0
  /// Whether skips, the share heard and the response ignore which song was chosen (`flat`).
  package var isFlat = false

  package init() {}
}

/// How a seed's taste is drawn, and what a song is worth to the person at a moment.
package enum PersonTaste {
  /// Spread of each weight's draw around the app's, before `--taste-contrast`.
  static let weightSD = 0.12
  /// Spread of each weight's change per 30 days under drift, before `--taste-contrast`.
  static let driftSD = 0.03
  /// The satiation trait: appeal lost at full weight, and the fading time in days.
  static let satiationStrength = 0.10
  static let satiationDays = 2.0
  /// The hidden-feature trait: the artist affinity's spread and the latent trait's weight.
  static let artistAffinitySpread = 0.05
  static let latentTraitWeight = 0.05

  /// The person's first-day weights and traits for `kind`: weights drawn as
  /// clamp(app + contrast · 0.12 · z, 0, 1) per component (z standard normal, stream
  /// `taste`), except `null`, whose weights are the app's; `mixed` takes each of satiation,
  /// drift and hidden features with probability ½ (stream `taste-kind`).
  static func draw(seed: UInt64, kind: SynthConfiguration.PersonKind, contrast: Double)
    -> (weights: ScoringWeights, traits: PersonTraits)
  {
    var rng = SplitMix64(seed: seed, stream: "taste")
    let app = ScoringWeights.appDefault.vector
    let drawn = app.map { max(0, min(1, $0 + contrast * weightSD * rng.normal())) }
    let drift = (0..<7).map { _ in contrast * driftSD * rng.normal() }
    var mix = SplitMix64(seed: seed, stream: "taste-kind")
    let mixed = (satiation: mix.chance(0.5), drift: mix.chance(0.5), hidden: mix.chance(0.5))
    var traits = PersonTraits()
    let has: (satiation: Bool, drift: Bool, hidden: Bool) =
      switch kind {
      case .mixed: mixed
      case .satiation: (true, false, false)
      case .drift: (false, true, false)
      case .hiddenFeature: (false, false, true)
      case .appModel, .null, .flat: (false, false, false)
      }
    if has.satiation {
      traits.satiation = satiationStrength
      traits.satiationDays = satiationDays
    }
    if has.drift { traits.driftPerMonth = ScoringWeights(vector: drift) }
    if has.hidden {
      traits.artistAffinitySpread = artistAffinitySpread
      traits.latentTraitWeight = latentTraitWeight
    }
    traits.isFlat = kind == .flat
    return (kind == .null ? .appDefault : ScoringWeights(vector: drawn), traits)
  }

  /// Each song's hidden appeal: its artist's affinity plus its latent trait, each drawn for
  /// every seed (stream `hidden-taste`) and scaled by the traits (zero without them).
  static func hiddenAppeal(_ songs: [SynthSong], seed: UInt64, traits: PersonTraits) -> [Double] {
    var rng = SplitMix64(seed: seed, stream: "hidden-taste")
    var affinity: [String: Double] = [:]
    for artist in Set(songs.map(\.artist)).sorted() { affinity[artist] = rng.normal() }
    return songs.map {
      traits.artistAffinitySpread * (affinity[$0.artist] ?? 0) + traits.latentTraitWeight
        * rng.normal()
    }
  }

  /// The weights on the `day`-th day after the first: the first day's plus the drift, each
  /// kept in 0 … 1.
  static func weights(_ person: SynthPerson, daysIn days: Double) -> ScoringWeights {
    let months = days / 30
    return ScoringWeights(
      vector: zip(person.preferences.vector, person.traits.driftPerMonth.vector).map {
        max(0, min(1, $0 + months * $1))
      })
  }
}

/// How much a song's recent plays weigh on it: each play adds 1, fading by e every
/// `satiationDays` (`PersonTraits.satiation`). Kept lazily: a load and when it was last set.
struct SatiationLoad {
  private var load: [Double]
  private var at: [Int64]
  private let fadeMs: Double

  init(songs: Int, days: Double) {
    load = Array(repeating: 0, count: songs)
    at = Array(repeating: 0, count: songs)
    fadeMs = max(1, days) * 86_400_000
  }

  /// The weight on `song` at `t`.
  func value(_ song: Int, at t: Int64) -> Double {
    load[song] * exp(-Double(t - at[song]) / fadeMs)
  }

  /// A play of `song` at `t`.
  mutating func played(_ song: Int, at t: Int64) {
    load[song] = value(song, at: t) + 1
    at[song] = t
  }
}
