import ResonanceModel

/// One file's import as one unit of work: it owns the transaction from `BEGIN IMMEDIATE` to
/// `COMMIT` or `ROLLBACK`, the pragmas that go with it, the writers, and the ledger row.
///
/// The ledger row is written last, at commit, with the file's real SHA-256, size and counts
/// (its id is reserved at the start, so the rows written before it can name it). Content
/// imported before under the same importer is found then, and the import rolled back: the
/// store is left exactly as it was. So is it on any error, and when the unit goes away
/// without a commit. A process killed part-way leaves nothing either: SQLite never applies a
/// transaction that did not commit.
///
/// ```swift
/// let unit = try store.beginImport(file: "export.xml", format: .appleHealth)
/// try unit.write(.health(batch))
/// let outcome = try unit.commit(sha256: digest, bytes: size, warnings: 0)
/// ```
///
/// Not `Sendable`: the thread that writes owns it (a reader on another thread hands it
/// batches).
package final class ImportTransaction {
  /// How a unit ends.
  package enum Outcome: Sendable, Equatable {
    /// The file's rows and its ledger row are in the store.
    case imported(ImportEntry)
    /// The same content was imported before under this importer; nothing changed.
    case alreadyImported(ImportEntry)
  }

  private let store: Store
  private let file: String
  private let format: ImportFormat
  private let zone: TimeZoneFallback
  private let precedence: MergePrecedence
  private let startedAt: Int64
  private let checksForeignKeys: Bool
  /// Whether the unit writes with a rollback journal (`Store.beginBulkWrite()`).
  private let writesInBulk: Bool
  /// The ledger row's id, reserved at the start.
  package let importID: Int64
  private var health: HealthWriter?
  private var listening: ListeningWriter?
  private var samples = 0
  private var isOpen = true

  init(
    store: Store, file: String, format: ImportFormat, zone: TimeZoneFallback,
    precedence: MergePrecedence, startedAt: Int64
  ) throws(StoreError) {
    self.store = store
    self.file = file
    self.format = format
    self.zone = zone
    self.precedence = precedence
    self.startedAt = startedAt
    // The Health and listening writers make every reference they write (their own import
    // row, the types, sources, devices and songs they found or created): SQLite checking
    // each row's foreign keys again was a seventh of the Health writer's thread and a fifth
    // of the listening import's SQLite work. The recordings keep the checks, deferred to the
    // commit, when the ledger row they name exists. The setting cannot change inside a
    // transaction, hence before it.
    checksForeignKeys = if case .recording = format { true } else { false }
    // A Health export's one transaction adds hundreds of megabytes: written with a rollback
    // journal, each page once, rather than twice through the write-ahead log.
    writesInBulk = format == .appleHealth && store.beginBulkWrite()
    let db = store.connection
    if !checksForeignKeys { try db.execute("PRAGMA foreign_keys = OFF") }
    do {
      try db.execute("BEGIN IMMEDIATE")
    } catch {
      try? db.execute("PRAGMA foreign_keys = ON")
      if writesInBulk { store.endBulkWrite() }
      throw error
    }
    do {
      if checksForeignKeys { try db.execute("PRAGMA defer_foreign_keys = ON") }
      try db.execute("SAVEPOINT import_start")
      importID =
        try db.row("SELECT COALESCE(MAX(id), 0) + 1 AS id FROM imports")?.int64("id") ?? 1
    } catch {
      try? db.execute("ROLLBACK")
      try? db.execute("PRAGMA foreign_keys = ON")
      if writesInBulk { store.endBulkWrite() }
      throw error
    }
  }

  deinit { if isOpen { rollback() } }

  /// Writes one batch, in the order the reader sent it.
  ///
  /// - Throws: `StoreError` when SQLite fails; roll back then (or let the unit go).
  package func write(_ batch: ImportBatch) throws(StoreError) {
    precondition(isOpen, "a batch written after the import ended")
    switch batch {
    case .health(let items): try healthWriter().write(items)
    case .songs(let songs, let isLibrary):
      try listeningWriter().addSongs(songs, isLibrary: isLibrary)
    case .playlists(let playlists): try listeningWriter().addPlaylists(playlists)
    case .plays(let plays): try listeningWriter().add(plays)
    case .expectedPlays(let count): try listeningWriter().beginBulkLoad(plays: count)
    case .recording(let recording):
      // A recording comes in parts, a decision log's plays between them: the listening
      // writer's queued writes run on its own thread, on this same connection, and must be
      // done before this thread writes (two threads at once corrupt a connection opened
      // without SQLite's mutex).
      listening?.waitForWrites()
      samples += try store.insertTrace(recording, importID: importID)
    case .restart:
      listening?.waitForWrites()
      listening = nil
      health = nil
      samples = 0
      try store.connection.execute("ROLLBACK TO import_start")
    }
  }

  /// What the writers have done so far.
  package var counts: ImportCounts {
    var counts = ImportCounts()
    counts.recordsAdded = health?.recordsAdded ?? 0
    counts.beatsAdded = health?.beatsAdded ?? 0
    counts.workoutsAdded = health?.workoutsAdded ?? 0
    counts.listening = listening?.counts ?? ListeningCounts()
    counts.offsetSources = listening?.offsetSources ?? [:]
    counts.samples = samples
    return counts
  }

  /// Ends the import: unless the same content was imported before, writes the ledger row with
  /// the real digest, size and counts and commits; a Health export also gives the plays stored
  /// without an offset of their own its offsets (`adoptHealthOffsets`).
  ///
  /// - Parameters:
  ///   - sha256: the file's digest, lower-case hex.
  ///   - bytes: its size.
  ///   - status: `.partial` when a broken file's first part is kept.
  ///   - warnings: the reader's warnings.
  /// - Returns: the ledger entry written, or the earlier one found (then nothing changed).
  /// - Throws: `StoreError`; the import is then rolled back.
  package func commit(
    sha256: String, bytes: Int64, status: ImportEntry.Status = .complete, warnings: Int
  ) throws(StoreError) -> (outcome: Outcome, counts: ImportCounts) {
    precondition(isOpen, "an import committed twice")
    do {
      try listening?.finish()
      listening?.waitForWrites()
      var counts = self.counts
      if let previous = try store.existingImport(sha256: sha256, importer: format.name) {
        rollback()
        return (.alreadyImported(previous), ImportCounts())
      }
      if health != nil { counts.playsGivenOffsets = try store.adoptHealthOffsets() }
      let records: Int =
        switch format {
        case .appleHealth: counts.recordsAdded
        case .listening:
          counts.listening.playsAdded + counts.listening.playsMerged + counts.listening.songsAdded
        case .recording: counts.samples
        }
      let entry = ImportEntry(
        file: file, sha256: sha256, importer: format.name, status: status, records: records,
        warnings: warnings)
      try store.connection.execute(
        """
        INSERT INTO imports (id, file, bytes, sha256, importer, status, records, warnings,
                             started_at_ms, finished_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          importID, entry.file, bytes, entry.sha256, entry.importer, entry.status.rawValue,
          entry.records, entry.warnings, startedAt, Clock.nowMilliseconds(),
        ])
      try store.connection.execute("RELEASE import_start")
      try store.connection.execute("COMMIT")
      end()
      return (.imported(entry), counts)
    } catch {
      rollback()
      throw error
    }
  }

  /// Undoes everything the unit wrote: the store is as it was before `beginImport`.
  package func rollback() {
    guard isOpen else { return }
    listening?.waitForWrites()
    try? store.connection.execute("ROLLBACK")
    end()
  }

  private func end() {
    isOpen = false
    listening = nil
    if health != nil {
      try? store.connection.execute("PRAGMA cache_size = \(Store.cacheSizePragma)")
    }
    health = nil
    if !checksForeignKeys { try? store.connection.execute("PRAGMA foreign_keys = ON") }
    if writesInBulk { store.endBulkWrite() }
  }

  private func healthWriter() throws(StoreError) -> HealthWriter {
    if let health { return health }
    let writer = try HealthWriter(store: store, importID: importID)
    // A Health import appends in the identity index's order, type by type: a smaller page
    // cache costs it no measurable time and keeps the import under 64 MB (docs/performance.md).
    // The store's own size comes back at the end.
    try store.connection.execute("PRAGMA cache_size = \(HealthWriter.cacheSizePragma)")
    health = writer
    return writer
  }

  private func listeningWriter() throws(StoreError) -> ListeningWriter {
    if let listening { return listening }
    let writer = try ListeningWriter(
      store: store, importID: importID, zone: zone, precedence: precedence)
    listening = writer
    return writer
  }
}

extension Store {
  /// Starts importing one file or archive member: the unit of work that owns its transaction.
  ///
  /// - Parameters:
  ///   - file: the path as given, or `ZIP!MEMBER`.
  ///   - format: what the file is; its name is the ledger's `importer`.
  ///   - zone: where plays without an offset, and outside the Health data, take one.
  ///   - precedence: each listening source's rank when two reports of one listen merge (the
  ///     formats' table in `ResonanceIngest` declares them); the store knows none of its own,
  ///     and by default every source ranks alike, so the play stored first decides.
  ///   - startedAt: when reading began, UTC milliseconds.
  /// - Throws: `StoreError` — `.busy` when another run holds the store past the timeout.
  package func beginImport(
    file: String, format: ImportFormat, zone: TimeZoneFallback = .none,
    precedence: MergePrecedence = MergePrecedence(), startedAt: Int64 = Clock.nowMilliseconds()
  ) throws(StoreError) -> ImportTransaction {
    try ImportTransaction(
      store: self, file: file, format: format, zone: zone, precedence: precedence,
      startedAt: startedAt)
  }
}
