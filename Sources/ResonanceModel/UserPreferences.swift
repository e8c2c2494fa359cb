/// What the DJ's settings screen holds (the seed's `UserPreferences`): the five ranking weights
/// and the strengths of the two fixed penalty terms, the time-of-day rules, the behaviour
/// rules, and the logging policy. The app's shipped values are `appDefault`; a preference file
/// (`docs/formats.md`) carries a tuned set, and the decision log (version 2) records the set in
/// force so that every decision can be replayed exactly.
///
/// Keys are the seed's where it names them (`bpmWeight` …), camel case, as the app decodes
/// them; `docs/brain.md` gives every formula that reads them.
package struct UserPreferences: Sendable, Equatable, Hashable, Codable {
  // Ranking weights (the seed's names): how strongly each match counts.
  package var bpmWeight: Double
  package var energyWeight: Double
  package var familiarityWeight: Double
  package var historicalWeight: Double
  package var contextWeight: Double
  /// How strongly a recently played song is penalised (0 turns the penalty off).
  package var recencyPenaltyWeight: Double
  /// How strongly a song over the hour's BPM cap is penalised.
  package var timeOfDayPenaltyWeight: Double

  // Time-of-day rules.
  /// Songs faster than this are penalised in the morning, bpm.
  package var morningBPMCap: Double
  /// The morning, local hours: from `morningStartHour` up to `morningEndHour`.
  package var morningStartHour: Double
  package var morningEndHour: Double
  /// Songs faster than this are penalised at night, bpm.
  package var nightBPMCap: Double
  /// The night, local hours: from `nightStartHour` past midnight up to `nightEndHour`.
  package var nightStartHour: Double
  package var nightEndHour: Double

  // Behaviour.
  /// How long a played song keeps a recency penalty, minutes (the penalty decays linearly to
  /// zero over it): the seed's configurable avoidance window.
  package var recencyWindowMinutes: Double
  /// A song played less than this many minutes ago is not played again (a guard filter).
  package var repeatBlockMinutes: Double
  /// At most this many of the last `sameArtistWindow` plays may share a candidate's artist.
  package var sameArtistLimit: Int
  package var sameArtistWindow: Int
  /// At night nothing faster than this plays at all (a guard filter), bpm.
  package var nightHardCapBPM: Double

  // Logging policy: how a choice is made from the scores, with its probabilities logged.
  package var policy: LoggingPolicy

  package init(
    bpmWeight: Double, energyWeight: Double, familiarityWeight: Double,
    historicalWeight: Double, contextWeight: Double, recencyPenaltyWeight: Double,
    timeOfDayPenaltyWeight: Double, morningBPMCap: Double = 120, morningStartHour: Double = 5,
    morningEndHour: Double = 9, nightBPMCap: Double = 95, nightStartHour: Double = 22,
    nightEndHour: Double = 5, recencyWindowMinutes: Double = 240, repeatBlockMinutes: Double = 60,
    sameArtistLimit: Int = 0, sameArtistWindow: Int = 3, nightHardCapBPM: Double = 110,
    policy: LoggingPolicy = LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0)
  ) {
    self.bpmWeight = bpmWeight
    self.energyWeight = energyWeight
    self.familiarityWeight = familiarityWeight
    self.historicalWeight = historicalWeight
    self.contextWeight = contextWeight
    self.recencyPenaltyWeight = recencyPenaltyWeight
    self.timeOfDayPenaltyWeight = timeOfDayPenaltyWeight
    self.morningBPMCap = morningBPMCap
    self.morningStartHour = morningStartHour
    self.morningEndHour = morningEndHour
    self.nightBPMCap = nightBPMCap
    self.nightStartHour = nightStartHour
    self.nightEndHour = nightEndHour
    self.recencyWindowMinutes = recencyWindowMinutes
    self.repeatBlockMinutes = repeatBlockMinutes
    self.sameArtistLimit = sameArtistLimit
    self.sameArtistWindow = sameArtistWindow
    self.nightHardCapBPM = nightHardCapBPM
    self.policy = policy
  }

  /// The app's shipped settings: the five weights sum to 1; softmax logging at 0.05.
  package static let appDefault = UserPreferences(
    bpmWeight: 0.25, energyWeight: 0.25, familiarityWeight: 0.15, historicalWeight: 0.20,
    contextWeight: 0.15, recencyPenaltyWeight: 0.30, timeOfDayPenaltyWeight: 0.20)

  /// The seven component weights, in the documented order.
  package var weights: ScoringWeights {
    get {
      ScoringWeights(
        bpm: bpmWeight, energy: energyWeight, familiarity: familiarityWeight,
        historical: historicalWeight, context: contextWeight, recency: recencyPenaltyWeight,
        timeOfDay: timeOfDayPenaltyWeight)
    }
    set {
      bpmWeight = newValue.bpm
      energyWeight = newValue.energy
      familiarityWeight = newValue.familiarity
      historicalWeight = newValue.historical
      contextWeight = newValue.context
      recencyPenaltyWeight = newValue.recency
      timeOfDayPenaltyWeight = newValue.timeOfDay
    }
  }

  /// These preferences with other weights, everything else kept.
  package func with(weights: ScoringWeights) -> UserPreferences {
    var copy = self
    copy.weights = weights
    return copy
  }
}

/// How the DJ chooses from its scored candidates, with the chance it gave each logged so that
/// offline evaluation has support for the alternatives.
package struct LoggingPolicy: Sendable, Equatable, Hashable, Codable {
  package enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// The highest score, the first of equals.
    case greedy
    /// Probability ∝ exp(score / temperature).
    case softmax
    /// The best with probability 1 − ε, otherwise any admitted candidate alike.
    case epsilonGreedy = "epsilon-greedy"
  }

  package var kind: Kind
  /// The softmax temperature (unused by the other kinds).
  package var temperature: Double
  /// The ε of ε-greedy (unused by the other kinds).
  package var epsilon: Double

  package init(kind: Kind, temperature: Double, epsilon: Double) {
    self.kind = kind
    self.temperature = temperature
    self.epsilon = epsilon
  }
}

/// What the DJ's real-time adjuster (`RealTimeGuardAdjuster`) holds during a session: a BPM
/// ceiling lowered while heart rate rises in a calm-need session, and a boost to familiarity
/// after consecutive skips. The decision log (version 2) records it on every decision.
package struct AdjusterState: Sendable, Equatable, Hashable, Codable {
  /// Heart rate when the session began, bpm; nil when none was measured.
  package var baselineHeartRate: Double?
  /// Candidates faster than this are not played, bpm; nil for no ceiling.
  package var bpmCeiling: Double?
  /// Skips in a row, up to the last play.
  package var consecutiveSkips: Int
  /// The factor on the familiarity weight, 1 … 1.5.
  package var familiarityBoost: Double

  package init(
    baselineHeartRate: Double? = nil, bpmCeiling: Double? = nil, consecutiveSkips: Int = 0,
    familiarityBoost: Double = 1
  ) {
    self.baselineHeartRate = baselineHeartRate
    self.bpmCeiling = bpmCeiling
    self.consecutiveSkips = consecutiveSkips
    self.familiarityBoost = familiarityBoost
  }
}

extension UserPreferences {
  /// A setting outside the range the DJ can run with: its key path in the file's keys
  /// (`policy.temperature`), the range in words, and the value found.
  package struct OutOfRange: Sendable, Equatable {
    package var keyPath: [String]
    package var expected: String
    package var found: String
  }

  /// The first setting outside its range (`docs/formats.md`, "Preference file"), or nil:
  /// weights finite and ≥ 0; BPM caps in (0, 400]; hours in [0, 24); minutes in [0, 525,600]
  /// (a year); the artist rule's counts in [0, 100]; the policy's temperature in (0, 100] when
  /// it is softmax, its ε in [0, 1] when it is ε-greedy.
  package var firstOutOfRange: OutOfRange? {
    func check(_ key: String, _ value: Double, _ expected: String, _ ok: (Double) -> Bool)
      -> OutOfRange?
    {
      ok(value) ? nil : OutOfRange(keyPath: [key], expected: expected, found: "\(value)")
    }
    let weights: [(String, Double)] = [
      ("bpmWeight", bpmWeight), ("energyWeight", energyWeight),
      ("familiarityWeight", familiarityWeight), ("historicalWeight", historicalWeight),
      ("contextWeight", contextWeight), ("recencyPenaltyWeight", recencyPenaltyWeight),
      ("timeOfDayPenaltyWeight", timeOfDayPenaltyWeight),
    ]
    let caps = [
      ("morningBPMCap", morningBPMCap), ("nightBPMCap", nightBPMCap),
      ("nightHardCapBPM", nightHardCapBPM),
    ]
    let hours = [
      ("morningStartHour", morningStartHour), ("morningEndHour", morningEndHour),
      ("nightStartHour", nightStartHour), ("nightEndHour", nightEndHour),
    ]
    let minutes = [
      ("recencyWindowMinutes", recencyWindowMinutes), ("repeatBlockMinutes", repeatBlockMinutes),
    ]
    let checks: [OutOfRange?] =
      weights.map { check($0, $1, "a finite number ≥ 0") { $0 >= 0 && $0.isFinite } }
      + caps.map { check($0, $1, "beats per minute in (0, 400]") { $0 > 0 && $0 <= 400 } }
      + hours.map { check($0, $1, "an hour in [0, 24)") { $0 >= 0 && $0 < 24 } }
      + minutes.map { check($0, $1, "minutes in [0, 525600]") { $0 >= 0 && $0 <= 525_600 } }
      + [("sameArtistLimit", sameArtistLimit), ("sameArtistWindow", sameArtistWindow)].map {
        check($0, Double($1), "a whole number in [0, 100]") { $0 >= 0 && $0 <= 100 }
      }
    if let first = checks.lazy.compactMap({ $0 }).first { return first }
    switch policy.kind {
    case .softmax:
      return check("temperature", policy.temperature, "a temperature in (0, 100] for softmax") {
        $0 > 0 && $0 <= 100
      }.map { OutOfRange(keyPath: ["policy"] + $0.keyPath, expected: $0.expected, found: $0.found) }
    case .epsilonGreedy:
      return check("epsilon", policy.epsilon, "an ε in [0, 1] for epsilon-greedy") {
        $0 >= 0 && $0 <= 1
      }.map { OutOfRange(keyPath: ["policy"] + $0.keyPath, expected: $0.expected, found: $0.found) }
    case .greedy: return nil
    }
  }
}
