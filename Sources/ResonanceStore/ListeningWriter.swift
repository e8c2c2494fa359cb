import ResonanceModel

/// Writes listening files into the store inside the caller's transaction: one Song row per
/// real song across every source, and one play per listen however many sources report it.
///
/// The rules are the Model's: `SongCatalog` resolves each reference to a song and says what to
/// add, update or merge; `ListenMerge` says whether a play is new, another source's report of
/// a stored one (the ranks the caller gave deciding which report leads), or one already
/// stored. This writer loads what they need and writes what they decide (`ListeningRows`),
/// keeping a month of the stored plays in memory (`PlayWindow`) so that each play is checked
/// without a query.
package final class ListeningWriter {
  /// Files with at least this many plays load without the per-song index.
  package static let bulkThreshold = 50_000

  /// What the writer has done so far with this file's songs and plays.
  package private(set) var counts = ListeningCounts()

  private let rows: ListeningRows
  private let merge: ListenMerge
  private var catalog: SongCatalog
  /// What the catalog changed for the reference in hand (kept to reuse its storage).
  private var changes: [SongChange] = []
  private let window = PlayWindow()
  private var songIndexSetAside = false
  /// Ids are given here, not by SQLite, so that rows can be written later on the write
  /// thread: the writer owns the transaction, and rowids follow the largest one.
  private var nextPlayID: Int64
  /// The span of the plays stored before this file: the window loads only what overlaps it.
  private var storedSpan: ClosedRange<Int64>?
  /// Plays added between two trims of the window.
  private static let trimInterval = 65_536
  private var addsSinceTrim = 0
  /// Where plays without a UTC offset of their own take one, and how many took each.
  private var offsets: PlayOffsets

  /// Plays whose UTC offset came from each place.
  package var offsetSources: [OffsetSource: Int] { offsets.counts }

  /// Loads the songs the store knows, for resolving the file's references.
  ///
  /// - Parameters:
  ///   - zone: the zone for plays whose source records no offset and whose moment the Health
  ///     data does not cover.
  ///   - precedence: each source's rank when two reports of one listen merge.
  /// - Throws: `StoreError` when the store cannot be read.
  init(
    store: Store, importID: Int64, zone: TimeZoneFallback, precedence: MergePrecedence
  ) throws(StoreError) {
    rows = try ListeningRows(db: store.connection, importID: importID)
    merge = ListenMerge(precedence: precedence)
    offsets = PlayOffsets(zone: zone)
    let extent = try rows.extent()
    nextPlayID = extent.nextPlayID
    storedSpan = extent.span
    catalog = SongCatalog(songs: try rows.songs(), nextID: extent.nextSongID)
  }

  /// Waits for the enqueued writes, whatever became of them. Call it (in a `defer`) before the
  /// transaction ends: on a failing path the writes must be over before the rollback. The
  /// writes hold the writer, so it cannot do this when it goes away.
  package func waitForWrites() { rows.drain() }

  // MARK: - Songs

  /// The song a reference names, created or completed as needed.
  @discardableResult
  package func song(for reference: SongReference, isLibrary: Bool = false) throws(StoreError)
    -> Int64
  {
    let id = catalog.resolve(reference, isLibrary: isLibrary, into: &changes)
    if !changes.isEmpty { try writeChanges() }
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
      var stored: Int64?
      if let pid = playlist.libraryPersistentID { stored = try rows.playlist(persistentID: pid) }
      let id: Int64
      if let stored {
        id = stored
        rows.clear(playlist: id, name: playlist.name)
      } else {
        id = try rows.insert(playlist: playlist.name, persistentID: playlist.libraryPersistentID)
      }
      for (position, reference) in playlist.songs.enumerated() {
        rows.add(song: try song(for: reference), to: id, at: position)
      }
      counts.playlists += 1
    }
  }

  /// Writes what the catalog changed, in order; a merge of two songs also merges the plays
  /// of theirs that are one listen.
  private func writeChanges() throws(StoreError) {
    defer { changes.removeAll(keepingCapacity: true) }
    for change in changes {
      try rows.write(change)
      switch change {
      case .added: counts.songsAdded += 1
      case .updated: break
      case .merged(let from, let into):
        counts.songsMerged += 1
        window.forget(from)
        try collapsePlays(of: into.id)
      }
    }
  }

  /// After a song merge: the song's plays that are one listen merge, its duplicates go.
  private func collapsePlays(of song: Int64) throws(StoreError) {
    try ensureSongIndex()
    let collapse = merge.collapse(try rows.plays(of: song, in: Int64.min...Int64.max))
    for play in collapse.changed { rows.update(play) }
    for id in collapse.removed { rows.delete(play: id) }
    counts.playsMerged += collapse.merged
    counts.playsAlreadyStored += collapse.duplicates
    window.replace(song, with: collapse.kept.map(\.stamp))
  }

  // MARK: - Files

  /// Ends the file: gives unresolved songs another chance now that the file's songs are
  /// known, and restores the per-song play index if a bulk load set it aside.
  package func finish() throws(StoreError) {
    try rows.flush()
    catalog.resolvePending(into: &changes)
    try writeChanges()
    try ensureSongIndex()
  }

  /// Sets the per-song play index aside for a large file, to be rebuilt once at the end:
  /// keeping it up to date row by row costs more than sorting it afresh (its inserts land all
  /// over the tree). Checks during the load use the in-memory window.
  package func beginBulkLoad(plays: Int) throws(StoreError) {
    guard plays >= Self.bulkThreshold, !songIndexSetAside else { return }
    try rows.executeNow("DROP INDEX IF EXISTS playback_events_song")
    songIndexSetAside = true
  }

  private func ensureSongIndex() throws(StoreError) {
    guard songIndexSetAside else { return }
    // SQLite's sorter may use a second thread for the build; each thread sorts up to the page
    // cache's size in memory before it spills, so the cache is made smaller for the build.
    try rows.executeNow("PRAGMA threads = 2")
    try rows.executeNow("PRAGMA cache_size = -4096")
    try rows.executeNow(
      "CREATE INDEX IF NOT EXISTS playback_events_song ON playback_events (song_id, start_ms)")
    try rows.executeNow("PRAGMA threads = 0")
    try rows.executeNow("PRAGMA cache_size = \(Store.cacheSizePragma)")
    songIndexSetAside = false
  }

  // MARK: - Plays

  /// Stores plays, each with its UTC offset: the one its source records, else the Health
  /// data's at that moment, else the user's zone, else UTC.
  package func add(_ plays: [PlayReport]) throws(StoreError) {
    for play in plays {
      let (offset, source) = try offset(for: play)
      try add(play, offset: offset, offsetSource: source)
    }
  }

  /// The offset a play takes, and where it came from. The Health data's offsets are read from
  /// the store the first time a play needs them, after the writes in flight (the connection is
  /// never used by two threads at once).
  private func offset(for play: PlayReport) throws(StoreError) -> (Int32, OffsetSource) {
    if let offset = play.utcOffsetSeconds { return offsets.took(offset, .source) }
    if offsets.timeline == nil { offsets.timeline = try rows.healthOffsets() }
    if let health = offsets.timeline?.offset(atMs: play.startMs) {
      return offsets.took(health, .health)
    }
    if let user = offsets.zone.offset(atMs: play.startMs) { return offsets.took(user, .user) }
    return offsets.took(0, .utc)
  }

  /// Stores one play: new, merged into another source's report of the same listen, or
  /// recognised as already stored.
  func add(_ report: PlayReport, offset: Int32, offsetSource: OffsetSource) throws(StoreError) {
    let song = try song(for: report.song)
    let span = ListenMerge.window(around: report.startMs)
    try window.cover(span.lowerBound, span.upperBound) { (loading) throws(StoreError) in
      try stamps(in: loading)
    }
    // The report's own source alone, the one offset it took for start and end, an end never
    // before its start. Built here field by field: through a Model function the play was made
    // twice and copied, a measurable share of a play's cost.
    let play = PlayRecord(
      id: 0, songID: song, source: report.source, sources: ListeningSources(report.source),
      startMs: report.startMs, startOffset: offset, offsetSource: offsetSource,
      endMs: max(report.endMs, report.startMs), endOffset: offset, playedMs: report.playedMs,
      mediaDurationMs: report.mediaDurationMs, wasSkipped: report.wasSkipped,
      completed: report.completed, endReason: report.endReason,
      startReason: report.startReason, shuffle: report.shuffle,
      decision: report.decision.map(Int64.init))
    let placement = try merge.place(play, near: window.plays(of: song, in: span)) {
      () throws(StoreError) in try rows.plays(of: song, in: span)
    }
    switch placement {
    case .alreadyStored:
      counts.playsAlreadyStored += 1
    case .merged(let merged):
      rows.update(merged)
      window.remember(merged.stamp, of: song, isNew: false)
      counts.playsMerged += 1
    case .new:
      // Moved, not copied, into the row written.
      var row = consume play
      row.id = nextPlayID
      nextPlayID += 1
      window.remember(row.stamp, of: song, isNew: true)
      let startMs = row.startMs
      rows.insert(row)
      counts.playsAdded += 1
      // Once in the store, this file's plays are found like the ones before it.
      storedSpan =
        storedSpan.map { min($0.lowerBound, startMs)...max($0.upperBound, startMs) }
        ?? startMs...startMs
      addsSinceTrim += 1
      if addsSinceTrim >= Self.trimInterval {
        addsSinceTrim = 0
        window.trim(before: startMs - PlayWindow.spanMs)
      }
    }
  }

  /// The stored plays starting in `span`, by song. Only plays stored before this file can be
  /// there (this file's are in the window as they are added), so a span outside theirs is not
  /// read at all.
  private func stamps(in span: ClosedRange<Int64>) throws(StoreError) -> [Int64: [PlayStamp]] {
    guard let stored = storedSpan, stored.overlaps(span) else { return [:] }
    return try rows.stamps(in: span)
  }
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
