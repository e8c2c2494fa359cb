import ResonanceModel

extension Store {
  /// Records one imported file in the ingest ledger and returns its row id. Imports write
  /// their row through `ImportTransaction`; this is for tests that need a ledger as it was.
  ///
  /// - Parameters:
  ///   - entry: what was imported and how it went.
  ///   - bytes: the file's size in bytes.
  ///   - startedAt: when reading began, in UTC milliseconds.
  ///   - finishedAt: when it ended, in UTC milliseconds.
  /// - Throws: `StoreError`; a second row for the same content and importer violates
  ///   `imports_content`.
  @discardableResult
  package func insertImport(
    _ entry: ImportEntry, bytes: Int64, startedAt: Int64, finishedAt: Int64
  ) throws(StoreError) -> Int64 {
    try connection.execute(
      """
      INSERT INTO imports (file, bytes, sha256, importer, status, records, warnings,
                           started_at_ms, finished_at_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        entry.file, bytes, entry.sha256, entry.importer, entry.status.rawValue, entry.records,
        entry.warnings, startedAt, finishedAt,
      ])
    return connection.lastInsertRowID
  }

  /// The ledger row for content already imported by `importer`, if any.
  package func existingImport(sha256: String, importer: String) throws(StoreError)
    -> ImportEntry?
  {
    try importEntries(where: "sha256 = ? AND importer = ?", [sha256, importer]).first
  }

  /// Every ledger row, oldest first.
  package func importEntries() throws(StoreError) -> [ImportEntry] {
    try importEntries(where: "1", [])
  }

  private func importEntries(where condition: String, _ arguments: [any SQLiteBindable])
    throws(StoreError) -> [ImportEntry]
  {
    try connection.fetch(
      ImportEntry.self,
      """
      SELECT file, sha256, importer, status, records, warnings
      FROM imports WHERE \(condition) ORDER BY id
      """, arguments)
  }
}

extension Store {
  /// The files on disk recorded as imported whole, for `InputWalker` to pass over unchanged.
  ///
  /// - Throws: `StoreError` when the query fails.
  package func importedSources() throws(StoreError) -> ImportedSources {
    ImportedSources(
      try connection.rows("SELECT bytes, sha256 FROM import_sources").map {
        (bytes: $0.int64("bytes") ?? 0, sha256: $0.string("sha256"))
      })
  }

  /// Records a file on disk every import of which completed: its digest and size as read,
  /// and the ledger rows of its imports (each named by its content and importer), in one
  /// transaction. A file recorded before keeps its row and gains the imports not yet linked.
  ///
  /// - Throws: `StoreError`.
  package func recordSource(
    sha256: String, bytes: Int64, file: String, imports: [ImportEntry], at nowMs: Int64
  ) throws {
    try connection.transaction {
      try connection.execute(
        """
        INSERT INTO import_sources (sha256, bytes, file, recorded_at_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT (sha256) DO NOTHING
        """, [sha256, bytes, file, nowMs])
      for entry in imports {
        try connection.execute(
          """
          INSERT OR IGNORE INTO import_source_members (source_id, import_id)
          SELECT s.id, i.id FROM import_sources s, imports i
          WHERE s.sha256 = ? AND i.sha256 = ? AND i.importer = ?
          """, [sha256, entry.sha256, entry.importer])
      }
    }
  }
}

extension ImportEntry: RowDecodable {
  /// An `imports` row as the ledger's reads select it; a status this build does not know
  /// reads as `partial`.
  package init(row: Row) throws(StoreError) {
    self.init(
      file: row.string("file"), sha256: row.string("sha256"), importer: row.string("importer"),
      status: ImportEntry.Status(rawValue: row.string("status")) ?? .partial,
      records: row.int("records"), warnings: row.int("warnings"))
  }
}
