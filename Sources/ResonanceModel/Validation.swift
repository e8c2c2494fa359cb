/// A target a validation figure is judged against: at least, at most, or within a range.
///
/// `docs/validation.md` sets the goals; the named constants below are the ones it sets.
///
/// ```swift
/// Goal.rankCorrelation.isMet(by: 0.91)   // true: 0.91 ≥ 0.8
/// Goal.intervalCoverage.isMet(by: 0.73)  // false: outside 0.85–0.95
/// ```
package enum Goal: Sendable, Equatable, Hashable {
  /// The figure must be at least this.
  case atLeast(Double)
  /// The figure must be at most this.
  case atMost(Double)
  /// The figure must lie in this range, both ends included.
  case within(ClosedRange<Double>)

  /// Spearman's correlation ≥ 0.8: the breathing rankings, and the song-effect ranking where
  /// that goal applies.
  package static let rankCorrelation = Goal.atLeast(0.8)
  /// The largest breathing-rate error of the sessions that followed the pacer throughout,
  /// ≤ 0.5 breaths/min.
  package static let breathingRateError = Goal.atMost(0.5)
  /// The share of 90% intervals that cover the planted song effect, 0.85–0.95.
  package static let intervalCoverage = Goal.within(0.85...0.95)

  /// Whether `figure` meets the goal.
  ///
  /// A figure that could not be computed (`nil`) meets an upper bound — nothing exceeded it
  /// (no session followed the pacer, say) — and misses a lower bound or a range, which nothing
  /// reached. NaN meets no goal.
  package func isMet(by figure: Double?) -> Bool {
    switch self {
    case .atLeast(let bound): figure.map { $0 >= bound } ?? false
    case .atMost(let bound): figure.map { $0 <= bound } ?? true
    case .within(let range): figure.map { range.contains($0) } ?? false
    }
  }
}

/// One figure beside its goal, and whether it meets it.
package struct GoalCheck: Sendable, Equatable {
  /// What the figure must reach.
  package var goal: Goal
  /// The figure, `nil` when there was too little to compute it.
  package var figure: Double?

  /// Makes a check of `figure` against `goal`.
  package init(_ goal: Goal, _ figure: Double?) {
    self.goal = goal
    self.figure = figure
  }

  /// Whether the figure meets the goal (`Goal.isMet(by:)`).
  package var isMet: Bool { goal.isMet(by: figure) }
}

/// What `resonance validate` judges a simulated person's truth against: the analyses' results
/// as the store holds them, each list in the store's order.
package struct ValidationInputs: Sendable {
  /// One breathing session's analysis, with the session number its recording carries (the
  /// number `truth.json`'s `breathing` entries use).
  package struct BreathingSession: Sendable, Equatable {
    /// The session number in the recording's header, from 1.
    package var session: Int
    /// What the breathing analysis measured in it.
    package var result: BreathingResult

    /// Makes one session's entry.
    package init(session: Int, result: BreathingResult) {
      self.session = session
      self.result = result
    }
  }

  /// Each imported breathing session's analysis, in import order.
  package var breathing: [BreathingSession]
  /// Every song-effect estimate of both signals (`song_effect_estimates`).
  package var effectEstimates: [SongEffectEstimate]
  /// Each song's Apple Music catalog id, by song id: how a stored song is found in the truth.
  package var catalogIDs: [Int64: String]
  /// Every play inside a reconstructed session, in start order.
  package var plays: [SessionPlay]
  /// Every song's feature estimates (`song_features`).
  package var features: [SongFeatureEstimate]
  /// Breathing practice against HRV, as `breathing.md` states it; nil when not loaded.
  package var practice: PracticeEffects?
  /// The normal range and sustained change of each daily signal, as `hrv.md` states them.
  package var baselines: [SignalBaseline] = []
  /// Heart-rate readings, in time order (only their times are used).
  package var heartRate: [SignalReading]
  /// HRV readings, in time order (only their times are used).
  package var hrv: [SignalReading]

  /// Makes the inputs; every list defaults to empty.
  package init(
    breathing: [BreathingSession] = [], effectEstimates: [SongEffectEstimate] = [],
    catalogIDs: [Int64: String] = [:], plays: [SessionPlay] = [],
    features: [SongFeatureEstimate] = [], heartRate: [SignalReading] = [],
    hrv: [SignalReading] = []
  ) {
    self.breathing = breathing
    self.effectEstimates = effectEstimates
    self.catalogIDs = catalogIDs
    self.plays = plays
    self.features = features
    self.heartRate = heartRate
    self.hrv = hrv
  }

  /// The readings of `signal`, in time order.
  package func readings(_ signal: Signal) -> [SignalReading] {
    switch signal {
    case .heartRate: heartRate
    case .hrv: hrv
    }
  }
}

/// The breathing analysis against the planted adherence and breathing rates.
package struct BreathingValidation: Sendable, Equatable {
  /// Sessions found both in the store and in the truth.
  package var sessions: Int
  /// Spearman's correlation of the Resonance Score with the planted adherence.
  package var spearmanScore: Double?
  /// Spearman's correlation of the phase-locking value with the planted adherence.
  package var spearmanPhaseLocking: Double?
  /// Sessions that followed the pacer throughout (planted adherence ≥ 0.999) and have a
  /// measured breathing rate.
  package var followedSessions: Int
  /// The largest |measured − planted| breathing rate among them, breaths/min; `nil` when none.
  package var maxRateError: Double?
  /// What each Spearman correlation must reach.
  package var rankingGoal: Goal
  /// What the largest rate error must stay within.
  package var rateErrorGoal: Goal

  /// Makes the figures; the goals default to `docs/validation.md`'s.
  package init(
    sessions: Int, spearmanScore: Double?, spearmanPhaseLocking: Double?, followedSessions: Int,
    maxRateError: Double?, rankingGoal: Goal = .rankCorrelation,
    rateErrorGoal: Goal = .breathingRateError
  ) {
    self.sessions = sessions
    self.spearmanScore = spearmanScore
    self.spearmanPhaseLocking = spearmanPhaseLocking
    self.followedSessions = followedSessions
    self.maxRateError = maxRateError
    self.rankingGoal = rankingGoal
    self.rateErrorGoal = rateErrorGoal
  }

  /// The Resonance Score's ranking against its goal.
  package var scoreCheck: GoalCheck { GoalCheck(rankingGoal, spearmanScore) }
  /// The phase-locking value's ranking against its goal.
  package var phaseLockingCheck: GoalCheck { GoalCheck(rankingGoal, spearmanPhaseLocking) }
  /// The largest rate error against its goal.
  package var rateErrorCheck: GoalCheck { GoalCheck(rateErrorGoal, maxRateError) }
  /// Every breathing goal, in the order the report lists them.
  package var goals: [GoalCheck] { [scoreCheck, phaseLockingCheck, rateErrorCheck] }
  /// Whether every breathing goal is met.
  package var isMet: Bool { goals.allSatisfy(\.isMet) }
}

/// How often session reconstruction gave a play the context it was lived in.
package struct ContextValidation: Sendable, Equatable {
  /// Plays of one lived context read as another, and how many.
  package struct Confusion: Sendable, Equatable {
    /// The context the play was lived in (`sessions` in truth.json).
    package var lived: ActivityContext
    /// The context of the session reconstruction put it in.
    package var reconstructed: ActivityContext
    /// How many plays.
    package var plays: Int

    /// Makes one confusion.
    package init(lived: ActivityContext, reconstructed: ActivityContext, plays: Int) {
      self.lived = lived
      self.reconstructed = reconstructed
      self.plays = plays
    }
  }

  /// Plays in a reconstructed session that start inside a lived one.
  package var plays: Int
  /// Those whose reconstructed context is the lived one.
  package var agreeing: Int
  /// Every disagreement, most plays first (ties: by lived, then reconstructed context name).
  package var confusions: [Confusion]

  /// Makes the figures.
  package init(plays: Int, agreeing: Int, confusions: [Confusion]) {
    self.plays = plays
    self.agreeing = agreeing
    self.confusions = confusions
  }

  /// `agreeing / plays`, 0…1; 0 when there are no plays.
  package var share: Double { plays > 0 ? Double(agreeing) / Double(plays) : 0 }
}

/// One signal's song-effect estimates against the planted effects.
package struct EffectValidation: Sendable, Equatable {
  /// The signal the effects are on.
  package var signal: Signal
  /// The simulator's multiplier of the planted effects (`--effect-scale`).
  package var effectScale: Double
  /// Songs with an estimate and a planted effect.
  package var songs: Int
  /// Those whose 90% interval covers the truth they are judged against.
  package var covered: Int
  /// Those whose 90% interval leaves out zero (the average song).
  package var distinguishable: Int
  /// Of those, how many have the sign of the truth they are judged against.
  package var distinguishableRightSign: Int
  /// Songs with at least 8 plays, over which the Spearman correlation is taken.
  package var songsWithEightPlays: Int
  /// Spearman's correlation of their estimates with the planted effects; `nil` under 3 songs.
  package var spearman: Double?
  /// What the interval coverage must lie within.
  package var coverageGoal: Goal
  /// What the Spearman correlation must reach, where a goal applies (`nil`: none at this
  /// effect scale).
  package var spearmanGoal: Goal?

  /// Makes the figures; the coverage goal defaults to `docs/validation.md`'s.
  package init(
    signal: Signal, effectScale: Double, songs: Int, covered: Int, distinguishable: Int,
    distinguishableRightSign: Int, songsWithEightPlays: Int, spearman: Double?,
    coverageGoal: Goal = .intervalCoverage, spearmanGoal: Goal?
  ) {
    self.signal = signal
    self.effectScale = effectScale
    self.songs = songs
    self.covered = covered
    self.distinguishable = distinguishable
    self.distinguishableRightSign = distinguishableRightSign
    self.songsWithEightPlays = songsWithEightPlays
    self.spearman = spearman
    self.coverageGoal = coverageGoal
    self.spearmanGoal = spearmanGoal
  }

  /// `covered / songs`, 0…1; `nil` without songs.
  package var coverage: Double? { songs > 0 ? Double(covered) / Double(songs) : nil }
  /// The interval coverage against its goal.
  package var coverageCheck: GoalCheck { GoalCheck(coverageGoal, coverage) }
  /// The Spearman correlation against its goal, where one applies.
  package var spearmanCheck: GoalCheck? { spearmanGoal.map { GoalCheck($0, spearman) } }
  /// Every goal that applies, coverage first.
  package var goals: [GoalCheck] { [coverageCheck] + (spearmanCheck.map { [$0] } ?? []) }
}

/// One song feature's estimates against the planted values, by where each estimate came from.
package struct FeatureValidation: Sendable, Equatable {
  /// The features the simulator plants and the analysis estimates.
  package enum Feature: String, CaseIterable, Sendable, Hashable {
    /// Tempo, beats per minute.
    case bpm
    /// Energy, 0…1.
    case energy
    /// Valence, 0…1.
    case valence
  }

  /// The estimates of one source.
  package struct SourceFigures: Sendable, Equatable {
    /// Where the estimates came from.
    package var source: FeatureSource
    /// Songs with such an estimate and a planted value.
    package var songs: Int
    /// Mean |estimate − planted|, in the feature's unit.
    package var meanAbsoluteError: Double
    /// Songs whose planted value lies within the estimate ± 1.645 sd.
    package var covered: Int

    /// Makes one source's figures.
    package init(source: FeatureSource, songs: Int, meanAbsoluteError: Double, covered: Int) {
      self.source = source
      self.songs = songs
      self.meanAbsoluteError = meanAbsoluteError
      self.covered = covered
    }

    /// `covered / songs`, 0…1 (there is at least one song).
    package var coverage: Double { Double(covered) / Double(songs) }
  }

  /// The feature.
  package var feature: Feature
  /// One entry per source that has estimates, in order of the source's name.
  package var bySource: [SourceFigures]

  /// Makes the figures.
  package init(feature: Feature, bySource: [SourceFigures]) {
    self.feature = feature
    self.bySource = bySource
  }
}

/// How well the analyses recover what a simulated person planted: each part the store had
/// something for, with the goals that apply to it.
package struct ValidationReport: Sendable, Equatable {
  /// The breathing analysis; `nil` when no stored session is in the truth.
  package var breathing: BreathingValidation?
  /// The reconstructed contexts; `nil` when no play falls in a lived session.
  package var contexts: ContextValidation?
  /// One entry per signal with matched estimates, heart rate first.
  package var effects: [EffectValidation]
  /// One entry per feature with matched estimates, in `Feature.allCases` order.
  package var features: [FeatureValidation]
  /// The one-step truth of a preference file (`validate --preferences`); nil without one.
  package var tuning: OneStepTruth?
  /// Breathing practice's effects; nil when the truth planted none or no session matched.
  package var practice: PracticeValidation?
  /// The sustained-change rule; nil when the store had no daily values.
  package var changes: ChangeValidation?

  /// Makes a report.
  package init(
    breathing: BreathingValidation? = nil, contexts: ContextValidation? = nil,
    effects: [EffectValidation] = [], features: [FeatureValidation] = [],
    tuning: OneStepTruth? = nil, practice: PracticeValidation? = nil,
    changes: ChangeValidation? = nil
  ) {
    self.breathing = breathing
    self.contexts = contexts
    self.effects = effects
    self.features = features
    self.tuning = tuning
    self.practice = practice
    self.changes = changes
  }

  /// Whether nothing in the store matched the truth: no breathing, song-effect, feature or
  /// one-step figures (contexts alone do not make a report).
  package var isEmpty: Bool {
    breathing == nil && effects.isEmpty && features.isEmpty && tuning == nil
  }

  /// Every goal that applies, in report order.
  package var goals: [GoalCheck] {
    (breathing?.goals ?? []) + effects.flatMap(\.goals)
  }

  /// Whether some goal is missed (`validate` then exits 1).
  package var hasMissedGoal: Bool { goals.contains { !$0.isMet } }
}

/// The true value of preferences on the logged decisions, one step at a time: the mean over
/// decisions of Σ_a π(a | x_d) · E[r | a, x_d], with π the app's policy under the preferences
/// at the log's temperature and E[r | a, x_d] what `resonance synth` planted for candidate a
/// (`decisions-truth.jsonl.gz`).
package struct OneStepTruth: Sendable, Equatable {
  /// The reward judged (the preference file's).
  package var reward: Reward
  /// Decisions averaged over.
  package var decisions: Int
  /// The value of the preferences the decisions were logged under (their logged
  /// propensities), and of the file's.
  package var inForce: Double
  package var preferences: Double
  /// Per estimator, the gain it estimates from the log alone on the same decisions (reward
  /// models cross-fitted by month over them): what the truth judges each estimator by.
  package var estimatedGains: [Estimator: Double]
  /// With `--best-point`: the design point of greatest one-step value, each point made as
  /// greedy as the preferences in force on the decisions, as `resonance tune` makes them.
  package var bestPoint: BestPoint?

  /// The point of tune's design with the greatest true one-step value.
  package struct BestPoint: Sendable, Equatable {
    /// Its weights, after the greediness match.
    package var weights: ScoringWeights
    /// Its one-step value.
    package var value: Double
    /// The design's points searched.
    package var points: Int

    package init(weights: ScoringWeights, value: Double, points: Int) {
      self.weights = weights
      self.value = value
      self.points = points
    }
  }

  package init(
    reward: Reward, decisions: Int, inForce: Double, preferences: Double,
    estimatedGains: [Estimator: Double] = [:], bestPoint: BestPoint? = nil
  ) {
    self.reward = reward
    self.decisions = decisions
    self.inForce = inForce
    self.preferences = preferences
    self.estimatedGains = estimatedGains
    self.bestPoint = bestPoint
  }

  /// What the file's preferences gain over those in force.
  package var gain: Double { preferences - inForce }
}
