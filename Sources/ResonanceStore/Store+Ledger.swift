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
    try connection.rows(
      """
      SELECT file, sha256, importer, status, records, warnings
      FROM imports WHERE \(condition) ORDER BY id
      """, arguments
    ).map { row in
      ImportEntry(
        file: row.string(0), sha256: row.string(1), importer: row.string(2),
        status: ImportEntry.Status(rawValue: row.string(3)) ?? .partial,
        records: row.int(4), warnings: row.int(5))
    }
  }
}
