import ResonanceModel

/// Writes listening files into the store inside the caller's transaction: one Song row per
/// real song across every source, and one play per listen however many sources report it.
///
/// **Song identity.** A reference resolves, in order, by a shared identifier (Apple catalog
/// ID, Spotify URI, library Persistent ID), by its artist and title keys (`SongIdentity`), and
/// — for Apple's play log, which names no artist — by title and album, or by title alone when
/// exactly one known song has it and the albums do not contradict. A reference that resolves
/// to nothing becomes a new song; one without an artist stays *unresolved* until a later
/// file (a library, Apple's daily summaries) names its artist, when it is merged into the
/// song that file describes, plays and all.
///
/// **One listen, one play.** A play whose song already has a play from *another* source
/// starting within `mergeToleranceMs` is the same listen: the rows merge, and the source that
/// ranks higher (Apple Music and Spotify, then Spotify's account history, then Last.fm, then
/// the decision log) decides start, duration and skip; the other fills what is missing. A
/// play from a source that already reported a play of the song at the same instant is a
/// duplicate (two downloads of one history) and is not stored again.
package final class ListeningWriter {
  /// How far apart two sources' start times of one listen may be.
  package static let mergeToleranceMs: Int64 = 90_000

  package private(set) var counts = ListeningCounts()

  private struct SongState {
    var id: Int64
    var title: String
    var artist: String?
    var album: String?
    var genre: String?
    var durationMs: Int64?
    var catalogID: String?
    var spotifyURI: String?
    var persistentID: String?
    var bpm: Double?
    var playCount: Int
    var skipCount: Int
    var titleKey: String
    var albumKey: String
  }

  private struct PlayRow {
    var id: Int64
    var songID: Int64
    var source: ListeningSource
    var sources: SourceSet
    var startMs: Int64
    var startOffset: Int32
    var offsetSource: String
    var endMs: Int64
    var endOffset: Int32
    var playedMs: Int64?
    var mediaMs: Int64?
    var wasSkipped: Bool
    var completed: Bool?
    var endReason: String?
    var startReason: String?
    var shuffle: Bool?
    var decision: Int64?
  }

  private let db: Connection
  private let importID: Int64
  private var songs: [Int64: SongState] = [:]
  private var byCatalog: [String: Int64] = [:]
  private var bySpotify: [String: Int64] = [:]
  private var byLibrary: [String: Int64] = [:]
  private var byName: [String: Int64] = [:]
  private var byTitleAlbum: [String: [Int64]] = [:]
  private var byTitle: [String: [Int64]] = [:]
  private var unresolved: [String: Int64] = [:]
  private var keyCache: [String: String] = [:]
  private var songIndexSetAside = false
  private var sourcesText: [SourceSet: String] = [:]
  /// References already resolved in this file (most plays repeat a song); emptied when songs
  /// merge, since ids change then.
  /// Keyed by title alone (hashing one string, not eleven fields); the whole reference is
  /// compared on a hit.
  private var resolved: [String: [(reference: SongReference, id: Int64)]] = [:]

  /// A stored play as the merge check needs it.
  private struct IndexedPlay {
    var id: Int64
    var startMs: Int64
    var sources: SourceSet
  }

  /// The stored plays of a time span, by song, sorted by start: loaded a month at a time
  /// (`ensureIndex`) so that each play is checked in memory, not with a query.
  private var index: [Int64: [IndexedPlay]] = [:]
  private var indexRange: ClosedRange<Int64>?

  private let findPlays: Statement
  private let updatePlay: Statement
  /// Plays waiting to be inserted, many rows per statement: one statement per row costs
  /// SQLite more in statement set-up than in the insert itself.
  private var pending: [PlayRow] = []
  /// Writes run on their own thread; reads wait for them (`SerialWrites`).
  private let writes = SerialWrites()
  /// Ids are given here, not by SQLite, so that rows can be written later on the write
  /// thread: the writer owns the transaction, and rowids follow the largest one.
  private var nextPlayID: Int64 = 1
  private var nextSongID: Int64 = 1
  /// The span of the plays stored before this file: the index loads only what overlaps it.
  private var storedSpan: ClosedRange<Int64>?
  private var insertStatements: [Int: Statement] = [:]
  private var statements: [String: Statement] = [:]
  private static let batchSize = 64
  private static let playColumns = 19

  /// Where plays without a UTC offset of their own take one, and how many took each.
  private var offsets: PlayOffsets

  /// Plays whose UTC offset came from each place.
  package var offsetSources: [OffsetSource: Int] { offsets.counts }

  /// Loads the songs the store knows, for resolving the file's references.
  ///
  /// - Parameter zone: the zone for plays whose source records no offset and whose moment the
  ///   Health data does not cover.
  init(store: Store, importID: Int64, zone: TimeZoneFallback) throws(StoreError) {
    db = store.connection
    self.importID = importID
    offsets = PlayOffsets(zone: zone)
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
    for row in try db.rows(
      """
      SELECT id, title, artist, album, genre, duration_ms, apple_catalog_id, spotify_uri,
             library_persistent_id, bpm, play_count, skip_count, title_key, album_key
      FROM songs
      """)
    {
      let song = SongState(
        id: row.optionalInt64(0) ?? 0, title: row.string(1), artist: row[2].string,
        album: row[3].string, genre: row[4].string, durationMs: row.optionalInt64(5),
        catalogID: row[6].string, spotifyURI: row[7].string, persistentID: row[8].string,
        bpm: row[9].double, playCount: row.int(10), skipCount: row.int(11),
        titleKey: row.string(12), albumKey: row.string(13))
      register(song)
    }
    if let row = try db.row(
      "SELECT COALESCE(MAX(id), 0) + 1, MIN(start_ms), MAX(start_ms) FROM playback_events")
    {
      nextPlayID = row.optionalInt64(0) ?? 1
      if let low = row.optionalInt64(1), let high = row.optionalInt64(2) { storedSpan = low...high }
    }
    nextSongID = try db.row("SELECT COALESCE(MAX(id), 0) + 1 FROM songs")?.optionalInt64(0) ?? 1
  }

  /// Waits for the enqueued writes, whatever became of them. Call it (in a `defer`) before the
  /// transaction ends: on a failing path the writes must be over before the rollback. The
  /// writes hold the writer, so it cannot do this when it goes away.
  package func waitForWrites() { writes.drain() }

  // MARK: - Songs

  /// The song a reference names, created or completed as needed.
  @discardableResult
  package func song(for reference: SongReference, isLibrary: Bool = false) throws(StoreError)
    -> Int64
  {
    let cacheKey = reference.title ?? reference.appleCatalogID ?? reference.spotifyURI ?? ""
    if !isLibrary, let hit = resolved[cacheKey]?.first(where: { $0.reference == reference }) {
      return hit.id
    }
    let id: Int64
    if let found = find(reference) {
      id = try enrich(found, with: reference, isLibrary: isLibrary)
    } else {
      id = try create(reference)
    }
    resolved[cacheKey, default: []].append((reference, id))
    return id
  }

  /// Adds a library's or summary's songs (no plays). A library's spelling of title, artist
  /// and album replaces what plays spelled, so the names do not depend on import order.
  package func addSongs(_ references: [SongReference], isLibrary: Bool) throws(StoreError) {
    for reference in references { try song(for: reference, isLibrary: isLibrary) }
  }

  /// Adds playlists, replacing the songs of one already stored under the same Persistent ID.
  package func addPlaylists(_ playlists: [PlaylistReference]) throws(StoreError) {
    for playlist in playlists {
      var playlistID: Int64?
      try flush()
      if let pid = playlist.libraryPersistentID {
        playlistID = try db.row(
          "SELECT id FROM playlists WHERE library_persistent_id = ?", [pid])?.optionalInt64(0)
      }
      if let id = playlistID {
        try execute("UPDATE playlists SET name = ? WHERE id = ?", [playlist.name, id])
        try execute("DELETE FROM playlist_songs WHERE playlist_id = ?", [id])
      } else {
        try execute(
          "INSERT INTO playlists (name, library_persistent_id) VALUES (?, ?)",
          [playlist.name, playlist.libraryPersistentID])
        try flush()
        playlistID = db.lastInsertRowID
      }
      for (position, reference) in playlist.songs.enumerated() {
        let songID = try song(for: reference)
        try execute(
          "INSERT INTO playlist_songs (playlist_id, position, song_id) VALUES (?, ?, ?)",
          [playlistID ?? 0, position, songID])
      }
      counts.playlists += 1
    }
  }

  private func key(_ text: String, _ make: (String) -> String, tag: Character) -> String {
    let cacheKey = "\(tag)\u{1F}\(text)"
    if let cached = keyCache[cacheKey] { return cached }
    let value = make(text)
    keyCache[cacheKey] = value
    return value
  }

  private func titleKey(_ title: String) -> String { key(title, SongIdentity.titleKey, tag: "t") }
  private func artistKey(_ artist: String) -> String {
    key(artist, SongIdentity.artistKey, tag: "a")
  }
  private func albumKey(_ album: String?) -> String {
    album.map { key($0, SongIdentity.albumKey, tag: "b") } ?? ""
  }

  private func nameKey(artist: String, titleKey: String) -> String {
    artistKey(artist) + "|" + titleKey
  }

  private func find(_ reference: SongReference) -> Int64? {
    if let c = reference.appleCatalogID, let id = byCatalog[c] { return id }
    if let u = reference.spotifyURI, let id = bySpotify[u] { return id }
    if let p = reference.libraryPersistentID, let id = byLibrary[p] { return id }
    guard let title = nonEmpty(reference.title) else {
      // Nothing names it: all such references share the one "unnamed" song.
      let named = reference.appleCatalogID ?? reference.spotifyURI ?? reference.libraryPersistentID
      return named == nil ? songs.values.first { identityKey($0) == "unnamed" }?.id : nil
    }
    let tk = titleKey(title)
    if let artist = nonEmpty(reference.artist) {
      return byName[nameKey(artist: artist, titleKey: tk)]
    }
    let ak = albumKey(reference.album)
    return match(titleKey: tk, albumKey: ak, durationMs: reference.durationMs)
      ?? unresolved[tk + "|" + ak]
  }

  /// The one song with an artist that an artistless title (and album) can only mean.
  /// Two songs of one title on one album (different artists) are told apart by duration,
  /// when the reference has one: the same recording's length agrees to within 2 seconds.
  private func match(titleKey tk: String, albumKey ak: String, durationMs: Int64?) -> Int64? {
    if !ak.isEmpty, let ids = byTitleAlbum[tk + "|" + ak] {
      if ids.count == 1 { return ids[0] }
      guard let duration = durationMs else { return nil }
      let sameLength = ids.filter { id in
        songs[id]?.durationMs.map { abs($0 - duration) <= 2_000 } ?? false
      }
      return sameLength.count == 1 ? sameLength[0] : nil
    }
    guard let ids = byTitle[tk], ids.count == 1, let song = songs[ids[0]] else { return nil }
    return ak.isEmpty || song.albumKey.isEmpty ? song.id : nil
  }

  private func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }

  private func identityKey(_ song: SongState) -> String {
    if let artist = song.artist, !song.title.isEmpty {
      return "name:" + nameKey(artist: artist, titleKey: song.titleKey)
    }
    if !song.title.isEmpty { return "title:" + song.titleKey + "|" + song.albumKey }
    if let c = song.catalogID { return "apple:" + c }
    if let u = song.spotifyURI { return "spotify:" + u }
    if let p = song.persistentID { return "library:" + p }
    // A reference with neither a title nor an identifier cannot be stored (the readers never
    // make one); one key for all of them keeps the rule total.
    return "unnamed"
  }

  private func register(_ song: SongState) {
    songs[song.id] = song
    if let c = song.catalogID { byCatalog[c] = song.id }
    if let u = song.spotifyURI { bySpotify[u] = song.id }
    if let p = song.persistentID { byLibrary[p] = song.id }
    guard !song.title.isEmpty else { return }
    if let artist = song.artist {
      byName[nameKey(artist: artist, titleKey: song.titleKey)] = song.id
      if !song.albumKey.isEmpty {
        byTitleAlbum[song.titleKey + "|" + song.albumKey, default: []].append(song.id)
      }
      byTitle[song.titleKey, default: []].append(song.id)
    } else {
      unresolved[song.titleKey + "|" + song.albumKey] = song.id
    }
  }

  private func unregister(_ song: SongState) {
    songs[song.id] = nil
    if let c = song.catalogID, byCatalog[c] == song.id { byCatalog[c] = nil }
    if let u = song.spotifyURI, bySpotify[u] == song.id { bySpotify[u] = nil }
    if let p = song.persistentID, byLibrary[p] == song.id { byLibrary[p] = nil }
    guard !song.title.isEmpty else { return }
    if let artist = song.artist {
      let name = nameKey(artist: artist, titleKey: song.titleKey)
      if byName[name] == song.id { byName[name] = nil }
      byTitleAlbum[song.titleKey + "|" + song.albumKey]?.removeAll { $0 == song.id }
      byTitle[song.titleKey]?.removeAll { $0 == song.id }
    } else {
      let key = song.titleKey + "|" + song.albumKey
      if unresolved[key] == song.id { unresolved[key] = nil }
    }
  }

  private func create(_ r: SongReference) throws(StoreError) -> Int64 {
    defer { nextSongID += 1 }
    let song = SongState(
      id: nextSongID, title: r.title ?? "", artist: nonEmpty(r.artist), album: nonEmpty(r.album),
      genre: nonEmpty(r.genre), durationMs: r.durationMs, catalogID: r.appleCatalogID,
      spotifyURI: r.spotifyURI, persistentID: r.libraryPersistentID, bpm: r.bpm,
      playCount: r.playCount ?? 0, skipCount: r.skipCount ?? 0,
      titleKey: r.title.map(titleKey) ?? "", albumKey: albumKey(nonEmpty(r.album)))
    try execute(
      """
      INSERT INTO songs (id, identity_key, title, artist, album, genre, duration_ms,
        apple_catalog_id, spotify_uri, library_persistent_id, bpm, bpm_source, play_count,
        skip_count, title_key, album_key, first_import_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        song.id, identityKey(song), song.title, song.artist, song.album, song.genre,
        song.durationMs, song.catalogID, song.spotifyURI, song.persistentID, song.bpm,
        song.bpm == nil ? nil : "library", song.playCount, song.skipCount, song.titleKey,
        song.albumKey, importID,
      ])
    register(song)
    counts.songsAdded += 1
    return song.id
  }

  /// Fills what the song lacks from the reference; when that gives it an artist another song
  /// already has with the same title, the two are one song and merge.
  private func enrich(_ id: Int64, with r: SongReference, isLibrary: Bool) throws(StoreError)
    -> Int64
  {
    guard let old = songs[id] else { return id }
    var song = old
    if song.title.isEmpty || isLibrary, let title = nonEmpty(r.title) {
      song.title = title
      song.titleKey = titleKey(title)
    }
    if song.artist == nil || isLibrary, let artist = nonEmpty(r.artist) { song.artist = artist }
    if song.album == nil || isLibrary, let album = nonEmpty(r.album) {
      song.album = album
      song.albumKey = albumKey(album)
    }
    if song.genre == nil { song.genre = nonEmpty(r.genre) }
    if song.durationMs == nil { song.durationMs = r.durationMs }
    if song.catalogID == nil, let c = r.appleCatalogID, byCatalog[c] == nil { song.catalogID = c }
    if song.spotifyURI == nil, let u = r.spotifyURI, bySpotify[u] == nil { song.spotifyURI = u }
    if song.persistentID == nil, let p = r.libraryPersistentID, byLibrary[p] == nil {
      song.persistentID = p
    }
    if let bpm = r.bpm { song.bpm = bpm }
    if let n = r.playCount { song.playCount = max(song.playCount, n) }
    if let n = r.skipCount { song.skipCount = max(song.skipCount, n) }
    guard !sameFields(song, old) else { return id }

    unregister(old)
    // Gaining a name can reveal that another row is the same song.
    var target = id
    if !song.title.isEmpty, identityKey(song) != identityKey(old) {
      let other =
        song.artist.map { byName[nameKey(artist: $0, titleKey: song.titleKey)] }
        ?? unresolved[song.titleKey + "|" + song.albumKey]
      if let other, other != id { target = other }
    }
    if target != id, let into = songs[target] {
      try merge(song, into: into)
      // The surviving row takes a library's spelling too.
      return isLibrary ? try enrich(target, with: r, isLibrary: true) : target
    }
    try write(song, identity: identityKey(song))
    register(song)
    return id
  }

  private func sameFields(_ a: SongState, _ b: SongState) -> Bool {
    a.title == b.title && a.artist == b.artist && a.album == b.album && a.genre == b.genre
      && a.durationMs == b.durationMs && a.catalogID == b.catalogID
      && a.spotifyURI == b.spotifyURI && a.persistentID == b.persistentID && a.bpm == b.bpm
      && a.playCount == b.playCount && a.skipCount == b.skipCount
  }

  private func write(_ song: SongState, identity: String) throws(StoreError) {
    try execute(
      """
      UPDATE songs SET identity_key = ?, title = ?, artist = ?, album = ?, genre = ?,
        duration_ms = ?, apple_catalog_id = ?, spotify_uri = ?, library_persistent_id = ?,
        bpm = ?, bpm_source = ?, play_count = ?, skip_count = ?, title_key = ?, album_key = ?
      WHERE id = ?
      """,
      [
        identity, song.title, song.artist, song.album, song.genre, song.durationMs,
        song.catalogID, song.spotifyURI, song.persistentID, song.bpm,
        song.bpm == nil ? nil : "library", song.playCount, song.skipCount, song.titleKey,
        song.albumKey, song.id,
      ])
  }

  /// Merges song `from` into `into`: its plays and playlist entries move, `into` gains the
  /// fields it lacked, `from` is deleted, and plays that now collide merge.
  private func merge(_ from: SongState, into: SongState) throws(StoreError) {
    try flush()
    unregister(into)
    var target = into
    if target.album == nil, let album = from.album {
      target.album = album
      target.albumKey = from.albumKey
    }
    if target.genre == nil { target.genre = from.genre }
    if target.durationMs == nil { target.durationMs = from.durationMs }
    if target.catalogID == nil { target.catalogID = from.catalogID }
    if target.spotifyURI == nil { target.spotifyURI = from.spotifyURI }
    if target.persistentID == nil { target.persistentID = from.persistentID }
    if target.bpm == nil { target.bpm = from.bpm }
    target.playCount = max(target.playCount, from.playCount)
    target.skipCount = max(target.skipCount, from.skipCount)
    try execute(
      "UPDATE playback_events SET song_id = ? WHERE song_id = ?", [target.id, from.id])
    try execute(
      "UPDATE playlist_songs SET song_id = ? WHERE song_id = ?", [target.id, from.id])
    // What analyze derived for the merged-away song goes with it; the next analyze derives the
    // merged song's from all its plays. Deleted here rather than left to the schema's cascade,
    // which does not run while a bulk import has foreign keys off.
    try execute("DELETE FROM song_effects WHERE song_id = ?", [from.id])
    try execute("DELETE FROM song_effect_estimates WHERE song_id = ?", [from.id])
    try execute("DELETE FROM song_features WHERE song_id = ?", [from.id])
    try execute("DELETE FROM songs WHERE id = ?", [from.id])
    try write(target, identity: identityKey(target))
    register(target)
    counts.songsMerged += 1
    resolved.removeAll()
    index[from.id] = nil
    try mergeCollidingPlays(of: target.id)
  }

  /// Ends the file: gives unresolved songs another chance now that the file's songs are
  /// known, and restores the per-song play index if a bulk load set it aside.
  package func finish() throws(StoreError) {
    try flush()
    try resolvePending()
    try ensureSongIndex()
  }

  /// Sets the per-song play index aside for a large file, to be rebuilt once at the end:
  /// keeping it up to date row by row costs more than sorting it afresh (its inserts land all
  /// over the tree). Checks during the load use the in-memory index.
  package func beginBulkLoad(plays: Int) throws(StoreError) {
    guard plays >= Self.bulkThreshold, !songIndexSetAside else { return }
    try flush()
    try db.execute("DROP INDEX IF EXISTS playback_events_song")
    songIndexSetAside = true
  }

  /// Files with at least this many plays load without the per-song index.
  package static let bulkThreshold = 50_000

  private func ensureSongIndex() throws(StoreError) {
    guard songIndexSetAside else { return }
    try flush()
    // SQLite's sorter may use a second thread for the build; each thread sorts up to the page
    // cache's size in memory before it spills, so the cache is made smaller for the build.
    try db.execute("PRAGMA threads = 2")
    try db.execute("PRAGMA cache_size = -4096")
    try db.execute(
      "CREATE INDEX IF NOT EXISTS playback_events_song ON playback_events (song_id, start_ms)")
    try db.execute("PRAGMA threads = 0")
    try db.execute("PRAGMA cache_size = \(Store.cacheSizePragma)")
    songIndexSetAside = false
  }

  /// Gives unresolved songs (no artist) another chance once the file's songs are known.
  private func resolvePending() throws(StoreError) {
    let pending = songs.values.filter { $0.artist == nil && !$0.title.isEmpty }
    for song in pending {
      guard let current = songs[song.id],
        let target = match(
          titleKey: current.titleKey, albumKey: current.albumKey, durationMs: current.durationMs),
        target != current.id, let into = songs[target]
      else { continue }
      unregister(current)
      try merge(current, into: into)
    }
  }

  // MARK: - Plays

  /// Stores plays, each with its UTC offset: the one its source records, else the Health
  /// data's at that moment, else the user's zone, else UTC.
  package func add(_ plays: [PlayReport]) throws(StoreError) {
    for play in plays {
      let (offset, source) = try offset(for: play)
      try add(play, offset: offset, offsetSource: source.rawValue)
    }
  }

  /// The offset a play takes, and where it came from. The Health data's offsets are read from
  /// the store the first time a play needs them, after the writes in flight (the connection is
  /// never used by two threads at once).
  private func offset(for play: PlayReport) throws(StoreError) -> (Int32, OffsetSource) {
    if let offset = play.utcOffsetSeconds { return offsets.took(offset, .source) }
    if offsets.timeline == nil {
      try flush()
      offsets.timeline = try Store.healthOffsetTimeline(db)
    }
    if let health = offsets.timeline?.offset(atMs: play.startMs) {
      return offsets.took(health, .health)
    }
    if let user = offsets.zone.offset(atMs: play.startMs) { return offsets.took(user, .user) }
    return offsets.took(0, .utc)
  }

  /// Stores one play: new, merged into another source's report of the same listen, or
  /// recognised as already stored.
  func add(_ play: PlayReport, offset: Int32, offsetSource: String) throws(StoreError) {
    let songID = try song(for: play.song)
    let low = play.startMs - Self.mergeToleranceMs
    let high = play.startMs + Self.mergeToleranceMs
    try ensureIndex(low, high)
    let near = nearby(songID, low, high)
    if near.contains(where: { $0.sources.contains(play.source) && $0.startMs == play.startMs }) {
      counts.playsAlreadyStored += 1
      return
    }
    let candidates =
      near.contains { !$0.sources.contains(play.source) }
      ? try plays(of: songID, from: low, to: high) : []
    if candidates.contains(where: { $0.sources.contains(play.source) && $0.startMs == play.startMs }
    ) {
      counts.playsAlreadyStored += 1
      return
    }
    let incoming = PlayRow(
      id: 0, songID: songID, source: play.source, sources: SourceSet(play.source),
      startMs: play.startMs,
      startOffset: offset, offsetSource: offsetSource, endMs: max(play.endMs, play.startMs),
      endOffset: offset, playedMs: play.playedMs, mediaMs: play.mediaDurationMs,
      wasSkipped: play.wasSkipped, completed: play.completed, endReason: play.endReason,
      startReason: play.startReason, shuffle: play.shuffle, decision: play.decision.map(Int64.init))
    let other = candidates.filter { $0.sources.isDisjoint(with: incoming.sources) }
      .min { abs($0.startMs - play.startMs) < abs($1.startMs - play.startMs) }
    if let other {
      var merged = combine(other, incoming)
      merged.id = other.id
      update(merged)
      remember(merged, isNew: false)
      counts.playsMerged += 1
      return
    }
    var row = incoming
    row.id = nextPlayID
    nextPlayID += 1
    remember(row, isNew: true)
    insert(row)
    counts.playsAdded += 1
    // Once in the store, this file's plays are found like the ones before it.
    storedSpan =
      storedSpan.map { min($0.lowerBound, row.startMs)...max($0.upperBound, row.startMs) }
      ?? row.startMs...row.startMs
    addsSinceTrim += 1
    if addsSinceTrim >= Self.trimInterval {
      addsSinceTrim = 0
      trimIndex(before: row.startMs - Self.windowMs)
    }
  }

  /// Plays added between two trims of the index.
  private static let trimInterval = 65_536
  private var addsSinceTrim = 0

  /// Drops the index's plays that start before `low`, so that a long file in time order keeps
  /// a month or two of plays in memory rather than all of them. A later play that reaches
  /// back before `low` loads that span again from the store, where they are (written by then).
  private func trimIndex(before low: Int64) {
    guard let range = indexRange, low > range.lowerBound, low <= range.upperBound else { return }
    for (song, plays) in index {
      let cut = firstIndex(plays, atOrAfter: low)
      if cut == plays.count {
        index[song] = nil
      } else if cut > 0 {
        index[song] = Array(plays[cut...])
      }
    }
    indexRange = low...range.upperBound
  }

  /// How much of the stored history the in-memory index loads at a time.
  private static let windowMs: Int64 = 30 * 86_400_000

  /// Makes the in-memory index cover [low, high], loading the stored plays of the missing span
  /// (a month at a time, so a file in time order loads each span once). The index always
  /// covers one contiguous span.
  private func ensureIndex(_ low: Int64, _ high: Int64) throws(StoreError) {
    guard let range = indexRange else {
      for (song, plays) in try load(low...(high + Self.windowMs)) { index[song] = plays }
      indexRange = low...(high + Self.windowMs)
      return
    }
    if low < range.lowerBound {
      let span = min(low, range.lowerBound - Self.windowMs)...(range.lowerBound - 1)
      for (song, plays) in try load(span) {
        index[song, default: []].insert(contentsOf: plays, at: 0)
      }
      indexRange = span.lowerBound...range.upperBound
    }
    if high > range.upperBound, let current = indexRange {
      let span = (current.upperBound + 1)...max(high, current.upperBound + Self.windowMs)
      for (song, plays) in try load(span) { index[song, default: []].append(contentsOf: plays) }
      indexRange = current.lowerBound...span.upperBound
    }
  }

  /// The stored plays starting in `span`, by song, in start order. Only plays stored before
  /// this file can be there (this file's are in the index as they are added), so a span
  /// outside theirs is not read at all.
  private func load(_ span: ClosedRange<Int64>) throws(StoreError) -> [Int64: [IndexedPlay]] {
    guard let stored = storedSpan, stored.overlaps(span) else { return [:] }
    try flush()
    var loaded: [Int64: [IndexedPlay]] = [:]
    for row in try db.rows(
      """
      SELECT id, song_id, start_ms, sources FROM playback_events
      WHERE start_ms BETWEEN ? AND ? ORDER BY start_ms
      """, [span.lowerBound, span.upperBound])
    {
      loaded[row.optionalInt64(1) ?? 0, default: []].append(
        IndexedPlay(
          id: row.optionalInt64(0) ?? 0, startMs: row.optionalInt64(2) ?? 0,
          sources: Self.sources(row.string(3))))
    }
    return loaded
  }

  private static func sources(_ text: String) -> SourceSet {
    var set = SourceSet()
    for name in text.split(separator: ",") {
      if let source = ListeningSource(rawValue: String(name)) { set.insert(SourceSet(source)) }
    }
    return set
  }

  /// The indexed plays of a song starting in [low, high] (a copy: a slice would keep the
  /// song's array shared, and the next append would copy all of it).
  private func nearby(_ songID: Int64, _ low: Int64, _ high: Int64) -> [IndexedPlay] {
    guard let plays = index[songID] else { return [] }
    var i = firstIndex(plays, atOrAfter: low)
    var near: [IndexedPlay] = []
    while i < plays.count, plays[i].startMs <= high {
      near.append(plays[i])
      i += 1
    }
    return near
  }

  private func firstIndex(_ plays: [IndexedPlay], atOrAfter ms: Int64) -> Int {
    plays.partitioningIndex { $0.startMs >= ms }
  }

  /// Keeps the index in step with a play just written, in place (the arrays are not copied).
  /// A merged row may have moved: its old entry goes first.
  private func remember(_ row: PlayRow, isNew: Bool) {
    guard let range = indexRange else { return }
    if !isNew { index[row.songID]?.removeAll { $0.id == row.id } }
    guard range.contains(row.startMs) else { return }
    let entry = IndexedPlay(id: row.id, startMs: row.startMs, sources: row.sources)
    if let last = index[row.songID]?.last, last.startMs > row.startMs {
      let i = firstIndex(index[row.songID]!, atOrAfter: row.startMs)
      index[row.songID]!.insert(entry, at: i)
    } else {
      index[row.songID, default: []].append(entry)
    }
  }

  private static func rank(_ source: ListeningSource) -> Int {
    switch source {
    case .appleMusic, .spotify: 4
    case .spotifyAccount: 3
    case .lastFM: 2
    case .decisionLog: 1
    }
  }

  /// One listen from two reports: the higher-ranked source decides; the other fills gaps.
  private func combine(_ a: PlayRow, _ b: PlayRow) -> PlayRow {
    let (lead, other) = Self.rank(b.source) > Self.rank(a.source) ? (b, a) : (a, b)
    var row = lead
    row.sources = a.sources.union(b.sources)
    if row.offsetSource != "source", other.offsetSource == "source" {
      row.startOffset = other.startOffset
      row.endOffset = other.endOffset
      row.offsetSource = "source"
    }
    row.playedMs = row.playedMs ?? other.playedMs
    row.mediaMs = row.mediaMs ?? other.mediaMs
    row.completed = row.completed ?? other.completed
    row.endReason = row.endReason ?? other.endReason
    row.startReason = row.startReason ?? other.startReason
    row.shuffle = row.shuffle ?? other.shuffle
    row.decision = row.decision ?? other.decision
    if row.playedMs == nil, row.endMs == row.startMs { row.endMs = max(row.endMs, other.endMs) }
    return row
  }

  private func plays(of songID: Int64, from: Int64, to: Int64) throws(StoreError) -> [PlayRow] {
    try flush()
    try findPlays.bind([songID, from, to])
    var rows: [PlayRow] = []
    while try findPlays.step() {
      let r = findPlays.currentRow()
      func bool(_ i: Int) -> Bool? { r.optionalInt64(i).map { $0 != 0 } }
      rows.append(
        PlayRow(
          id: r.optionalInt64(0) ?? 0, songID: r.optionalInt64(1) ?? 0,
          source: ListeningSource(rawValue: r.string(2)) ?? .decisionLog,
          sources: Self.sources(r.string(3)),
          startMs: r.optionalInt64(4) ?? 0, startOffset: Int32(r.int(5)),
          offsetSource: r.string(6), endMs: r.optionalInt64(7) ?? 0,
          endOffset: Int32(r.int(8)), playedMs: r.optionalInt64(9), mediaMs: r.optionalInt64(10),
          wasSkipped: r.int(11) != 0, completed: bool(12), endReason: r[13].string,
          startReason: r[14].string, shuffle: bool(15), decision: r.optionalInt64(16)))
    }
    findPlays.reset()
    return rows
  }

  private func bind(_ s: Statement, _ row: PlayRow, from first: Int32) {
    func flag(_ value: Bool?) -> Int64? { value.map { $0 ? 1 : 0 } }
    let fraction: Double? =
      if let played = row.playedMs, let media = row.mediaMs, media > 0 {
        min(1, Double(played) / Double(media))
      } else { nil }
    var i = first
    func next() -> Int32 {
      defer { i += 1 }
      return i
    }
    s.bind(row.songID, at: next())
    s.bind(row.source.rawValue, at: next())
    s.bind(text(of: row.sources), at: next())
    s.bind(row.startMs, at: next())
    s.bind(Int64(row.startOffset), at: next())
    s.bind(row.offsetSource, at: next())
    s.bind(row.endMs, at: next())
    s.bind(Int64(row.endOffset), at: next())
    s.bind(row.playedMs, at: next())
    s.bind(row.mediaMs, at: next())
    s.bind(fraction, at: next())
    s.bind(Int64(row.wasSkipped ? 1 : 0), at: next())
    s.bind(flag(row.completed), at: next())
    s.bind(row.endReason, at: next())
    s.bind(row.startReason, at: next())
    s.bind(flag(row.shuffle), at: next())
    s.bind(row.decision, at: next())
  }

  /// `apple-music,decision-log`: the sources, sorted, comma-separated (cached: few sets occur).
  private func text(of sources: SourceSet) -> String {
    if let text = sourcesText[sources] { return text }
    let text = ListeningSource.allCases.filter { sources.contains($0) }.map(\.rawValue).sorted()
      .joined(separator: ",")
    sourcesText[sources] = text
    return text
  }

  /// Enqueues `sql` for the write thread, through a statement prepared once per writer.
  private func execute(_ sql: String, _ arguments: [any SQLiteBindable]) throws(StoreError) {
    writes.enqueue { [self] () throws(StoreError) in try run(sql, arguments) }
  }

  /// Runs `sql` now: on the write thread, or on the owner's after `flush()`.
  private func run(_ sql: String, _ arguments: [any SQLiteBindable]) throws(StoreError) {
    if let statement = statements[sql] {
      try statement.execute(arguments)
      return
    }
    let statement = try db.prepare(sql)
    statements[sql] = statement
    try statement.execute(arguments)
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

  /// Deletes a stored play with its biometrics (which the schema would cascade, but not while
  /// a bulk import has foreign keys off).
  private func delete(play id: Int64) throws(StoreError) {
    try execute("DELETE FROM play_biometrics WHERE play_id = ?", [id])
    try execute("DELETE FROM playback_events WHERE id = ?", [id])
  }

  /// Hands the pending plays to the write thread.
  private func send() {
    guard !pending.isEmpty else { return }
    let rows = pending
    pending.removeAll(keepingCapacity: true)
    writes.enqueue { [self] () throws(StoreError) in
      let statement = try insertStatement(rows: rows.count)
      for (i, row) in rows.enumerated() {
        let first = Int32(i * Self.playColumns + 1)
        statement.bind(row.id, at: first)
        statement.bind(importID, at: first + 1)
        bind(statement, row, from: first + 2)
      }
      try statement.run()
    }
  }

  /// Writes everything pending and waits for it: after this the owner may use the connection.
  private func flush() throws(StoreError) {
    send()
    try writes.sync()
  }

  private func insert(_ row: PlayRow) {
    pending.append(row)
    if pending.count == Self.batchSize { send() }
  }

  private func update(_ row: PlayRow) {
    writes.enqueue { [self] () throws(StoreError) in
      bind(updatePlay, row, from: 1)
      updatePlay.bind(row.id, at: 18)
      try updatePlay.run()
    }
  }

  /// After a song merge: neighbouring plays of the song from disjoint sources within the
  /// tolerance are one listen.
  private func mergeCollidingPlays(of songID: Int64) throws(StoreError) {
    try ensureSongIndex()
    let all = try plays(of: songID, from: Int64.min, to: Int64.max)
    var kept: [PlayRow] = []
    for row in all {
      if let last = kept.last, row.startMs - last.startMs <= Self.mergeToleranceMs,
        last.sources.isDisjoint(with: row.sources)
      {
        var merged = combine(last, row)
        merged.id = last.id
        kept[kept.count - 1] = merged
        update(merged)
        try delete(play: row.id)
        counts.playsMerged += 1
      } else if let last = kept.last, row.startMs == last.startMs, last.sources == row.sources {
        try delete(play: row.id)
        counts.playsAlreadyStored += 1
      } else {
        kept.append(row)
      }
    }
    if let range = indexRange {
      index[songID] = kept.filter { range.contains($0.startMs) }.map {
        IndexedPlay(id: $0.id, startMs: $0.startMs, sources: $0.sources)
      }
    }
  }
}

/// The sources that reported one play, as a bit set (a play row and an index entry carry one;
/// a `Set` would be a heap allocation each).
struct SourceSet: OptionSet, Hashable, Sendable {
  let rawValue: UInt8

  init(rawValue: UInt8) { self.rawValue = rawValue }

  init(_ source: ListeningSource) {
    let position = ListeningSource.allCases.firstIndex(of: source) ?? 0
    rawValue = 1 << UInt8(position)
  }

  func contains(_ source: ListeningSource) -> Bool { contains(SourceSet(source)) }
}

/// The offsets plays without one of their own take during one import, and how many took
/// each source.
private struct PlayOffsets {
  let zone: TimeZoneFallback
  /// The Health data's offsets, read when the first play needs them.
  var timeline: UTCOffsetTimeline?
  private(set) var counts: [OffsetSource: Int] = [:]

  init(zone: TimeZoneFallback) { self.zone = zone }

  mutating func took(_ offset: Int32, _ source: OffsetSource) -> (Int32, OffsetSource) {
    if source != .source { counts[source, default: 0] += 1 }
    return (offset, source)
  }
}
