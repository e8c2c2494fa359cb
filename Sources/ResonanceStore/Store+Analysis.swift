import Foundation
import ResonanceModel

/// What the history stage reads from the store (`AnalysisInputs`), and the reads that
/// validation and reports make of its results.
extension Store {
  /// Everything the history stage reads, with the raw tables' marks taken first: rows added
  /// while the run reads are found by the next one.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func analysisInputs() throws(StoreError) -> AnalysisInputs {
    let marks = try rawMarks()
    return AnalysisInputs(
      plays: try historicalPlays(), heartRate: try signal(.heartRate), hrv: try signal(.hrv),
      workouts: try workoutSpans(), mac: try macSnapshots(), motion: try motionReadings(),
      genres: try songGenres(), sleep: try sleepIntervals(),
      restingHeartRate: try restingHeartRates(), mood: try moodInputs(),
      birthYear: try birthYear(), decisionStress: try decisionStress(),
      songs: try songFeatureSources(), playlists: try playlistMembers(), marks: marks)
  }

  /// Each playlist's songs, by playlist id.
  package func playlistMembers() throws(StoreError) -> [Int64: [Int64]] {
    var members: [Int64: [Int64]] = [:]
    for row in try connection.rows(
      "SELECT playlist_id, song_id FROM playlist_songs ORDER BY playlist_id, position")
    {
      members[row.optionalInt64(0) ?? 0, default: []].append(row.optionalInt64(1) ?? 0)
    }
    for row in try connection.rows("SELECT id FROM playlists") {
      members[row.optionalInt64(0) ?? 0, default: []] += []
    }
    return members
  }

  /// Every play, in start order, as sessions need it.
  package func historicalPlays() throws(StoreError) -> [HistoricalPlay] {
    try connection.rows(
      """
      SELECT id, start_ms, start_offset_s, end_ms, played_ms, media_duration_ms, was_skipped,
             song_id
      FROM playback_events ORDER BY start_ms, id
      """
    ).map { r in
      HistoricalPlay(
        id: r.optionalInt64(0) ?? 0,
        start: Timestamp(
          millisecondsSinceEpoch: r.optionalInt64(1) ?? 0, utcOffsetSeconds: Int32(r.int(2))),
        endMs: r.optionalInt64(3) ?? 0, playedMs: r.optionalInt64(4),
        mediaDurationMs: r.optionalInt64(5), wasSkipped: r.int(6) != 0,
        songID: r.optionalInt64(7) ?? 0)
    }
  }

  /// Workout spans (UTC milliseconds), in start order.
  package func workoutSpans() throws(StoreError) -> [TimeSpan] {
    try connection.rows("SELECT start_ms, end_ms FROM workouts ORDER BY start_ms").map {
      TimeSpan(startMs: $0.optionalInt64(0) ?? 0, endMs: $0.optionalInt64(1) ?? 0)
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
  package func motionReadings() throws(StoreError) -> [MotionReading] {
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
    ).map { MotionReading(timeMs: $0.optionalInt64(0) ?? 0, isMoving: $0.int(1) != 0) }
  }

  /// Heart-rate (bpm) or HRV (SDNN, ms) readings from the Health export and the Watch traces,
  /// in time order, each marked moving when the source says the person was: Apple's
  /// `HKMetadataKeyHeartRateMotionContext` 2 (active), or a trace sample taken while not
  /// stationary or in a workout. Health records are placed at their start.
  package func signal(_ signal: Signal) throws(StoreError) -> [SignalReading] {
    let (type, column) =
      switch signal {
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
    ).map {
      SignalReading(
        timeMs: $0.optionalInt64(0) ?? 0, value: $0[1].double ?? .nan, isMoving: $0.int(2) != 0)
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

  /// For each play a DJ chose, the stress its decision log says it chose on (0…1, from HRV
  /// against 50 ms), by play id.
  package func decisionStress() throws(StoreError) -> [Int64: Double] {
    var result: [Int64: Double] = [:]
    for row in try connection.rows(
      """
      SELECT p.id, d.stress FROM playback_events p
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

  /// Every song-effect estimate `resonance analyze` wrote, by song and signal.
  package func effectEstimates() throws(StoreError) -> [SongEffectEstimate] {
    try connection.rows(
      """
      SELECT song_id, signal, plays, minutes, raw_mean, prior_mean, estimate, sd, low90, high90
      FROM song_effect_estimates ORDER BY song_id, signal
      """
    ).map { r throws(StoreError) in
      SongEffectEstimate(
        songID: r.optionalInt64(0) ?? 0, signal: try decoded(Signal.self, r, 1), plays: r.int(2),
        minutes: r[3].double ?? 0, unpooled: r[4].double ?? .nan, genreMean: r[5].double ?? .nan,
        estimate: r[6].double ?? .nan, sd: r[7].double ?? .nan, low90: r[8].double ?? .nan,
        high90: r[9].double ?? .nan)
    }
  }

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

  /// Every play in a session, in start order: its song, when it was heard and the session's
  /// reconstructed context.
  package func playsInSessions() throws(StoreError) -> [SessionPlay] {
    try connection.rows(
      """
      SELECT p.song_id, p.start_ms, min(p.end_ms, p.start_ms + coalesce(p.played_ms, p.end_ms)),
        h.context
      FROM playback_events p JOIN historical_sessions h ON h.id = p.session_id
      ORDER BY p.start_ms
      """
    ).map { r throws(StoreError) in
      SessionPlay(
        songID: r.optionalInt64(0) ?? 0,
        heard: TimeSpan(startMs: r.optionalInt64(1) ?? 0, endMs: r.optionalInt64(2) ?? 0),
        context: try decoded(ActivityContext.self, r, 3))
    }
  }

  /// The value of a closed set stored as text in column `index`.
  ///
  /// - Throws: `StoreError` when the text is none of the set's (a store edited by hand).
  func decoded<Value: RawRepresentable>(_ type: Value.Type, _ row: Row, _ index: Int)
    throws(StoreError) -> Value where Value.RawValue == String
  {
    guard let value = Value(rawValue: row.string(index)) else {
      throw StoreError(
        .sqlite(code: 19), message: "unexpected \(Value.self) '\(row.string(index))'",
        path: path)
    }
    return value
  }
}

extension Store {
  /// The latest analysis: the last import it saw, its scope, when it finished and its marks.
  package func lastAnalysis() throws(StoreError) -> AnalysisRun? {
    guard
      let row = try connection.row(
        """
        SELECT last_import_id, gap_minutes, from_ms, to_ms, finished_at_ms, raw_marks, summary
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
    return AnalysisRun(
      lastImportID: row.optionalInt64(0),
      scope: AnalysisScope(
        gapMinutes: row.optionalInt64(1).map { Int($0) } ?? 30,
        days: DayRange(
          from: row.optionalInt64(2).map { CalendarDay(daysSinceEpoch: $0 / 86_400_000) },
          to: row.optionalInt64(3).map { CalendarDay(daysSinceEpoch: $0 / 86_400_000) })),
      finishedAtMs: row.optionalInt64(4) ?? 0, marks: marks,
      // A summary this build cannot read (from an older one) is as good as none.
      summary: row[6].string.flatMap {
        try? JSONDecoder().decode(HistorySummary.self, from: Data($0.utf8))
      })
  }

  /// The newest import's id, nil in an empty ledger.
  package func lastImportID() throws(StoreError) -> Int64? {
    try connection.row("SELECT MAX(id) FROM imports")?.optionalInt64(0)
  }

  /// Whether the derived tables are up to date for `scope`: the last analysis had the same
  /// scope and nothing has been imported since.
  package func isAnalysisCurrent(for scope: AnalysisScope) throws(StoreError) -> AnalysisRun? {
    guard let last = try lastAnalysis(), last.scope == scope,
      last.lastImportID == (try lastImportID())
    else { return nil }
    return last
  }
}
