import ResonanceModel

extension Store {
  /// What the store holds, for `resonance status`: counts, spans and the ledger.
  ///
  /// - Complexity: one aggregate query per table; the record counts use the
  ///   `health_records_identity` index, which leads with the type.
  package func summary() throws(StoreError) -> StoreSummary {
    var health = StoreSummary.Health()
    for row in try connection.rows(
      """
      SELECT t.identifier, COUNT(*) AS records FROM health_records r
      JOIN health_types t ON t.id = r.type_id GROUP BY r.type_id
      """)
    {
      health.records[row.string("identifier")] = row.int("records")
    }
    health.heartbeats = try count("health_beats")
    health.workouts = try count("workouts")
    // SQLite gives the bare offset column from the row MIN() or MAX() chose, so each end of
    // the span keeps the offset it was lived in.
    health.first = try instant(
      """
      SELECT ms, offset FROM (
        SELECT MIN(start_ms) AS ms, start_offset_s AS offset FROM health_records
        UNION ALL SELECT MIN(start_ms), start_offset_s FROM workouts)
      WHERE ms IS NOT NULL ORDER BY ms LIMIT 1
      """)
    health.last = try instant(
      """
      SELECT ms, offset FROM (
        SELECT MAX(end_ms) AS ms, end_offset_s AS offset FROM health_records
        UNION ALL SELECT MAX(end_ms), end_offset_s FROM workouts)
      WHERE ms IS NOT NULL ORDER BY ms DESC LIMIT 1
      """)

    var listening = StoreSummary.Listening()
    if let plays = try connection.row(
      "SELECT COUNT(*) AS plays, SUM(was_skipped) AS skips FROM playback_events")
    {
      listening.plays = plays.int("plays")
      listening.skips = plays.int("skips")
    }
    listening.first = try instant(
      "SELECT MIN(start_ms) AS ms, start_offset_s AS offset FROM playback_events")
    listening.last = try instant(
      "SELECT MAX(end_ms) AS ms, end_offset_s AS offset FROM playback_events")
    listening.songs = try count("songs")
    if let row = try connection.row(
      """
      SELECT SUM(s.artist IS NOT NULL AND s.genre IS NOT NULL) AS resolved,
             SUM(s.artist IS NOT NULL) AS with_artist, SUM(s.genre IS NOT NULL) AS with_genre
      FROM playback_events p JOIN songs s ON s.id = p.song_id
      """)
    {
      listening.resolved = row.int("resolved")
      listening.withArtist = row.int("with_artist")
      listening.withGenre = row.int("with_genre")
    }

    var traces = StoreSummary.Traces()
    if let row = try connection.row(
      "SELECT COUNT(*) AS recordings, SUM(samples) AS samples FROM trace_recordings")
    {
      traces.recordings = row.int("recordings")
      traces.samples = row.int("samples")
    }

    return StoreSummary(
      schemaVersion: try schemaVersion(), health: health, listening: listening, traces: traces,
      imports: try importEntries())
  }

  /// The instant and offset a query's one row gives (columns `ms` and `offset`), nil when it
  /// gives none or NULL.
  private func instant(_ sql: String) throws(StoreError) -> Timestamp? {
    guard let row = try connection.row(sql), row.int64("ms") != nil else { return nil }
    return row.timestamp("ms", offset: "offset")
  }

  private func count(_ table: String) throws(StoreError) -> Int {
    try connection.row("SELECT COUNT(*) AS count FROM \(table)")?.int("count") ?? 0
  }
}

extension Store {
  /// The beat-to-beat lists of the HRV records that start in `days` (their local days, in
  /// each record's own offset), in time order, each with its record's start.
  package func beatLists(in days: DayRange) throws(StoreError) -> [BeatList] {
    var lists: [BeatList] = []
    var current: Int64?
    let dayMs: Int64 = 86_400_000
    for row in try connection.rows(
      """
      SELECT r.id, r.start_ms, r.start_offset_s, b.time_ms, b.bpm
      FROM health_records r JOIN health_beats b ON b.record_id = r.id
      WHERE r.start_ms + r.start_offset_s * 1000 >= ? AND r.start_ms + r.start_offset_s * 1000 < ?
      ORDER BY r.start_ms, r.id, b.beat_index
      """,
      [
        days.from.map { $0.daysSinceEpoch * dayMs } ?? Int64.min,
        days.to.map { $0.daysSinceEpoch * dayMs } ?? Int64.max,
      ])
    {
      let id = row.int64("id") ?? 0
      if id != current {
        current = id
        lists.append(
          BeatList(start: row.timestamp("start_ms", offset: "start_offset_s"), beats: []))
      }
      lists[lists.count - 1].beats.append(
        HealthBeat(timeMs: row.int64("time_ms") ?? 0, bpm: row.double("bpm") ?? 0))
    }
    return lists
  }
}

extension Store {
  /// Gives the plays whose offset came from the user's zone or from nothing (`offset_source`
  /// `user` or `utc`) the Health data's offset at their start, where the Health data now knows
  /// one — the order a play's offset is chosen in is its file, the Health data, the user's
  /// zone, UTC, so a Health export imported after a listening history leaves the same offsets
  /// as one imported before it. Returns how many plays changed.
  ///
  /// - Complexity: one read of the plays without an offset; when there are any, one pass over
  ///   `health_records` (`healthOffsetTimeline()`).
  /// - Throws: `StoreError` when a statement fails; the caller's transaction keeps it atomic.
  package func adoptHealthOffsets() throws(StoreError) -> Int {
    let plays = try connection.rows(
      """
      SELECT id, start_ms FROM playback_events WHERE offset_source IN ('user', 'utc')
      ORDER BY start_ms
      """
    ).map { (id: $0.int64("id") ?? 0, startMs: $0.int64("start_ms") ?? 0) }
    guard !plays.isEmpty else { return 0 }
    let timeline = try healthOffsetTimeline()
    guard !timeline.isEmpty else { return 0 }
    let update = try connection.prepare(
      """
      UPDATE playback_events SET start_offset_s = ?, end_offset_s = ?, offset_source = 'health'
      WHERE id = ?
      """)
    var changed = 0
    for play in plays {
      guard let offset = timeline.offset(atMs: play.startMs) else { continue }
      try update.execute([Int64(offset), Int64(offset), play.id])
      changed += 1
    }
    return changed
  }

  /// The UTC offsets the Health data shows: one point per hour and offset in which a record
  /// starts. For sources that record no offset of their own.
  package func healthOffsetTimeline() throws(StoreError) -> UTCOffsetTimeline {
    try Self.healthOffsetTimeline(connection)
  }

  /// `healthOffsetTimeline()` over a connection, for a writer that owns it.
  static func healthOffsetTimeline(_ connection: Connection) throws(StoreError)
    -> UTCOffsetTimeline
  {
    var points: [(ms: Int64, offset: Int32)] = []
    for row in try connection.rows(
      """
      SELECT (start_ms / 3600000) * 3600000 AS hour_ms, start_offset_s FROM health_records
      GROUP BY 1, 2
      """)
    {
      points.append((row.int64("hour_ms") ?? 0, Int32(row.int("start_offset_s"))))
    }
    return UTCOffsetTimeline(points: points)
  }
}

extension Store {
  /// Songs without an artist or a genre, most played first: what `status --unresolved` lists.
  package func unresolvedSongs() throws(StoreError) -> [UnresolvedSong] {
    try connection.fetch(
      UnresolvedSong.self,
      """
      SELECT s.title, s.artist, s.album, s.genre, s.apple_catalog_id, COUNT(p.id) AS plays,
             COALESCE(group_concat(DISTINCT p.source), '') AS sources
      FROM songs s LEFT JOIN playback_events p ON p.song_id = s.id
      WHERE s.artist IS NULL OR s.genre IS NULL
      GROUP BY s.id ORDER BY COUNT(p.id) DESC, s.title, s.id
      """)
  }
}

extension UnresolvedSong: RowDecodable {
  /// A song with its plays and sources as `unresolvedSongs()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      title: row.string("title"), artist: row.text("artist"), album: row.text("album"),
      genre: row.text("genre"), appleCatalogID: row.text("apple_catalog_id"),
      plays: row.int("plays"), sources: row.string("sources"))
  }
}
