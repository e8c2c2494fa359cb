import ResonanceModel

/// What session reconstruction reads from the store, and where its results go.
extension Store {
  /// Every play, in start order, as sessions need it.
  package func historicalPlays() throws(StoreError) -> [(
    id: Int64, startMs: Int64, offset: Int32, endMs: Int64, playedMs: Int64?, mediaMs: Int64?,
    skipped: Bool, songID: Int64
  )] {
    try connection.rows(
      """
      SELECT id, start_ms, start_offset_s, end_ms, played_ms, media_duration_ms, was_skipped,
             song_id
      FROM playback_events ORDER BY start_ms, id
      """
    ).map { r in
      (
        r.optionalInt64(0) ?? 0, r.optionalInt64(1) ?? 0, Int32(r.int(2)), r.optionalInt64(3) ?? 0,
        r.optionalInt64(4), r.optionalInt64(5), r.int(6) != 0, r.optionalInt64(7) ?? 0
      )
    }
  }

  /// Workout spans (UTC milliseconds), in start order.
  package func workoutSpans() throws(StoreError) -> [(startMs: Int64, endMs: Int64)] {
    try connection.rows("SELECT start_ms, end_ms FROM workouts ORDER BY start_ms").map {
      ($0.optionalInt64(0) ?? 0, $0.optionalInt64(1) ?? 0)
    }
  }

  /// The Mac's context snapshots, in time order.
  package func macSnapshots() throws(StoreError) -> [MacContextSnapshot] {
    try connection.rows(
      """
      SELECT time_ms, offset_s, focus_mode, active_app_category, in_meeting
      FROM macos_contexts ORDER BY time_ms
      """
    ).map { r in
      MacContextSnapshot(
        time: Timestamp(
          millisecondsSinceEpoch: r.optionalInt64(0) ?? 0, utcOffsetSeconds: Int32(r.int(1))),
        focusMode: r[2].string, appCategory: r[3].string,
        inMeeting: r.optionalInt64(4).map { $0 != 0 })
    }
  }

  /// Motion readings in time order: the Watch trace's (moving = neither stationary nor in a
  /// workout) and the Health export's heart-rate readings that carry Apple's motion context
  /// (`HKMetadataKeyHeartRateMotionContext` 2, active, is moving; 1, sedentary, is not).
  package func motionReadings() throws(StoreError) -> [(timeMs: Int64, isMoving: Bool)] {
    try connection.rows(
      """
      SELECT time_ms, is_stationary = 0 AND coalesce(is_workout, 0) = 0 FROM biometric_samples
      WHERE is_stationary IS NOT NULL
      UNION ALL
      SELECT start_ms,
        json_extract(metadata, '$.HKMetadataKeyHeartRateMotionContext') IN (2, '2')
      FROM health_records
      WHERE type_id = (
          SELECT id FROM health_types WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')
        AND json_extract(metadata, '$.HKMetadataKeyHeartRateMotionContext') IN (1, 2, '1', '2')
      ORDER BY 1
      """
    ).map { ($0.optionalInt64(0) ?? 0, $0.int(1) != 0) }
  }

  /// Heart-rate (bpm) or HRV (SDNN, ms) readings from the Health export and the Watch traces,
  /// in time order, each marked moving when the source says the person was: Apple's
  /// `HKMetadataKeyHeartRateMotionContext` 2 (active), or a trace sample taken while not
  /// stationary or in a workout. Health records are placed at their start.
  package func signal(_ kind: SignalKind) throws(StoreError) -> [(
    timeMs: Int64, value: Double, isMoving: Bool
  )] {
    let (type, column) =
      switch kind {
      case .heartRate: ("HKQuantityTypeIdentifierHeartRate", "hr")
      case .hrv: ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "hrv")
      }
    return try connection.rows(
      """
      SELECT start_ms, value_normalized,
        coalesce(json_extract(metadata, '$.HKMetadataKeyHeartRateMotionContext') IN (2, '2'), 0)
      FROM health_records
      WHERE type_id = (SELECT id FROM health_types WHERE identifier = ?)
        AND value_normalized IS NOT NULL
      UNION ALL
      SELECT time_ms, \(column), coalesce(is_stationary = 0 OR is_workout = 1, 0)
      FROM biometric_samples WHERE \(column) IS NOT NULL
      ORDER BY 1
      """, [type]
    ).map { ($0.optionalInt64(0) ?? 0, $0[1].double ?? .nan, $0.int(2) != 0) }
  }

  package enum SignalKind: Sendable { case heartRate, hrv }

  /// One session's row, with its plays.
  package struct SessionRow: Sendable {
    package var playIDs: [Int64]
    package var start: Timestamp
    package var end: Timestamp
    package var context: String
    package var skipRate: Double
    package var engagement: Double?
    package var meanHR: Double?
    package var meanHRV: Double?
    package var hrDelta: Double?
    package var hrvDelta: Double?
    /// What the session was computed from (`historical_sessions.inputs_digest`).
    package var inputsDigest: String?
    /// The stored session this one is, unchanged: its row, biometrics and ticks are kept as
    /// they are. Nil for a session to insert.
    package var keptID: Int64?

    package init(
      playIDs: [Int64], start: Timestamp, end: Timestamp, context: String, skipRate: Double,
      engagement: Double?, meanHR: Double?, meanHRV: Double?, hrDelta: Double?, hrvDelta: Double?,
      inputsDigest: String? = nil, keptID: Int64? = nil
    ) {
      self.inputsDigest = inputsDigest
      self.keptID = keptID
      self.playIDs = playIDs
      self.start = start
      self.end = end
      self.context = context
      self.skipRate = skipRate
      self.engagement = engagement
      self.meanHR = meanHR
      self.meanHRV = meanHRV
      self.hrDelta = hrDelta
      self.hrvDelta = hrvDelta
    }
  }

  /// One play's heart rate and HRV before and during it.
  package struct PlayBiometricsRow: Sendable {
    package var playID: Int64
    package var hr: (before: Double?, during: Double?, samplesBefore: Int, samplesDuring: Int)
    package var hrv: (before: Double?, during: Double?, samplesBefore: Int, samplesDuring: Int)

    package init(
      playID: Int64,
      hr: (before: Double?, during: Double?, samplesBefore: Int, samplesDuring: Int),
      hrv: (before: Double?, during: Double?, samplesBefore: Int, samplesDuring: Int)
    ) {
      self.playID = playID
      self.hr = hr
      self.hrv = hrv
    }
  }

  /// Replaces the derived tables with a full recomputation, in one transaction, and records
  /// the run with the last import it saw.
  /// One (song, context) effect the learning replay arrived at.
  package struct SongEffectRow: Sendable {
    package var songID: Int64
    package var context: String
    package var calm, energy, focus, mood: Double
    package var samples: Int
    package var updatedAtMs: Int64

    package init(
      songID: Int64, context: String, calm: Double, energy: Double, focus: Double, mood: Double,
      samples: Int, updatedAtMs: Int64
    ) {
      self.songID = songID
      self.context = context
      self.calm = calm
      self.energy = energy
      self.focus = focus
      self.mood = mood
      self.samples = samples
      self.updatedAtMs = updatedAtMs
    }
  }

  /// One song's pooled estimate for one signal (`hr` or `hrv`).
  package struct EffectEstimateRow: Sendable {
    package var songID: Int64
    package var signal: String
    package var plays: Int
    /// Summed exposure, the weight the relative scale is centred with.
    package var minutes: Double
    package var rawMean, priorMean, estimate, sd, low90, high90: Double

    package init(
      songID: Int64, signal: String, plays: Int, minutes: Double, rawMean: Double,
      priorMean: Double, estimate: Double, sd: Double, low90: Double, high90: Double
    ) {
      self.songID = songID
      self.signal = signal
      self.plays = plays
      self.minutes = minutes
      self.rawMean = rawMean
      self.priorMean = priorMean
      self.estimate = estimate
      self.sd = sd
      self.low90 = low90
      self.high90 = high90
    }
  }

  /// Each song's genre, for pooling (empty when unknown).
  package func songGenres() throws(StoreError) -> [Int64: String] {
    var genres: [Int64: String] = [:]
    for row in try connection.rows("SELECT id, COALESCE(genre, '') FROM songs") {
      genres[row.optionalInt64(0) ?? 0] = row.string(1)
    }
    return genres
  }

  /// Brings every derived table up to date in one transaction, and records the run: a failure
  /// leaves the store as it was.
  ///
  /// Sessions with a `keptID` stay as stored — their row, their plays' biometrics and their
  /// state ticks; every other stored session goes (its ticks with it) and the rest are
  /// inserted, recording this run as theirs. `biometrics` and `derived.ticks` are for the
  /// inserted sessions' plays only; nights, outcomes (one per session), song effects,
  /// estimates and features are replaced whole.
  ///
  /// - Parameter marks: the raw tables' marks the inputs were read at (`rawMarks()`), for the
  ///   next run to find what arrived after them.
  /// - Throws: `StoreError` (or the transaction's error) when a statement fails.
  package func replaceAnalysis(
    sessions: [SessionRow], biometrics: [PlayBiometricsRow], effects: [SongEffectRow],
    estimates: [EffectEstimateRow], derived: DerivedRows = DerivedRows(),
    features: [SongFeatureRow] = [], scope: AnalysisScope = AnalysisScope(),
    marks: [String: Int64]? = nil, startedAt: Int64, finishedAt: Int64
  ) throws {
    try connection.transaction {
      let lastImport = try connection.row("SELECT MAX(id) FROM imports")?.optionalInt64(0)
      let kept = sessions.compactMap(\.keptID)
      // A JSON object of table names (identifiers, nothing to escape) to row ids.
      let marksText = marks.map { marks in
        "{"
          + marks.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
          .joined(separator: ",") + "}"
      }
      try connection.execute(
        """
        INSERT INTO analysis_runs (started_at_ms, finished_at_ms, last_import_id, plays, sessions,
          gap_minutes, from_ms, to_ms, raw_marks, sessions_kept)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          startedAt, finishedAt, lastImport, sessions.reduce(0) { $0 + $1.playIDs.count },
          sessions.count, scope.gapMinutes, scope.fromMs, scope.toMs, marksText, kept.count,
        ])
      let run = connection.lastInsertRowID

      // Everything but the kept sessions goes: their plays are unassigned and lose their
      // biometrics, their ticks follow them (ON DELETE CASCADE).
      try connection.execute("CREATE TEMP TABLE kept_sessions (id INTEGER PRIMARY KEY)")
      defer { try? connection.execute("DROP TABLE temp.kept_sessions") }
      let keep = try connection.prepare("INSERT INTO temp.kept_sessions (id) VALUES (?)")
      for id in kept { try keep.execute([id]) }
      try connection.execute(
        """
        DELETE FROM play_biometrics WHERE play_id NOT IN (
          SELECT id FROM playback_events WHERE session_id IN (SELECT id FROM temp.kept_sessions))
        """)
      try connection.execute(
        """
        UPDATE playback_events SET session_id = NULL
        WHERE session_id IS NOT NULL AND session_id NOT IN (SELECT id FROM temp.kept_sessions)
        """)
      try connection.execute(
        "DELETE FROM historical_sessions WHERE id NOT IN (SELECT id FROM temp.kept_sessions)")

      let insertSession = try connection.prepare(
        """
        INSERT INTO historical_sessions (start_ms, start_offset_s, end_ms, end_offset_s, context,
          play_count, skip_rate, engagement, mean_hr, mean_hrv, hr_delta, hrv_delta,
          inputs_digest, analysis_run_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      let assign = try connection.prepare("UPDATE playback_events SET session_id = ? WHERE id = ?")
      var sessionIDs: [Int64] = []
      for s in sessions {
        if let id = s.keptID {
          sessionIDs.append(id)
          continue
        }
        try insertSession.execute([
          s.start.millisecondsSinceEpoch, Int64(s.start.utcOffsetSeconds),
          s.end.millisecondsSinceEpoch, Int64(s.end.utcOffsetSeconds), s.context,
          s.playIDs.count, s.skipRate, s.engagement, s.meanHR, s.meanHRV, s.hrDelta, s.hrvDelta,
          s.inputsDigest, run,
        ])
        let id = connection.lastInsertRowID
        sessionIDs.append(id)
        for play in s.playIDs { try assign.execute([id, play]) }
      }
      try replaceDerived(derived, sessionIDs: sessionIDs)
      let insert = try connection.prepare(
        """
        INSERT OR REPLACE INTO play_biometrics (play_id, hr_before, hr_during, hr_samples_before,
          hr_samples_during, hrv_before, hrv_during, hrv_samples_before, hrv_samples_during)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for b in biometrics {
        try insert.execute([
          b.playID, b.hr.before, b.hr.during, b.hr.samplesBefore, b.hr.samplesDuring,
          b.hrv.before, b.hrv.during, b.hrv.samplesBefore, b.hrv.samplesDuring,
        ])
      }
      try connection.execute("DELETE FROM song_effects")
      let insertEffect = try connection.prepare(
        """
        INSERT INTO song_effects (song_id, context, calm_score, energy_score, focus_score,
          mood_score, sample_count, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for e in effects {
        try insertEffect.execute([
          e.songID, e.context, e.calm, e.energy, e.focus, e.mood, e.samples, e.updatedAtMs,
        ])
      }
      try connection.execute("DELETE FROM song_effect_estimates")
      let insertEstimate = try connection.prepare(
        """
        INSERT INTO song_effect_estimates (song_id, signal, plays, minutes, raw_mean, prior_mean,
          estimate, sd, low90, high90)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for e in estimates {
        try insertEstimate.execute([
          e.songID, e.signal, e.plays, e.minutes, e.rawMean, e.priorMean, e.estimate, e.sd, e.low90,
          e.high90,
        ])
      }
      try replaceSongFeatures(features)
    }
  }
}

extension Store {
  /// One stored song-effect estimate with the song's Apple catalog ID (what a simulated
  /// person's truth is keyed on).
  package struct StoredEffectEstimate: Sendable {
    package var songID: Int64
    package var catalogID: String?
    package var signal: String
    package var plays: Int
    package var minutes: Double
    package var estimate, low90, high90: Double
  }

  /// Every song-effect estimate `resonance analyze` wrote, by song and signal.
  package func effectEstimates() throws(StoreError) -> [StoredEffectEstimate] {
    try connection.rows(
      """
      SELECT e.song_id, s.apple_catalog_id, e.signal, e.plays, e.minutes, e.estimate, e.low90,
        e.high90
      FROM song_effect_estimates e JOIN songs s ON s.id = e.song_id
      ORDER BY e.song_id, e.signal
      """
    ).map {
      StoredEffectEstimate(
        songID: $0.optionalInt64(0) ?? 0, catalogID: $0[1].string, signal: $0[2].string ?? "",
        plays: $0.int(3), minutes: $0[4].double ?? 0, estimate: $0[5].double ?? .nan,
        low90: $0[6].double ?? .nan, high90: $0[7].double ?? .nan)
    }
  }
}

extension Store {
  /// Each song's Apple catalog ID, where it has one.
  package func songCatalogIDs() throws(StoreError) -> [Int64: String] {
    var result: [Int64: String] = [:]
    for row in try connection.rows(
      "SELECT id, apple_catalog_id FROM songs WHERE apple_catalog_id IS NOT NULL")
    {
      if let id = row.optionalInt64(0), let catalog = row[1].string { result[id] = catalog }
    }
    return result
  }
}

extension Store {
  /// Every play in a session: its song, start, the end of what was heard (start + played) and
  /// the session's reconstructed context.
  package func playsInSessions() throws(StoreError) -> [(
    songID: Int64, startMs: Int64, heardEndMs: Int64, context: String
  )] {
    try connection.rows(
      """
      SELECT p.song_id, p.start_ms, min(p.end_ms, p.start_ms + coalesce(p.played_ms, p.end_ms)),
        h.context
      FROM playback_events p JOIN historical_sessions h ON h.id = p.session_id
      ORDER BY p.start_ms
      """
    ).map {
      (
        $0.optionalInt64(0) ?? 0, $0.optionalInt64(1) ?? 0, $0.optionalInt64(2) ?? 0,
        $0[3].string ?? ""
      )
    }
  }
}

/// What an analysis covered: its session gap and the days of plays it took.
package struct AnalysisScope: Sendable, Equatable {
  package var gapMinutes: Int = 30
  /// Plays starting at or after this instant (UTC ms); nil for no bound.
  package var fromMs: Int64?
  /// Plays starting before this instant; nil for no bound.
  package var toMs: Int64?

  package init(gapMinutes: Int = 30, fromMs: Int64? = nil, toMs: Int64? = nil) {
    self.gapMinutes = gapMinutes
    self.fromMs = fromMs
    self.toMs = toMs
  }
}

extension Store {
  /// The latest analysis: the last import it saw, its scope and when it finished.
  package func lastAnalysis() throws(StoreError) -> (
    lastImportID: Int64?, scope: AnalysisScope, finishedAtMs: Int64, marks: [String: Int64]?
  )? {
    guard
      let row = try connection.row(
        """
        SELECT last_import_id, gap_minutes, from_ms, to_ms, finished_at_ms, raw_marks
        FROM analysis_runs ORDER BY id DESC LIMIT 1
        """)
    else { return nil }
    var marks: [String: Int64]?
    if row[5].string != nil {
      marks = [:]
      for entry in try connection.rows(
        """
        SELECT key, value FROM analysis_runs r, json_each(r.raw_marks)
        WHERE r.id = (SELECT MAX(id) FROM analysis_runs)
        """
      ) {
        marks?[entry.string(0)] = entry.optionalInt64(1)
      }
    }
    return (
      row.optionalInt64(0),
      AnalysisScope(
        gapMinutes: row.optionalInt64(1).map { Int($0) } ?? 30, fromMs: row.optionalInt64(2),
        toMs: row.optionalInt64(3)),
      row.optionalInt64(4) ?? 0, marks
    )
  }

  /// The newest import's id, nil in an empty ledger.
  package func lastImportID() throws(StoreError) -> Int64? {
    try connection.row("SELECT MAX(id) FROM imports")?.optionalInt64(0)
  }
}

extension Store {
  /// For each play a DJ chose, the stress its decision log says it chose on (0…1, from HRV
  /// against 50 ms), by play id.
  package func decisionStress() throws(StoreError) -> [Int64: Double] {
    var result: [Int64: Double] = [:]
    for row in try connection.rows(
      """
      SELECT p.id, json_extract(d.line, '$.stress') FROM playback_events p
      JOIN dj_decisions d ON d.decision = p.decision AND abs(d.time_ms - p.start_ms) <= 90000
      WHERE p.decision IS NOT NULL
      """)
    {
      if let id = row.optionalInt64(0), let stress = row[1].double, stress.isFinite {
        result[id] = stress
      }
    }
    return result
  }
}
