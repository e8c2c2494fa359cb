/// A Watch sensor reading from the app's trace (→ BiometricSample).
package struct BiometricReading: Sendable, Equatable {
  package var time: Timestamp
  package var heartRate: Double?
  package var hrv: Double?
  package var isStationary: Bool?
  package var isWorkout: Bool?

  package init(
    time: Timestamp, heartRate: Double?, hrv: Double?, isStationary: Bool?, isWorkout: Bool?
  ) {
    self.time = time
    self.heartRate = heartRate
    self.hrv = hrv
    self.isStationary = isStationary
    self.isWorkout = isWorkout
  }
}

/// A Mac context snapshot from the companion's trace (→ MacOSContext).
package struct MacContextSnapshot: Sendable, Equatable {
  package var time: Timestamp
  package var focusMode: String?
  package var appCategory: String?
  package var inMeeting: Bool?

  package init(time: Timestamp, focusMode: String?, appCategory: String?, inMeeting: Bool?) {
    self.time = time
    self.focusMode = focusMode
    self.appCategory = appCategory
    self.inMeeting = inMeeting
  }
}

/// A mood input: the Watch's three taps (1, 0, −1 for 😊 😐 😔) or the iPhone's sliders.
package struct MoodInput: Sendable, Equatable {
  package var time: Timestamp
  package var device: String
  package var tap: Int?
  package var valence: Double?
  package var energy: Double?

  package init(time: Timestamp, device: String, tap: Int?, valence: Double?, energy: Double?) {
    self.time = time
    self.device = device
    self.tap = tap
    self.valence = valence
    self.energy = energy
  }
}

/// One line of the DJ's decision log (`docs/formats.md`), as structured values: the moment the
/// engine scored at, every candidate with the inputs it read and what it computed, the
/// candidates the guard filters removed, the choice and its outcome. A version-2 line also
/// holds the heart rate and the real-time adjuster's state, and with the preferences in force
/// (`preferences`, on the first decision of a log and wherever they change) a replay needs
/// nothing else.
package struct DecisionRecord: Sendable, Equatable {
  package var time: Timestamp
  package var decision: Int
  package var session: Int?
  /// `need` and `context` as the line names them (the seed's raw values when the app wrote
  /// them; anything else is kept as written and left out of replay).
  package var need: String?
  package var context: String?
  package var chosen: String?
  /// What happened to the chosen song, when the line says.
  package var outcome: DecisionOutcome?
  /// The log format's version (1 to 3).
  package var version: Int
  /// The settings in force from this decision on, when the log states them here: the header's
  /// on a log's first decision (version 1: its weights and policy on the app's other
  /// defaults), a line's own where they changed; nil otherwise (unchanged).
  package var preferences: UserPreferences?
  /// Version 3, on an experiment's days: the arm the decision ran (its settings are
  /// `preferences` where the arm changes) and the seed of the plan the log carries out.
  package var arm: String?
  package var experimentSeed: UInt64?
  /// Local hour with fraction and the state engine's stress, as the engine read them.
  package var localHour: Double?
  package var stress: Double?
  /// The largest play count in the library (familiarity's scale).
  package var maxPlayCount: Int?
  /// The song before, for the transition blend; nil at a session's start.
  package var previous: SongFeatures?
  /// Artists of the most recent plays, newest first.
  package var recentArtists: [String]
  /// The Watch's heart rate when the decision was made (version 2), bpm.
  package var heartRate: Double?
  /// The real-time adjuster's state the decision was scored under (version 2).
  package var adjuster: AdjusterState?
  /// The admitted candidates, in playlist order.
  package var candidates: [LoggedCandidate]
  /// The candidates the guard filters removed, in playlist order.
  package var rejected: [RejectedCandidate]

  package init(
    time: Timestamp, decision: Int, session: Int?, need: String?, context: String?,
    chosen: String?, outcome: DecisionOutcome? = nil, version: Int = 2,
    preferences: UserPreferences? = nil, arm: String? = nil, experimentSeed: UInt64? = nil,
    localHour: Double? = nil, stress: Double? = nil,
    maxPlayCount: Int? = nil, previous: SongFeatures? = nil, recentArtists: [String] = [],
    heartRate: Double? = nil, adjuster: AdjusterState? = nil,
    candidates: [LoggedCandidate] = [], rejected: [RejectedCandidate] = []
  ) {
    self.time = time
    self.decision = decision
    self.session = session
    self.need = need
    self.context = context
    self.chosen = chosen
    self.outcome = outcome
    self.version = version
    self.preferences = preferences
    self.arm = arm
    self.experimentSeed = experimentSeed
    self.localHour = localHour
    self.stress = stress
    self.maxPlayCount = maxPlayCount
    self.previous = previous
    self.recentArtists = recentArtists
    self.heartRate = heartRate
    self.adjuster = adjuster
    self.candidates = candidates
    self.rejected = rejected
  }

  /// The chosen candidate's artist, as the candidate list gives it.
  package var chosenArtist: String? {
    candidates.first { $0.song == chosen }?.artist
  }
}

/// A candidate's inputs as a decision line gives them: what the scorer and the guard filters
/// read.
package struct CandidateInputs: Sendable, Equatable {
  package var artist: String
  package var features: SongFeatures
  /// Plays so far (familiarity).
  package var plays: Int
  /// The learned effect for the decision's need and context, −1 … 1; nil when none yet.
  package var learned: Double?
  /// When the song last played, UTC milliseconds; nil when never.
  package var lastPlayedMs: Int64?

  package init(
    artist: String, features: SongFeatures, plays: Int, learned: Double?, lastPlayedMs: Int64?
  ) {
    self.artist = artist
    self.features = features
    self.plays = plays
    self.learned = learned
    self.lastPlayedMs = lastPlayedMs
  }
}

/// An admitted candidate: its inputs, its seven component values, its scores before and after
/// the transition blend, and the logging policy's probability of choosing it.
package struct LoggedCandidate: Sendable, Equatable {
  /// The song's catalog ID ("" when it had none).
  package var song: String
  package var inputs: CandidateInputs
  package var components: ScoringComponents
  package var baseScore: Double
  package var finalScore: Double
  package var propensity: Double

  package init(
    song: String, inputs: CandidateInputs, components: ScoringComponents, baseScore: Double,
    finalScore: Double, propensity: Double
  ) {
    self.song = song
    self.inputs = inputs
    self.components = components
    self.baseScore = baseScore
    self.finalScore = finalScore
    self.propensity = propensity
  }

  package var artist: String { inputs.artist }

  /// The least propensity offline evaluation reads for a chosen song. A smaller one is a valid
  /// probability but a weight of more than a million: it is read as this floor, and the
  /// clipping is reported (at ingest, at its line; by `sweep` and `tune`, counted).
  package static let propensityFloor = 1e-6

  /// Whether the logged propensity is a probability: in [0, 1] (NaN is not). A decision with
  /// any candidate outside is left out of evaluation.
  package var hasProbability: Bool { propensity >= 0 && propensity <= 1 }
}

/// A candidate the guard filters removed: the filter, and (version 2) the inputs it read.
package struct RejectedCandidate: Sendable, Equatable {
  package var song: String
  /// `missing-id`, `played-recently`, `same-artist`, `night-bpm` or `bpm-ceiling`.
  package var reason: String
  /// Nil in version-1 logs, which give only the song and the reason.
  package var inputs: CandidateInputs?

  package init(song: String, reason: String, inputs: CandidateInputs? = nil) {
    self.song = song
    self.reason = reason
    self.inputs = inputs
  }
}

/// The `outcome` of a decision: how long the chosen song was listened to, and how it ended.
package struct DecisionOutcome: Sendable, Equatable {
  package var listenedMs: Int64
  package var durationMs: Int64?
  package var skipped: Bool
  package var completed: Bool?

  package init(listenedMs: Int64, durationMs: Int64?, skipped: Bool, completed: Bool?) {
    self.listenedMs = listenedMs
    self.durationMs = durationMs
    self.skipped = skipped
    self.completed = completed
  }
}

/// What one of the apps' recordings holds, by format.
package enum TraceContent: Sendable {
  case watch([BiometricReading])
  case mac([MacContextSnapshot])
  case mood([MoodInput])
  case decisions([DecisionRecord])
  case breathing(BreathingRecording)
}

/// A recording of one of our formats, or a part of one: its header's format and version, and
/// its content.
package struct TraceFile: Sendable {
  package var format: String
  package var version: Int
  /// The first instant the recording holds.
  package var started: Timestamp?
  /// Lines after the header that were read.
  package var samples: Int
  package var content: TraceContent
  /// Whether this is a later part of a recording read in parts (`TraceReader.stream`): its
  /// content and samples add to the recording of the part before it, whose format, version and
  /// first instant stand.
  package var continues = false

  package init(
    format: String, version: Int, started: Timestamp?, samples: Int, content: TraceContent
  ) {
    self.format = format
    self.version = version
    self.started = started
    self.samples = samples
    self.content = content
  }
}

/// What followed a DJ decision, from the analysis of the play it chose: heart rate and HRV
/// before and during the song (`play_biometrics`) and the quality of its session.
package struct PlayFollowUp: Sendable, Equatable {
  package var heartRateBefore: Double?
  package var heartRateDuring: Double?
  package var hrvBefore: Double?
  package var hrvDuring: Double?
  /// The seed's session quality, 0 … 1.
  package var sessionQuality: Double?

  package init(
    heartRateBefore: Double? = nil, heartRateDuring: Double? = nil, hrvBefore: Double? = nil,
    hrvDuring: Double? = nil, sessionQuality: Double? = nil
  ) {
    self.heartRateBefore = heartRateBefore
    self.heartRateDuring = heartRateDuring
    self.hrvBefore = hrvBefore
    self.hrvDuring = hrvDuring
    self.sessionQuality = sessionQuality
  }
}

/// The DJ's stored decisions in the order they were made, each with what followed it: nil
/// where its play was not found; fields nil where the analysis measured nothing (or has not
/// run).
package struct DecisionHistory: Sendable, Equatable {
  package var records: [DecisionRecord]
  package var followUps: [PlayFollowUp?]

  package init(records: [DecisionRecord], followUps: [PlayFollowUp?]) {
    precondition(records.count == followUps.count, "one follow-up slot per decision")
    self.records = records
    self.followUps = followUps
  }
}
