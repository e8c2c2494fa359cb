/// The activity a person is in while listening, as the seed app's context cascade infers it.
package enum ActivityContext: String, CaseIterable, Sendable, Codable, Hashable {
  case workout
  case deepWork = "deep-work"
  case commute
  case preSleep = "pre-sleep"
  case wakeUp = "wake-up"
  case relax
  case general
}

/// What the state engine says the person needs right now.
package enum Need: String, CaseIterable, Sendable, Codable, Hashable {
  case energy
  case calm
  case focus
  case moodLift = "mood-lift"
}

/// A song's audio features: tempo, and energy and valence on 0…1.
package struct SongFeatures: Sendable, Equatable, Codable, Hashable {
  /// Tempo in beats per minute.
  package var bpm: Double
  /// Intensity, 0 (still) … 1 (intense).
  package var energy: Double
  /// Musical positivity, 0 (sad) … 1 (happy).
  package var valence: Double

  package init(bpm: Double, energy: Double, valence: Double) {
    self.bpm = bpm
    self.energy = energy
    self.valence = valence
  }
}

/// One number for each of the seven scoring components, in the documented order: the app's
/// five tunable matches (BPM, energy, familiarity, historical effect, context) and the two
/// fixed terms (recency penalty, time of day). `docs/brain.md` gives every component's formula.
///
/// `Role` tells what the numbers are — `ScoringWeights` (how strongly each component counts)
/// or `ScoringComponents` (one candidate's values, each in 0 … 1) — so the two cannot be
/// mixed up, while their seven fields are written once.
package struct ScoringVector<Role: ScoringRole>: Sendable, Equatable, Codable, Hashable {
  package var bpm: Double
  package var energy: Double
  package var familiarity: Double
  package var historical: Double
  package var context: Double
  package var recency: Double
  package var timeOfDay: Double

  package init(
    bpm: Double, energy: Double, familiarity: Double, historical: Double, context: Double,
    recency: Double, timeOfDay: Double
  ) {
    self.bpm = bpm
    self.energy = energy
    self.familiarity = familiarity
    self.historical = historical
    self.context = context
    self.recency = recency
    self.timeOfDay = timeOfDay
  }

  /// The seven numbers in the documented component order.
  package var vector: [Double] {
    [bpm, energy, familiarity, historical, context, recency, timeOfDay]
  }

  /// Builds the vector from seven numbers in the documented component order.
  package init(vector: [Double]) {
    precondition(vector.count == 7, "seven scoring components")
    self.init(
      bpm: vector[0], energy: vector[1], familiarity: vector[2], historical: vector[3],
      context: vector[4], recency: vector[5], timeOfDay: vector[6])
  }

  /// The component names in vector order, as logs and reports spell them.
  package static var componentNames: [String] {
    ["bpm", "energy", "familiarity", "historical", "context", "recency", "time_of_day"]
  }
}

/// What a `ScoringVector`'s numbers are.
package protocol ScoringRole: Sendable, Hashable {}
/// The numbers are weights.
package enum WeightRole: ScoringRole {}
/// The numbers are one candidate's component values.
package enum ComponentRole: ScoringRole {}

/// The strengths of the seven scoring components. The first five reward a match; the last two
/// are penalties, subtracted from the score.
package typealias ScoringWeights = ScoringVector<WeightRole>

/// The seven component values of one candidate at one moment, each in 0 … 1. The first five
/// are matches (higher is better); `recency` and `timeOfDay` are penalties (higher is worse),
/// subtracted with their weights.
package typealias ScoringComponents = ScoringVector<ComponentRole>

extension ScoringVector where Role == WeightRole {
  /// The app's shipped defaults (the five tunable weights sum to 1).
  package static let appDefault = ScoringWeights(
    bpm: 0.25, energy: 0.25, familiarity: 0.15, historical: 0.20, context: 0.15,
    recency: 0.30, timeOfDay: 0.20)
}
