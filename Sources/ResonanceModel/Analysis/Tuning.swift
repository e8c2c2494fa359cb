/// One preference vector of a sweep with what offline evaluation estimates for it
/// (`resonance sweep`, `docs/tuning.md`).
package struct SweepPoint: Sendable, Equatable, Codable {
  /// The point's place in the sweep (0 is the preferences in force).
  package var index: Int
  /// `in force` for the baseline; nil for a design point.
  package var label: String?
  package var weights: ScoringWeights
  /// The estimate of the chosen reward, and of the keep rate and the physiological response
  /// score (the Pareto front's two axes), by the chosen estimator; nil where nothing was
  /// measured.
  package var value: Double?
  package var keepRate: Double?
  package var response: Double?
  /// Effective sample size (Σw)²/Σw², the largest importance weight, and the share of
  /// decisions whose likeliest song under the point is the one logged.
  package var effectiveSampleSize: Double
  package var largestWeight: Double
  package var agreementShare: Double
  /// On the Pareto front of keep rate against response: no other point is at least as good
  /// on both and better on one.
  package var isPareto: Bool
  /// The value's 90% interval from a bootstrap over days (`sweep --intervals`); nil otherwise.
  package var lower: Double?
  package var upper: Double?

  package init(
    index: Int, label: String?, weights: ScoringWeights, value: Double?, keepRate: Double?,
    response: Double?, effectiveSampleSize: Double, largestWeight: Double,
    agreementShare: Double, isPareto: Bool = false
  ) {
    self.index = index
    self.label = label
    self.weights = weights
    self.value = value
    self.keepRate = keepRate
    self.response = response
    self.effectiveSampleSize = effectiveSampleSize
    self.largestWeight = largestWeight
    self.agreementShare = agreementShare
    self.isPareto = isPareto
  }
}

/// A whole sweep: what was evaluated, on what, and every point.
package struct SweepResult: Sendable, Equatable, Codable {
  /// The design the points came from.
  package var design: SweepDesign
  /// The reward the points' `value` estimates.
  package var reward: Reward
  /// The estimator of every point's figures.
  package var estimator: Estimator
  /// Decisions evaluated, and the local dates of the first and last.
  package var decisions: Int
  package var from: String?
  package var to: String?
  package var points: [SweepPoint]
  /// Seconds the fused kernel took.
  package var kernelSeconds: Double
  /// How the kernel computed its scores.
  package var product: SweepProduct
  /// Decisions whose chosen song's logged propensity was below the floor evaluation reads
  /// (`LoggedCandidate.propensityFloor`), read as it; nil when none. Not stored with the run.
  package var clippedPropensities: Int?

  /// A sweep from its parts, as described on each property.
  package init(
    design: SweepDesign, reward: Reward, estimator: Estimator, decisions: Int, from: String?,
    to: String?, points: [SweepPoint], kernelSeconds: Double, product: SweepProduct
  ) {
    self.design = design
    self.reward = reward
    self.estimator = estimator
    self.decisions = decisions
    self.from = from
    self.to = to
    self.points = points
    self.kernelSeconds = kernelSeconds
    self.product = product
  }
}

/// The replay check as reports show it.
package struct ReplaySummary: Sendable, Equatable, Codable {
  package var replayed: Int
  /// Decisions replayed per log version.
  package var byVersion: [Int: Int]
  /// Decisions that could not be replayed, by why.
  package var notReplayable: [String: Int]
  package var largestScoreDifference: Double
  package var largestPropensityRelativeDifference: Double
  /// The first decision that differs, in words; nil when all agreed.
  package var firstMismatch: String?

  package init(
    replayed: Int, byVersion: [Int: Int], notReplayable: [String: Int],
    largestScoreDifference: Double, largestPropensityRelativeDifference: Double,
    firstMismatch: String?
  ) {
    self.replayed = replayed
    self.byVersion = byVersion
    self.notReplayable = notReplayable
    self.largestScoreDifference = largestScoreDifference
    self.largestPropensityRelativeDifference = largestPropensityRelativeDifference
    self.firstMismatch = firstMismatch
  }
}

/// One forward-chaining fold: preferences chosen on the months before `month`, judged on it.
package struct TuningFold: Sendable, Equatable, Codable {
  package var month: String
  package var decisions: Int
  /// The chosen point's estimated gain on `month` over the preferences in force; nil when no
  /// point cleared the selection's rules.
  package var gain: Double?
  /// The weights chosen on the months before `month` (as evaluated: matched to the greediness
  /// of the preferences in force); nil when no point cleared the selection's rules. Runs stored
  /// by earlier builds have none.
  package var weights: ScoringWeights?
  /// Switch-DR's τ or DRos's λ, chosen with the weights by SLOPE on the months before
  /// `month`; nil for the other estimators, for ∞ (no switching or shrinkage: DR itself), and
  /// when no point cleared the rules.
  package var estimatorParameter: Double?
  /// For the temperature judged apart (`TemperatureTuning`): the chosen temperature against
  /// the one in force; nil for the weights' folds and when nothing cleared the rules.
  package var temperatureFactor: Double?

  package init(
    month: String, decisions: Int, gain: Double?, weights: ScoringWeights? = nil,
    estimatorParameter: Double? = nil, temperatureFactor: Double? = nil
  ) {
    self.month = month
    self.decisions = decisions
    self.gain = gain
    self.weights = weights
    self.estimatorParameter = estimatorParameter
    self.temperatureFactor = temperatureFactor
  }
}

/// The softmax temperature judged as its own dimension: the weights in force at other
/// temperatures, chosen and judged by the same forward chaining as the weights
/// (`docs/tuning.md`, "Greediness, judged apart").
package struct TemperatureTuning: Sendable, Equatable, Codable {
  /// The temperature in force, and the factors tried against it.
  package var inForce: Double
  package var factors: [Double]
  /// Per judged month, the factor chosen on the months before it and its gain there.
  package var folds: [TuningFold]
  /// The gain of choosing the temperature on the past, pooled over the judged months.
  package var forwardGain: TuningEvidence.Interval?
  /// The factor chosen on every month before the last, with its own interval and effective
  /// sample size on the last; nil when none cleared the rule there.
  package var candidateFactor: Double?
  package var heldOut: TuningEvidence.Interval?
  package var heldOutESS: Double?
  /// Whether it clears the weights' bar (the pooled lower end above the margin, its own above
  /// 0, enough support), and whether the preference file took it (`--tune-temperature`).
  package var claimed: Bool
  package var applied: Bool
  /// What it found, in words.
  package var reason: String

  package init(
    inForce: Double, factors: [Double], folds: [TuningFold] = [],
    forwardGain: TuningEvidence.Interval? = nil, candidateFactor: Double? = nil,
    heldOut: TuningEvidence.Interval? = nil, heldOutESS: Double? = nil, claimed: Bool = false,
    applied: Bool = false, reason: String = ""
  ) {
    self.inForce = inForce
    self.factors = factors
    self.folds = folds
    self.forwardGain = forwardGain
    self.candidateFactor = candidateFactor
    self.heldOut = heldOut
    self.heldOutESS = heldOutESS
    self.claimed = claimed
    self.applied = applied
    self.reason = reason
  }
}

/// What the last month says about the preferences chosen on the months before it.
package struct HeldOutEvidence: Sendable, Equatable, Codable {
  package var month: String
  package var decisions: Int
  /// The estimated reward of the preferences in force and of the chosen ones.
  package var inForceValue: Double
  package var chosenValue: Double
  /// The paired gain with its interval (day batches, Student's t).
  package var gain: TuningEvidence.Interval
  package var effectiveSampleSize: Double
  package var largestWeight: Double
  package var agreementShare: Double
  /// The gain with the importance weights clipped at each threshold (nil: none).
  package var clipping: [ClippedGain]
  /// The keep rate's estimated change, in kept songs per 100 (the plain-words figure).
  package var keepChangePer100: Double?

  package init(
    month: String, decisions: Int, inForceValue: Double, chosenValue: Double,
    gain: TuningEvidence.Interval, effectiveSampleSize: Double, largestWeight: Double,
    agreementShare: Double, clipping: [ClippedGain], keepChangePer100: Double?
  ) {
    self.month = month
    self.decisions = decisions
    self.inForceValue = inForceValue
    self.chosenValue = chosenValue
    self.gain = gain
    self.effectiveSampleSize = effectiveSampleSize
    self.largestWeight = largestWeight
    self.agreementShare = agreementShare
    self.clipping = clipping
    self.keepChangePer100 = keepChangePer100
  }

  /// The held-out gain with weights clipped at `threshold`.
  package struct ClippedGain: Sendable, Equatable, Codable {
    package var threshold: Double?
    package var gain: Double?

    package init(threshold: Double?, gain: Double?) {
      self.threshold = threshold
      self.gain = gain
    }
  }
}

/// `--by-context`: one context's own selection and held-out evidence.
package struct ContextTuning: Sendable, Equatable, Codable {
  /// The context tried.
  package var context: ActivityContext
  package var decisions: Int
  package var heldOutDecisions: Int
  /// The chosen weights for the context, when a point cleared the selection's rules.
  package var weights: ScoringWeights?
  /// The held-out gain with its interval at the corrected level 1 − 0.05/k.
  package var gain: TuningEvidence.Interval?
  package var effectiveSampleSize: Double?
  /// Whether the context's own evidence cleared the bar.
  package var claimed: Bool
  package var reason: String

  /// A context's result from its parts, as described on each property.
  package init(
    context: ActivityContext, decisions: Int, heldOutDecisions: Int, weights: ScoringWeights?,
    gain: TuningEvidence.Interval?, effectiveSampleSize: Double?, claimed: Bool, reason: String
  ) {
    self.context = context
    self.decisions = decisions
    self.heldOutDecisions = heldOutDecisions
    self.weights = weights
    self.gain = gain
    self.effectiveSampleSize = effectiveSampleSize
    self.claimed = claimed
    self.reason = reason
  }
}

/// The pairwise learning-to-rank fit on plays without a decision log: a biased cross-check,
/// never evidence for a change.
package struct PairwiseCheck: Sendable, Equatable, Codable {
  package var plays: Int
  package var sessions: Int
  package var pairs: Int
  /// The fitted weights, normalised so the five ranking weights sum to 1 when their sum is
  /// positive.
  package var weights: ScoringWeights
  package var pairwiseAccuracy: Double
  /// Cosine between the fitted direction and the recommended preferences' seven weights.
  package var agreementWithRecommended: Double

  package init(
    plays: Int, sessions: Int, pairs: Int, weights: ScoringWeights, pairwiseAccuracy: Double,
    agreementWithRecommended: Double
  ) {
    self.plays = plays
    self.sessions = sessions
    self.pairs = pairs
    self.weights = weights
    self.pairwiseAccuracy = pairwiseAccuracy
    self.agreementWithRecommended = agreementWithRecommended
  }
}

/// Everything `resonance tune` found and decided.
package struct TuningReport: Sendable, Equatable, Codable {
  package var recommendation: PreferenceFile.Recommendation
  /// Why, in a sentence.
  package var reason: String
  package var inForce: UserPreferences
  /// What to run: the chosen preferences after `change`, those in force after `keep`.
  package var recommended: UserPreferences
  /// The preferences chosen on every month before the last, even when kept.
  package var candidate: UserPreferences?
  /// The reward, the estimator and the design the rule used.
  package var reward: Reward
  package var estimator: Estimator
  package var design: SweepDesign
  /// The design's size (`design.count`), kept beside it as the stored report has it.
  package var designPoints: Int
  /// Decisions used, the months they span (local, `YYYY-MM`), and the first and last date.
  package var decisions: Int
  package var months: [String]
  package var from: String?
  package var to: String?
  /// Decisions left out, by why.
  package var excluded: [String: Int]
  /// Decisions whose chosen song's logged propensity was below the floor evaluation reads
  /// (`LoggedCandidate.propensityFloor`), read as it; nil when none.
  package var clippedPropensities: Int?
  package var replay: ReplaySummary
  /// The candidate's estimated gain and ESS on the selection months.
  package var selectionGain: Double?
  package var selectionESS: Double?
  /// One per month after the first: the choice made on the months before it, judged on it.
  package var folds: [TuningFold]
  /// The gain of choosing on the past, pooled over the judged months (the evidence the rule
  /// reads), and the decisions it rests on.
  package var forwardGain: TuningEvidence.Interval?
  package var judgedDecisions: Int?
  /// The candidate (chosen on every month before the last) on the last month.
  package var heldOut: HeldOutEvidence?
  package var contexts: [ContextTuning]
  package var pairwise: PairwiseCheck?
  /// The rule's thresholds.
  package var minimumESS: Double
  package var level: Double
  /// The least gain worth a change: the interval's lower end must clear it.
  package var margin: Double
  /// What this run spent of its family's error budget (`ErrorLedger`); nil when it made no
  /// test or ran without the ledger (`--no-ledger`).
  package var spending: ErrorLedger.Allowance?
  /// The temperature judged apart; nil for a greedy or ε-greedy log, or when no test was made.
  package var temperature: TemperatureTuning?

  /// Whether the pooled forward-chaining gain's lower end is above the margin; nil without
  /// the gain.
  package var clearsMargin: Bool? { forwardGain.map { $0.lower > margin } }
  /// Whether the written candidate's own interval on the month it was not chosen on has its
  /// lower end above 0; nil without a candidate.
  package var clearsZero: Bool? { heldOut.map { $0.gain.lower > 0 } }

  /// A report from its parts, as described on each property; `designPoints` is
  /// `design.count`.
  package init(
    recommendation: PreferenceFile.Recommendation, reason: String, inForce: UserPreferences,
    recommended: UserPreferences, candidate: UserPreferences?, reward: Reward,
    estimator: Estimator, design: SweepDesign, decisions: Int, months: [String],
    from: String?, to: String?, excluded: [String: Int], replay: ReplaySummary,
    selectionGain: Double?, selectionESS: Double?, folds: [TuningFold],
    heldOut: HeldOutEvidence?, contexts: [ContextTuning], pairwise: PairwiseCheck?,
    minimumESS: Double, level: Double, margin: Double = 0
  ) {
    self.recommendation = recommendation
    self.reason = reason
    self.inForce = inForce
    self.recommended = recommended
    self.candidate = candidate
    self.reward = reward
    self.estimator = estimator
    self.design = design
    self.designPoints = design.count
    self.decisions = decisions
    self.months = months
    self.from = from
    self.to = to
    self.excluded = excluded
    self.replay = replay
    self.selectionGain = selectionGain
    self.selectionESS = selectionESS
    self.folds = folds
    self.heldOut = heldOut
    self.contexts = contexts
    self.pairwise = pairwise
    self.minimumESS = minimumESS
    self.level = level
    self.margin = margin
  }
}

/// A stored play as the pairwise cross-check reads it: which song, when, in which
/// reconstructed session and context, whether it was skipped and whether the DJ chose it.
package struct RankingPlay: Sendable, Equatable {
  package var songID: Int64
  package var start: Timestamp
  package var session: Int64?
  package var context: ActivityContext?
  package var skipped: Bool
  package var byDJ: Bool

  package init(
    songID: Int64, start: Timestamp, session: Int64?, context: ActivityContext?, skipped: Bool,
    byDJ: Bool
  ) {
    self.songID = songID
    self.start = start
    self.session = session
    self.context = context
    self.skipped = skipped
    self.byDJ = byDJ
  }
}
