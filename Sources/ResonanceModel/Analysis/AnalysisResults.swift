/// What an analysis covered: its session gap and the local days of the plays it took.
package struct AnalysisScope: Sendable, Equatable, Codable {
  package var gapMinutes: Int = 30
  /// The days whose plays are taken, each play's day in its own UTC offset.
  package var days = DayRange()

  package init(gapMinutes: Int = 30, days: DayRange = DayRange()) {
    self.gapMinutes = gapMinutes
    self.days = days
  }

  /// Whether a play starting at `time` is in scope.
  package func contains(_ time: Timestamp) -> Bool { days.contains(time) }
}

/// One session of an analysis with what the store keeps of it beyond the Brain's summary.
package struct AnalysedSession: Sendable, Equatable {
  package var biometrics: SessionBiometrics
  /// SHA-256 over what the session's rows were computed from
  /// (`historical_sessions.inputs_digest`).
  package var inputsDigest: String?
  /// The stored session this one is, unchanged: its row, its plays' biometrics and its ticks
  /// are kept as they are. Nil for a session to store.
  package var keptID: Int64?

  package init(biometrics: SessionBiometrics, inputsDigest: String?, keptID: Int64? = nil) {
    self.biometrics = biometrics
    self.inputsDigest = inputsDigest
    self.keptID = keptID
  }

  package var session: ListeningSession { biometrics.session }
}

/// Everything one run of the history stage derives, as the store keeps it. Sessions are named
/// by their index in `sessions`, nights by their index in `nights`.
package struct AnalysisResults: Sendable, Equatable {
  package var scope: AnalysisScope
  package var sessions: [AnalysedSession]
  /// Heart rate and HRV around the plays of the sessions to store (not of kept ones).
  package var biometrics: [PlayBiometrics]
  /// The learning replay's per-song, per-context effects.
  package var effects: [SongEffect]
  /// The song-response model's estimates, per song and signal.
  package var estimates: [SongEffectEstimate]
  /// The same model's estimates per song, signal and context.
  package var contextEstimates: [SongContextEffectEstimate] = []
  package var nights: [NightSleep]
  /// One per session, in the sessions' order; empty to leave every session without one.
  package var outcomes: [SessionOutcome]
  /// The state ticks of the sessions to store, each naming its session's index (`period`),
  /// in session order and each session's in time order.
  package var ticks: [StateTick]
  package var features: [SongFeatureEstimate]
  /// The seed's Song and Playlist aggregate fields (`songs.calm_score`, `playlists.avg_*`).
  package var songScores: [SongEntityScores]
  package var playlistScores: [PlaylistEntityScores]
  /// The raw tables' row-id marks the inputs were read at, for the next run to find what
  /// arrived after them.
  package var marks: [String: Int64]?

  package init(
    scope: AnalysisScope = AnalysisScope(), sessions: [AnalysedSession] = [],
    biometrics: [PlayBiometrics] = [], effects: [SongEffect] = [],
    estimates: [SongEffectEstimate] = [], nights: [NightSleep] = [],
    outcomes: [SessionOutcome] = [], ticks: [StateTick] = [],
    features: [SongFeatureEstimate] = [], songScores: [SongEntityScores] = [],
    playlistScores: [PlaylistEntityScores] = [], marks: [String: Int64]? = nil
  ) {
    self.scope = scope
    self.sessions = sessions
    self.biometrics = biometrics
    self.effects = effects
    self.estimates = estimates
    self.nights = nights
    self.outcomes = outcomes
    self.ticks = ticks
    self.features = features
    self.songScores = songScores
    self.playlistScores = playlistScores
    self.marks = marks
  }
}

extension AnalysisResults {
  /// What the derived tables would hold once these results, every session computed, were
  /// stored in place of the last run's.
  package var derivedSummary: DerivedSummary {
    let qualities = outcomes.compactMap(\.quality)
    return DerivedSummary(
      nights: nights.count, sessionsWithNextNight: outcomes.count { $0.nextNight != nil },
      sessionsWithQuality: qualities.count,
      meanQuality: qualities.isEmpty ? nil : qualities.reduce(0, +) / Double(qualities.count),
      ticks: ticks.count)
  }
}

/// The last analysis a store records (`analysis_runs`).
package struct AnalysisRun: Sendable, Equatable {
  /// The newest import the run had seen.
  package var lastImportID: Int64?
  package var scope: AnalysisScope
  /// When it finished, UTC milliseconds.
  package var finishedAtMs: Int64
  /// The raw tables' marks it read its inputs at; nil for a run before schema 15.
  package var marks: [String: Int64]?
  /// What the run found; nil for a run before schema 16.
  package var summary: HistorySummary?

  package init(
    lastImportID: Int64?, scope: AnalysisScope, finishedAtMs: Int64, marks: [String: Int64]?,
    summary: HistorySummary? = nil
  ) {
    self.lastImportID = lastImportID
    self.scope = scope
    self.finishedAtMs = finishedAtMs
    self.marks = marks
    self.summary = summary
  }
}

/// What the derived tables hold after a run, for its summary.
package struct DerivedSummary: Sendable, Equatable {
  package var nights: Int
  package var sessionsWithNextNight: Int
  package var sessionsWithQuality: Int
  /// The mean session quality over the sessions that have one; nil when none has.
  package var meanQuality: Double?
  package var ticks: Int

  package init(
    nights: Int, sessionsWithNextNight: Int, sessionsWithQuality: Int, meanQuality: Double?,
    ticks: Int
  ) {
    self.nights = nights
    self.sessionsWithNextNight = sessionsWithNextNight
    self.sessionsWithQuality = sessionsWithQuality
    self.meanQuality = meanQuality
    self.ticks = ticks
  }
}

/// Everything the history stage reads from the store, each list in time order.
package struct AnalysisInputs: Sendable {
  /// Every play, in start order (the stage keeps those its scope takes).
  package var plays: [HistoricalPlay]
  package var heartRate: [SignalReading]
  package var hrv: [SignalReading]
  package var workouts: [TimeSpan]
  package var mac: [MacContextSnapshot]
  package var motion: [MotionReading]
  /// Each song's genre as its sources spell it (empty when none does), by song id.
  package var genres: [Int64: String]
  package var sleep: [SleepInterval]
  /// The Health export's resting heart-rate records, each at the instant it became known.
  package var restingHeartRate: [SignalSample]
  package var mood: [MoodInput]
  package var birthYear: Int?
  /// For each play a DJ chose, the stress its decision log says it chose on, by play id.
  package var decisionStress: [Int64: Double]
  /// What feature estimation needs to know of every song, by song id.
  package var songs: [SongFeatureSource]
  /// Each playlist's songs, by playlist id.
  package var playlists: [Int64: [Int64]]
  /// The raw tables' row-id marks, read before anything else.
  package var marks: [String: Int64]

  package init(
    plays: [HistoricalPlay] = [], heartRate: [SignalReading] = [], hrv: [SignalReading] = [],
    workouts: [TimeSpan] = [], mac: [MacContextSnapshot] = [], motion: [MotionReading] = [],
    genres: [Int64: String] = [:], sleep: [SleepInterval] = [],
    restingHeartRate: [SignalSample] = [], mood: [MoodInput] = [], birthYear: Int? = nil,
    decisionStress: [Int64: Double] = [:], songs: [SongFeatureSource] = [],
    playlists: [Int64: [Int64]] = [:], marks: [String: Int64] = [:]
  ) {
    self.plays = plays
    self.heartRate = heartRate
    self.hrv = hrv
    self.workouts = workouts
    self.mac = mac
    self.motion = motion
    self.genres = genres
    self.sleep = sleep
    self.restingHeartRate = restingHeartRate
    self.mood = mood
    self.birthYear = birthYear
    self.decisionStress = decisionStress
    self.songs = songs
    self.playlists = playlists
    self.marks = marks
  }
}

/// What the last run left that this one may keep: its sessions by inputs digest, and the time
/// the data imported since covers.
package struct StoredSessions: Sendable, Equatable {
  /// Stored session ids by their inputs digest.
  package var digests: [String: Int64]
  /// The spans the rows added since the last run cover, merged and in time order.
  package var added: [TimeSpan]

  package init(digests: [String: Int64], added: [TimeSpan]) {
    self.digests = digests
    self.added = added
  }
}

/// What one run of the history stage found, for its summary. The store keeps the latest
/// (its fits without their per-song estimates, which have a table of their own).
package struct HistorySummary: Sendable, Equatable, Codable {
  package var scope: AnalysisScope
  package var plays: Int
  package var sessions: Int
  package var sessionsByContext: [ActivityContext: Int]
  /// Plays with a heart-rate change, and with an HRV change (samples on both sides).
  package var playsWithHeartRate: Int
  package var playsWithHRV: Int
  /// Sessions kept as the store held them.
  package var sessionsKept: Int
  /// The song-response fit per signal; a signal is missing when there was too little to fit.
  package var responses: [SongResponseFit]
  package var features: SongFeatureSummary

  package init(
    scope: AnalysisScope, plays: Int, sessions: Int, sessionsByContext: [ActivityContext: Int],
    playsWithHeartRate: Int, playsWithHRV: Int, sessionsKept: Int,
    responses: [SongResponseFit], features: SongFeatureSummary
  ) {
    self.scope = scope
    self.plays = plays
    self.sessions = sessions
    self.sessionsByContext = sessionsByContext
    self.playsWithHeartRate = playsWithHeartRate
    self.playsWithHRV = playsWithHRV
    self.sessionsKept = sessionsKept
    self.responses = responses
    self.features = features
  }

  /// The fit of `signal`, when there was enough to fit it.
  package func response(_ signal: Signal) -> SongResponseFit? {
    responses.first { $0.signal == signal }
  }
}
