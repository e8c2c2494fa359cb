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
      members[row.int64("playlist_id") ?? 0, default: []].append(row.int64("song_id") ?? 0)
    }
    for row in try connection.rows("SELECT id FROM playlists") {
      members[row.int64("id") ?? 0, default: []] += []
    }
    return members
  }

  /// Every play, in start order, as sessions need it.
  package func historicalPlays() throws(StoreError) -> [HistoricalPlay] {
    try connection.fetch(
      HistoricalPlay.self,
      """
      SELECT id, start_ms, start_offset_s, end_ms, played_ms, media_duration_ms, was_skipped,
             song_id
      FROM playback_events ORDER BY start_ms, id
      """)
  }

  /// Workout spans (UTC milliseconds), in start order.
  package func workoutSpans() throws(StoreError) -> [TimeSpan] {
    try connection.rows("SELECT start_ms, end_ms FROM workouts ORDER BY start_ms").map {
      TimeSpan(startMs: $0.int64("start_ms") ?? 0, endMs: $0.int64("end_ms") ?? 0)
    }
  }

  /// The Mac's context snapshots, in time order.
  package func macSnapshots() throws(StoreError) -> [MacContextSnapshot] {
    try connection.fetch(
      MacContextSnapshot.self,
      """
      SELECT time_ms, offset_s, focus_mode, active_app_category, in_meeting
      FROM macos_contexts ORDER BY time_ms
      """)
  }

  /// Motion readings in time order: the Watch trace's (moving = neither stationary nor in a
  /// workout) and the Health export's heart-rate readings that carry Apple's motion context
  /// (`HKMetadataKeyHeartRateMotionContext` 2, active, is moving; 1, sedentary, is not).
  package func motionReadings() throws(StoreError) -> [MotionReading] {
    try connection.fetch(
      MotionReading.self,
      """
      SELECT time_ms, is_stationary = 0 AND coalesce(is_workout, 0) = 0 AS is_moving
      FROM biometric_samples
      WHERE is_stationary IS NOT NULL
      UNION ALL
      SELECT start_ms,
        json_extract(metadata, '$.HKMetadataKeyHeartRateMotionContext') IN (2, '2')
      FROM health_records
      WHERE type_id = (
          SELECT id FROM health_types WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')
        AND json_extract(metadata, '$.HKMetadataKeyHeartRateMotionContext') IN (1, 2, '1', '2')
      ORDER BY 1
      """)
  }

  /// Heart-rate (bpm) or HRV (SDNN, ms) readings from the Health export and the Watch traces,
  /// in time order, each marked moving when the source says the person was: Apple's
  /// `HKMetadataKeyHeartRateMotionContext` 2 (active), or a trace sample taken while not
  /// stationary or in a workout. Health records are placed at their start. With
  /// `includingTraces` false, the Health export's readings alone: the traces exist only while
  /// the DJ app plays music, so a figure that compares times with and without music (the
  /// nights) must not take them.
  package func signal(_ signal: Signal, includingTraces: Bool = true) throws(StoreError)
    -> [SignalReading]
  {
    let (type, column) =
      switch signal {
      case .heartRate: ("HKQuantityTypeIdentifierHeartRate", "hr")
      case .hrv: ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "hrv")
      }
    let statement = try connection.prepare(
      """
      SELECT start_ms AS time_ms, value_normalized AS value,
        coalesce(json_extract(metadata, '$.HKMetadataKeyHeartRateMotionContext') IN (2, '2'), 0)
          AS is_moving
      FROM health_records
      WHERE type_id = (SELECT id FROM health_types WHERE identifier = ?)
        AND value_normalized IS NOT NULL
      UNION ALL
      SELECT time_ms, \(column), coalesce(is_stationary = 0 OR is_workout = 1, 0)
      FROM biometric_samples WHERE \(column) IS NOT NULL AND ?
      ORDER BY 1
      """)
    // A year holds some 700,000 heart-rate readings: their columns are found once, not per row.
    let time = statement.column("time_ms")
    let value = statement.column("value")
    let moving = statement.column("is_moving")
    return try statement.fetch([type, includingTraces ? 1 : 0]) { row in
      SignalReading(
        timeMs: row.int64(time) ?? 0, value: row.double(value) ?? .nan,
        isMoving: row.int(moving) != 0)
    }
  }

  /// Each song's genre, for pooling (empty when unknown).
  package func songGenres() throws(StoreError) -> [Int64: String] {
    var genres: [Int64: String] = [:]
    for row in try connection.rows("SELECT id, COALESCE(genre, '') AS genre FROM songs") {
      genres[row.int64("id") ?? 0] = row.string("genre")
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
      if let id = row.int64("id"), let stress = row.double("stress"), stress.isFinite {
        result[id] = stress
      }
    }
    return result
  }

  /// Every song-effect estimate `resonance analyze` wrote, by song and signal.
  package func effectEstimates() throws(StoreError) -> [SongEffectEstimate] {
    try connection.fetch(
      SongEffectEstimate.self,
      """
      SELECT song_id, signal, plays, minutes, raw_mean, prior_mean, estimate, sd, low90, high90
      FROM song_effect_estimates ORDER BY song_id, signal
      """)
  }

  /// Every per-context song-effect estimate `resonance analyze` wrote, by song, signal and
  /// context.
  package func contextEffectEstimates() throws(StoreError) -> [SongContextEffectEstimate] {
    try connection.fetch(
      SongContextEffectEstimate.self,
      """
      SELECT song_id, signal, context, plays, minutes, raw_mean, overall, estimate, sd, low90,
        high90
      FROM song_context_effect_estimates ORDER BY song_id, signal, context
      """)
  }

  /// Each song's Apple catalog ID, where it has one.
  package func songCatalogIDs() throws(StoreError) -> [Int64: String] {
    var result: [Int64: String] = [:]
    for row in try connection.rows(
      "SELECT id, apple_catalog_id FROM songs WHERE apple_catalog_id IS NOT NULL")
    {
      if let id = row.int64("id"), let catalog = row.text("apple_catalog_id") {
        result[id] = catalog
      }
    }
    return result
  }

  /// Every play in a session, in start order: its song, when it was heard and the session's
  /// reconstructed context.
  package func playsInSessions() throws(StoreError) -> [SessionPlay] {
    try connection.fetch(
      SessionPlay.self,
      """
      SELECT p.song_id, p.start_ms,
        min(p.end_ms, p.start_ms + coalesce(p.played_ms, p.end_ms)) AS heard_end_ms, h.context
      FROM playback_events p JOIN historical_sessions h ON h.id = p.session_id
      ORDER BY p.start_ms
      """)
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
    if row.text("raw_marks") != nil {
      marks = [:]
      for entry in try connection.rows(
        """
        SELECT key, value FROM analysis_runs r, json_each(r.raw_marks)
        WHERE r.id = (SELECT MAX(id) FROM analysis_runs)
        """
      ) {
        marks?[entry.string("key")] = entry.int64("value")
      }
    }
    return AnalysisRun(
      lastImportID: row.int64("last_import_id"),
      scope: AnalysisScope(
        gapMinutes: row.int64("gap_minutes").map { Int($0) } ?? 30,
        days: DayRange(
          from: row.int64("from_ms").map { CalendarDay(daysSinceEpoch: $0 / 86_400_000) },
          to: row.int64("to_ms").map { CalendarDay(daysSinceEpoch: $0 / 86_400_000) })),
      finishedAtMs: row.int64("finished_at_ms") ?? 0, marks: marks,
      // A summary this build cannot read (from an older one) is as good as none.
      summary: row.text("summary").flatMap {
        try? JSONDecoder().decode(HistorySummary.self, from: Data($0.utf8))
      })
  }

  /// The newest import's id, nil in an empty ledger.
  package func lastImportID() throws(StoreError) -> Int64? {
    try connection.row("SELECT MAX(id) AS id FROM imports")?.int64("id")
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

extension HistoricalPlay: RowDecodable {
  /// A `playback_events` row as `historicalPlays()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      id: row.int64("id") ?? 0, start: row.timestamp("start_ms", offset: "start_offset_s"),
      endMs: row.int64("end_ms") ?? 0, playedMs: row.int64("played_ms"),
      mediaDurationMs: row.int64("media_duration_ms"), wasSkipped: row.int("was_skipped") != 0,
      songID: row.int64("song_id") ?? 0)
  }
}

extension MacContextSnapshot: RowDecodable {
  /// A `macos_contexts` row as `macSnapshots()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      time: row.timestamp("time_ms", offset: "offset_s"), focusMode: row.text("focus_mode"),
      appCategory: row.text("active_app_category"), inMeeting: row.bool("in_meeting"))
  }
}

extension MotionReading: RowDecodable {
  /// A reading as `motionReadings()` selects it: `time_ms` and `is_moving`.
  package init(row: Row) throws(StoreError) {
    self.init(timeMs: row.int64("time_ms") ?? 0, isMoving: row.int("is_moving") != 0)
  }
}

extension SongEffectEstimate: RowDecodable {
  /// A `song_effect_estimates` row as `effectEstimates()` selects it.
  ///
  /// - Throws: `StoreError` when the signal is not a `Signal`.
  package init(row: Row) throws(StoreError) {
    self.init(
      songID: row.int64("song_id") ?? 0, signal: try row.decoded(Signal.self, "signal"),
      plays: row.int("plays"), minutes: row.double("minutes") ?? 0,
      unpooled: row.double("raw_mean") ?? .nan, genreMean: row.double("prior_mean") ?? .nan,
      estimate: row.double("estimate") ?? .nan, sd: row.double("sd") ?? .nan,
      low90: row.double("low90") ?? .nan, high90: row.double("high90") ?? .nan)
  }
}

extension SongContextEffectEstimate: RowDecodable {
  /// A `song_context_effect_estimates` row as `contextEffectEstimates()` selects it.
  ///
  /// - Throws: `StoreError` when the signal or the context is not one this build knows.
  package init(row: Row) throws(StoreError) {
    self.init(
      songID: row.int64("song_id") ?? 0, signal: try row.decoded(Signal.self, "signal"),
      context: try row.decoded(ActivityContext.self, "context"), plays: row.int("plays"),
      minutes: row.double("minutes") ?? 0, unpooled: row.double("raw_mean") ?? .nan,
      overall: row.double("overall") ?? .nan, estimate: row.double("estimate") ?? .nan,
      sd: row.double("sd") ?? .nan, low90: row.double("low90") ?? .nan,
      high90: row.double("high90") ?? .nan)
  }
}

extension SessionPlay: RowDecodable {
  /// A play as `playsInSessions()` selects it: `song_id`, `start_ms`, `heard_end_ms` and its
  /// session's `context`.
  ///
  /// - Throws: `StoreError` when the context is not an `ActivityContext`.
  package init(row: Row) throws(StoreError) {
    self.init(
      songID: row.int64("song_id") ?? 0,
      heard: TimeSpan(startMs: row.int64("start_ms") ?? 0, endMs: row.int64("heard_end_ms") ?? 0),
      context: try row.decoded(ActivityContext.self, "context"))
  }
}
