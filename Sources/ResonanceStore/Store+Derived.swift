import ResonanceModel

/// Where `resonance analyze`'s nights, session qualities and state timeline go: replaced with
/// the sessions, inside `replaceAnalysis`'s transaction.
extension Store {
  /// One night's main sleep period (`sleep_nights`).
  package struct NightRow: Sendable, Equatable {
    /// The local date (`YYYY-MM-DD`) of the evening the night belongs to.
    package var evening: String
    package var bedtime: Timestamp
    package var wake: Timestamp
    package var sleepOnset: Timestamp?
    /// Wake − bedtime, milliseconds of real time; positive.
    package var timeInBedMs: Int64
    package var asleepMs: Int64?
    /// Asleep / in bed, 0…1.
    package var efficiency: Double?
    /// Deep and REM shares of the staged time, 0…1.
    package var deepShare: Double?
    package var remShare: Double?
    package var awakeMinutes: Double?
    package var primarySource: String

    package init(
      evening: String, bedtime: Timestamp, wake: Timestamp, sleepOnset: Timestamp?,
      timeInBedMs: Int64, asleepMs: Int64?, efficiency: Double?, deepShare: Double?,
      remShare: Double?, awakeMinutes: Double?, primarySource: String
    ) {
      self.evening = evening
      self.bedtime = bedtime
      self.wake = wake
      self.sleepOnset = sleepOnset
      self.timeInBedMs = timeInBedMs
      self.asleepMs = asleepMs
      self.efficiency = efficiency
      self.deepShare = deepShare
      self.remShare = remShare
      self.awakeMinutes = awakeMinutes
      self.primarySource = primarySource
    }
  }

  /// What one session's next night and quality came to (columns of `historical_sessions`).
  package struct SessionOutcomeRow: Sendable, Equatable {
    /// The index of its next night in `DerivedRows.nights`, or nil when none is in reach.
    package var nextNight: Int?
    /// The next night's sleep score, 0…1 (`sleep_correlation_score`).
    package var sleepScore: Double?
    /// The session quality composite, 0…1; nil when no component was available.
    package var quality: Double?
    /// The components behind `quality`, e.g. `["skip", "engagement"]`.
    package var basis: [String]

    package init(nextNight: Int?, sleepScore: Double?, quality: Double?, basis: [String]) {
      self.nextNight = nextNight
      self.sleepScore = sleepScore
      self.quality = quality
      self.basis = basis
    }
  }

  /// One 30-second state estimate (`state_ticks`).
  package struct StateTickRow: Sendable, Equatable {
    /// The index of its session in the sessions given to `replaceAnalysis`.
    package var session: Int
    package var timeMs: Int64
    /// The five state dimensions, each 0…1 or nil when an input was missing.
    package var arousal, stress, energy, focus, valence: Double?
    /// `Need`'s raw value.
    package var need: String
    /// `record`, `percentile` or `none`.
    package var restingSource: String
    /// `fresh`, `carried` or `missing`.
    package var hrvFreshness: String
    /// The mood input's weight in the valence blend, 0…0.7 (0 when none was in force).
    package var moodWeight: Double

    package init(
      session: Int, timeMs: Int64, arousal: Double?, stress: Double?, energy: Double?,
      focus: Double?, valence: Double?, need: String, restingSource: String,
      hrvFreshness: String, moodWeight: Double
    ) {
      self.session = session
      self.timeMs = timeMs
      self.arousal = arousal
      self.stress = stress
      self.energy = energy
      self.focus = focus
      self.valence = valence
      self.need = need
      self.restingSource = restingSource
      self.hrvFreshness = hrvFreshness
      self.moodWeight = moodWeight
    }
  }

  /// Everything analyze derives beyond sessions, biometrics and effects. Sessions are named
  /// by their index in the sessions `replaceAnalysis` is given, nights by their index here.
  package struct DerivedRows: Sendable, Equatable {
    package var nights: [NightRow]
    /// One per session, in the sessions' order; empty to leave every session without one.
    package var outcomes: [SessionOutcomeRow]
    /// In session order, each session's in time order (the table's key order, so inserts
    /// append).
    package var ticks: [StateTickRow]

    package init(
      nights: [NightRow] = [], outcomes: [SessionOutcomeRow] = [], ticks: [StateTickRow] = []
    ) {
      self.nights = nights
      self.outcomes = outcomes
      self.ticks = ticks
    }
  }

  /// What the derived tables hold, for analyze's summary.
  package struct DerivedSummary: Sendable, Equatable {
    package var nights: Int
    package var sessionsWithNextNight: Int
    package var sessionsWithQuality: Int
    /// The mean `quality_score` over the sessions that have one; nil when none has.
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

  /// Counts over `sleep_nights`, `historical_sessions` and `state_ticks`.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func derivedSummary() throws(StoreError) -> DerivedSummary {
    let sessions = try connection.row(
      """
      SELECT COUNT(next_night_id), COUNT(quality_score), AVG(quality_score)
      FROM historical_sessions
      """)
    return DerivedSummary(
      nights: try connection.row("SELECT COUNT(*) FROM sleep_nights")?.int(0) ?? 0,
      sessionsWithNextNight: sessions?.int(0) ?? 0, sessionsWithQuality: sessions?.int(1) ?? 0,
      meanQuality: sessions?[2].double,
      ticks: try connection.row("SELECT COUNT(*) FROM state_ticks")?.int(0) ?? 0)
  }

  /// Replaces the nights, sets each session's outcome and adds the ticks (of the sessions just
  /// inserted: a kept session keeps its own, a removed one's went with it); the caller's
  /// transaction makes it atomic with the sessions.
  ///
  /// - Parameter sessionIDs: the row ids of the sessions, kept or just inserted, in the order
  ///   given.
  /// - Precondition: `derived.outcomes` is empty or one per session; every index is in range.
  /// - Complexity: O(nights + sessions + ticks) statements, all prepared once.
  /// - Throws: `StoreError` when a statement fails.
  func replaceDerived(_ derived: DerivedRows, sessionIDs: [Int64]) throws(StoreError) {
    precondition(derived.outcomes.isEmpty || derived.outcomes.count == sessionIDs.count)
    try connection.execute("UPDATE historical_sessions SET next_night_id = NULL")
    try connection.execute("DELETE FROM sleep_nights")

    let insertNight = try connection.prepare(
      """
      INSERT INTO sleep_nights (evening, bedtime_ms, bedtime_offset_s, wake_ms, wake_offset_s,
        sleep_onset_ms, sleep_onset_offset_s, time_in_bed_ms, asleep_ms, efficiency, deep_share,
        rem_share, awake_minutes, primary_source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    var nightIDs: [Int64] = []
    nightIDs.reserveCapacity(derived.nights.count)
    for n in derived.nights {
      try insertNight.execute([
        n.evening, n.bedtime.millisecondsSinceEpoch, Int64(n.bedtime.utcOffsetSeconds),
        n.wake.millisecondsSinceEpoch, Int64(n.wake.utcOffsetSeconds),
        n.sleepOnset?.millisecondsSinceEpoch, n.sleepOnset.map { Int64($0.utcOffsetSeconds) },
        n.timeInBedMs, n.asleepMs, n.efficiency, n.deepShare, n.remShare, n.awakeMinutes,
        n.primarySource,
      ])
      nightIDs.append(connection.lastInsertRowID)
    }

    let setOutcome = try connection.prepare(
      """
      UPDATE historical_sessions
      SET next_night_id = ?, sleep_correlation_score = ?, quality_score = ?, quality_basis = ?
      WHERE id = ?
      """)
    for (id, o) in zip(sessionIDs, derived.outcomes) {
      try setOutcome.execute([
        o.nextNight.map { nightIDs[$0] }, o.sleepScore, o.quality,
        o.basis.isEmpty ? nil : o.basis.joined(separator: ","), id,
      ])
    }

    // The bulk path: bind by index, no argument array per row.
    let insertTick = try connection.prepare(
      """
      INSERT INTO state_ticks (session_id, time_ms, arousal, stress, energy, focus, valence,
        need, resting_source, hrv_freshness, mood_weight)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    for t in derived.ticks {
      insertTick.bind(sessionIDs[t.session], at: 1)
      insertTick.bind(t.timeMs, at: 2)
      insertTick.bind(t.arousal, at: 3)
      insertTick.bind(t.stress, at: 4)
      insertTick.bind(t.energy, at: 5)
      insertTick.bind(t.focus, at: 6)
      insertTick.bind(t.valence, at: 7)
      insertTick.bind(t.need, at: 8)
      insertTick.bind(t.restingSource, at: 9)
      insertTick.bind(t.hrvFreshness, at: 10)
      insertTick.bind(t.moodWeight, at: 11)
      try insertTick.run()
    }
  }
}
