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

/// The strengths of the seven scoring components: the app's five tunable weights and the two
/// fixed terms (recency penalty, time of day).
///
/// The first five reward a match; the last two are penalties, subtracted from the score.
/// `docs/brain.md` gives every component's formula.
package struct ScoringWeights: Sendable, Equatable, Codable, Hashable {
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

  /// The app's shipped defaults (the five tunable weights sum to 1).
  package static let appDefault = ScoringWeights(
    bpm: 0.25, energy: 0.25, familiarity: 0.15, historical: 0.20, context: 0.15,
    recency: 0.30, timeOfDay: 0.20)

  /// The seven weights in the documented component order.
  package var vector: [Double] {
    [bpm, energy, familiarity, historical, context, recency, timeOfDay]
  }

  /// Builds weights from seven values in the documented component order.
  package init(vector: [Double]) {
    precondition(vector.count == 7, "seven scoring weights")
    self.init(
      bpm: vector[0], energy: vector[1], familiarity: vector[2], historical: vector[3],
      context: vector[4], recency: vector[5], timeOfDay: vector[6])
  }

  /// The component names in vector order, as logs and reports spell them.
  package static let componentNames = [
    "bpm", "energy", "familiarity", "historical", "context", "recency", "time_of_day",
  ]
}
