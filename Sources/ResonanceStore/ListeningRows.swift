import ResonanceModel

/// The listening writer's SQL: songs and plays read by column name and written in batches on a
/// thread of their own, inside the caller's transaction.
///
/// Writes are only *enqueued* (`SerialWrites`), so that deciding what to write and SQLite's
/// work run on two cores; `flush()` waits for them before anything reads the connection, which
/// is never used by two threads at once. Plays are inserted `batchSize` rows per statement: one
/// statement per row costs SQLite more in statement set-up than the insert itself.
///
/// Not `Sendable`: the writer's thread owns it, and the write thread runs what it enqueues.
final class ListeningRows {
  private let db: Connection
  private let importID: Int64
  private let writes = SerialWrites()
  private let findPlays: Statement
  private let updatePlay: Statement
  /// Plays waiting to be inserted.
  private var pending: [PlayRecord] = []
  private var insertStatements: [Int: Statement] = [:]
  private var statements: [String: Statement] = [:]
  /// `apple-music,decision-log` for each set met (few sets occur); used on the write thread.
  private var sourceNames: [ListeningSources: String] = [:]
  private static let batchSize = 64
  private static let playColumns = 19

  init(db: Connection, importID: Int64) throws(StoreError) {
    self.db = db
    self.importID = importID
    findPlays = try db.prepare(
      """
      SELECT id, song_id, source, sources, start_ms, start_offset_s, offset_source, end_ms,
             end_offset_s, played_ms, media_duration_ms, was_skipped, completed, end_reason,
             start_reason, shuffle, decision
      FROM playback_events WHERE song_id = ? AND start_ms BETWEEN ? AND ? ORDER BY start_ms
      """)
    updatePlay = try db.prepare(
      """
      UPDATE playback_events SET song_id = ?, source = ?, sources = ?, start_ms = ?,
        start_offset_s = ?, offset_source = ?, end_ms = ?, end_offset_s = ?, played_ms = ?,
        media_duration_ms = ?, listen_fraction = ?, was_skipped = ?, completed = ?,
        end_reason = ?, start_reason = ?, shuffle = ?, decision = ?
      WHERE id = ?
      """)
  }

  /// Waits for the enqueued writes, whatever became of them (for paths already failing).
  func drain() { writes.drain() }

  /// Writes everything pending and waits for it: after this the owner may use the connection.
  ///
  /// - Throws: `StoreError` from the first write that failed.
  func flush() throws(StoreError) {
    send()
    try writes.sync()
  }

  /// Runs `sql` now, on the owner's thread, after the enqueued writes.
  func executeNow(_ sql: String) throws(StoreError) {
    try flush()
    try db.execute(sql)
  }

  // MARK: - Reading

  /// Every stored song.
  func songs() throws(StoreError) -> [CatalogSong] {
    try db.rows(
      """
      SELECT id, title, artist, album, genre, duration_ms, apple_catalog_id, spotify_uri,
             library_persistent_id, musicbrainz_recording_id, bpm, play_count, skip_count,
             title_key, album_key
      FROM songs
      """
    ).map { row in
      CatalogSong(
        id: row.int64("id") ?? 0, title: row.string("title"), artist: row.text("artist"),
        album: row.text("album"), genre: row.text("genre"), durationMs: row.int64("duration_ms"),
        appleCatalogID: row.text("apple_catalog_id"), spotifyURI: row.text("spotify_uri"),
        libraryPersistentID: row.text("library_persistent_id"),
        musicBrainzRecordingID: row.text("musicbrainz_recording_id"), bpm: row.double("bpm"),
        playCount: row.int("play_count"), skipCount: row.int("skip_count"),
        titleKey: row.string("title_key"), albumKey: row.string("album_key"))
    }
  }

  /// The next free play and song ids, and the span of the stored plays' starts.
  func extent() throws(StoreError) -> (
    nextPlayID: Int64, nextSongID: Int64, span: ClosedRange<Int64>?
  ) {
    let plays = try db.row(
      """
      SELECT COALESCE(MAX(id), 0) + 1 AS next_id, MIN(start_ms) AS first_ms,
             MAX(start_ms) AS last_ms
      FROM playback_events
      """)
    let songs = try db.row("SELECT COALESCE(MAX(id), 0) + 1 AS next_id FROM songs")
    var span: ClosedRange<Int64>?
    if let low = plays?.int64("first_ms"), let high = plays?.int64("last_ms") { span = low...high }
    return (plays?.int64("next_id") ?? 1, songs?.int64("next_id") ?? 1, span)
  }

  /// The stored plays of `song` starting in `span`, in start order, in full.
  func plays(of song: Int64, in span: ClosedRange<Int64>) throws(StoreError) -> [PlayRecord] {
    try flush()
    try findPlays.bind([song, span.lowerBound, span.upperBound])
    defer { findPlays.reset() }
    var plays: [PlayRecord] = []
    while try findPlays.step() {
      let row = findPlays.currentRow()
      plays.append(
        PlayRecord(
          id: row.int64("id") ?? 0, songID: row.int64("song_id") ?? 0,
          source: ListeningSource(rawValue: row.string("source")) ?? .decisionLog,
          sources: ListeningSources(names: row.string("sources")),
          startMs: row.int64("start_ms") ?? 0, startOffset: Int32(row.int("start_offset_s")),
          offsetSource: OffsetSource(rawValue: row.string("offset_source")) ?? .utc,
          endMs: row.int64("end_ms") ?? 0, endOffset: Int32(row.int("end_offset_s")),
          playedMs: row.int64("played_ms"), mediaDurationMs: row.int64("media_duration_ms"),
          wasSkipped: row.int("was_skipped") != 0, completed: row.bool("completed"),
          endReason: row.text("end_reason"), startReason: row.text("start_reason"),
          shuffle: row.bool("shuffle"), decision: row.int64("decision")))
    }
    return plays
  }

  /// The offsets the stored Health data shows, after the writes in flight.
  func healthOffsets() throws(StoreError) -> UTCOffsetTimeline {
    try flush()
    return try Store.healthOffsetTimeline(db)
  }

  /// Where the stored plays starting in `span` start, by song, in start order.
  func stamps(in span: ClosedRange<Int64>) throws(StoreError) -> [Int64: [PlayStamp]] {
    try flush()
    var stamps: [Int64: [PlayStamp]] = [:]
    for row in try db.rows(
      """
      SELECT id, song_id, start_ms, sources FROM playback_events
      WHERE start_ms BETWEEN ? AND ? ORDER BY start_ms
      """, [span.lowerBound, span.upperBound])
    {
      stamps[row.int64("song_id") ?? 0, default: []].append(
        PlayStamp(
          id: row.int64("id") ?? 0, startMs: row.int64("start_ms") ?? 0,
          sources: ListeningSources(names: row.string("sources"))))
    }
    return stamps
  }

  // MARK: - Songs and playlists

  /// Writes one change the song catalog made.
  func write(_ change: SongChange) throws(StoreError) {
    switch change {
    case .added(let song):
      execute(
        """
        INSERT INTO songs (id, identity_key, title, artist, album, genre, duration_ms,
          apple_catalog_id, spotify_uri, library_persistent_id, musicbrainz_recording_id, bpm,
          bpm_source, play_count, skip_count, title_key, album_key, first_import_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          song.id, song.identityKey, song.title, song.artist, song.album, song.genre,
          song.durationMs, song.appleCatalogID, song.spotifyURI, song.libraryPersistentID,
          song.musicBrainzRecordingID, song.bpm, Self.bpmSource(song), song.playCount,
          song.skipCount, song.titleKey, song.albumKey, importID,
        ])
    case .updated(let song):
      update(song)
    case .merged(let from, let into):
      // The plays waiting to be inserted name `from` too: they go first.
      try flush()
      execute("UPDATE playback_events SET song_id = ? WHERE song_id = ?", [into.id, from])
      execute("UPDATE playlist_songs SET song_id = ? WHERE song_id = ?", [into.id, from])
      // What analyze derived for the merged-away song goes with it; the next analyze derives
      // the merged song's from all its plays. Deleted here rather than left to the schema's
      // cascade, which does not run while a bulk import has foreign keys off.
      for table in [
        "song_effects", "song_effect_estimates", "song_context_effect_estimates", "song_features",
      ] {
        execute("DELETE FROM \(table) WHERE song_id = ?", [from])
      }
      execute("DELETE FROM songs WHERE id = ?", [from])
      update(into)
    }
  }

  private func update(_ song: CatalogSong) {
    execute(
      """
      UPDATE songs SET identity_key = ?, title = ?, artist = ?, album = ?, genre = ?,
        duration_ms = ?, apple_catalog_id = ?, spotify_uri = ?, library_persistent_id = ?,
        musicbrainz_recording_id = ?, bpm = ?, bpm_source = ?, play_count = ?, skip_count = ?,
        title_key = ?, album_key = ?
      WHERE id = ?
      """,
      [
        song.identityKey, song.title, song.artist, song.album, song.genre, song.durationMs,
        song.appleCatalogID, song.spotifyURI, song.libraryPersistentID,
        song.musicBrainzRecordingID, song.bpm, Self.bpmSource(song), song.playCount,
        song.skipCount, song.titleKey, song.albumKey, song.id,
      ])
  }

  /// `library` when the song has a tempo (only a library file gives one).
  private static func bpmSource(_ song: CatalogSong) -> String? {
    song.bpm == nil ? nil : "library"
  }

  /// The id of the playlist stored under `persistentID`, after the writes in flight.
  func playlist(persistentID: String) throws(StoreError) -> Int64? {
    try flush()
    return try db.row(
      "SELECT id FROM playlists WHERE library_persistent_id = ?", [persistentID]
    )?.int64("id")
  }

  /// Replaces playlist `id`'s name and empties it.
  func clear(playlist id: Int64, name: String) {
    execute("UPDATE playlists SET name = ? WHERE id = ?", [name, id])
    execute("DELETE FROM playlist_songs WHERE playlist_id = ?", [id])
  }

  /// Stores a new playlist and returns its id.
  func insert(playlist name: String, persistentID: String?) throws(StoreError) -> Int64 {
    execute(
      "INSERT INTO playlists (name, library_persistent_id) VALUES (?, ?)", [name, persistentID])
    try flush()
    return db.lastInsertRowID
  }

  /// Puts song `song` at `position` of playlist `playlist`.
  func add(song: Int64, to playlist: Int64, at position: Int) {
    execute(
      "INSERT INTO playlist_songs (playlist_id, position, song_id) VALUES (?, ?, ?)",
      [playlist, position, song])
  }

  // MARK: - Plays

  /// Inserts a play, with the next batch (taking it: the batch holds it, not a copy).
  func insert(_ play: consuming PlayRecord) {
    pending.append(play)
    if pending.count == Self.batchSize { send() }
  }

  /// Rewrites a stored play.
  func update(_ play: PlayRecord) {
    writes.enqueue { [self] () throws(StoreError) in
      bind(updatePlay, play, from: 1)
      updatePlay.bind(play.id, at: 18)
      try updatePlay.run()
    }
  }

  /// Deletes a stored play with its biometrics (which the schema would cascade, but not while
  /// a bulk import has foreign keys off).
  func delete(play id: Int64) {
    execute("DELETE FROM play_biometrics WHERE play_id = ?", [id])
    execute("DELETE FROM playback_events WHERE id = ?", [id])
  }

  /// Hands the pending plays to the write thread.
  private func send() {
    guard !pending.isEmpty else { return }
    let plays = pending
    pending.removeAll(keepingCapacity: true)
    writes.enqueue { [self] () throws(StoreError) in
      let statement = try insertStatement(rows: plays.count)
      // By index, each play read once in place (an enumeration would copy each, retaining its
      // strings).
      for i in plays.indices {
        bindRow(statement, plays[i], from: Int32(i * Self.playColumns + 1))
      }
      try statement.run()
    }
  }

  /// Binds a play's row for the insert, `id` and `import_id` first, from parameter `first` on.
  private func bindRow(_ s: Statement, _ play: PlayRecord, from first: Int32) {
    s.bind(play.id, at: first)
    s.bind(importID, at: first + 1)
    bind(s, play, from: first + 2)
  }

  /// Binds a play's columns from `song_id` to `decision`, from parameter `first` on (on the
  /// write thread, which alone uses `sourceNames`).
  private func bind(_ s: Statement, _ play: PlayRecord, from first: Int32) {
    func flag(_ value: Bool?) -> Int64? { value.map { $0 ? 1 : 0 } }
    s.bind(play.songID, at: first)
    s.bind(play.source.rawValue, at: first + 1)
    s.bind(names(of: play.sources), at: first + 2)
    s.bind(play.startMs, at: first + 3)
    s.bind(Int64(play.startOffset), at: first + 4)
    s.bind(play.offsetSource.rawValue, at: first + 5)
    s.bind(play.endMs, at: first + 6)
    s.bind(Int64(play.endOffset), at: first + 7)
    s.bind(play.playedMs, at: first + 8)
    s.bind(play.mediaDurationMs, at: first + 9)
    s.bind(play.listenFraction, at: first + 10)
    s.bind(Int64(play.wasSkipped ? 1 : 0), at: first + 11)
    s.bind(flag(play.completed), at: first + 12)
    s.bind(play.endReason, at: first + 13)
    s.bind(play.startReason, at: first + 14)
    s.bind(flag(play.shuffle), at: first + 15)
    s.bind(play.decision, at: first + 16)
  }

  private func names(of sources: ListeningSources) -> String {
    if let names = sourceNames[sources] { return names }
    let names = sources.names
    sourceNames[sources] = names
    return names
  }

  /// The statement inserting `count` plays at once.
  private func insertStatement(rows count: Int) throws(StoreError) -> Statement {
    if let statement = insertStatements[count] { return statement }
    let row = "(" + Array(repeating: "?", count: Self.playColumns).joined(separator: ", ") + ")"
    let statement = try db.prepare(
      """
      INSERT INTO playback_events (id, import_id, song_id, source, sources, start_ms,
        start_offset_s, offset_source, end_ms, end_offset_s, played_ms, media_duration_ms,
        listen_fraction, was_skipped, completed, end_reason, start_reason, shuffle, decision)
      VALUES \(Array(repeating: row, count: count).joined(separator: ", "))
      """)
    insertStatements[count] = statement
    return statement
  }

  /// Enqueues `sql` for the write thread, through a statement prepared once.
  private func execute(_ sql: String, _ arguments: [any SQLiteBindable]) {
    writes.enqueue { [self] () throws(StoreError) in
      if let statement = statements[sql] {
        try statement.execute(arguments)
        return
      }
      let statement = try db.prepare(sql)
      statements[sql] = statement
      try statement.execute(arguments)
    }
  }
}
