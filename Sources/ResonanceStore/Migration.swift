/// One named, ordered change to the store's schema.
///
/// Migrations run in the order they are listed, each in its own transaction, and each is
/// recorded by name in `schema_migrations` so it runs exactly once per file. A migration that
/// has shipped is never edited; a later one changes what it did.
package struct Migration: Sendable {
  /// A stable name, e.g. `0001-ingest-ledger`; recorded in the file.
  package var name: String
  /// The DDL/DML it runs, as one or more `;`-separated statements.
  package var sql: String

  package init(_ name: String, sql: String) {
    self.name = name
    self.sql = sql
  }
}

/// Brings a database's schema up to date by applying the migrations it has not yet recorded.
package struct Migrator: Sendable {
  package var migrations: [Migration]

  package init(_ migrations: [Migration]) {
    self.migrations = migrations
  }

  /// Names of the migrations recorded in `connection`'s database, in the order they ran.
  package func appliedNames(in connection: Connection) throws(StoreError) -> [String] {
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        name TEXT PRIMARY KEY NOT NULL,
        applied_at_ms INTEGER NOT NULL
      )
      """)
    return try connection.rows("SELECT name FROM schema_migrations ORDER BY rowid").map {
      $0.string("name")
    }
  }

  /// Applies every migration not yet recorded, each in its own transaction, and sets
  /// `PRAGMA user_version` to the number applied.
  ///
  /// Running it again on an up-to-date file changes nothing.
  ///
  /// - Returns: the names of the migrations applied by this call.
  /// - Throws: `StoreError.Kind.newerSchema` when the file records migrations this build does
  ///   not know (it was written by a newer resonance) — nothing is changed then; otherwise the
  ///   `StoreError` of a failing statement, with that migration rolled back.
  @discardableResult
  package func migrate(_ connection: Connection, now: Int64) throws(StoreError) -> [String] {
    let applied = try appliedNames(in: connection)
    let known = migrations.map(\.name)
    let userVersion = Int(try connection.row("PRAGMA user_version")?.int("user_version") ?? 0)
    let unknown = applied.filter { !known.contains($0) }
    if !unknown.isEmpty || userVersion > known.count {
      throw StoreError(
        .newerSchema(found: max(userVersion, applied.count), known: known.count),
        message: "store records migrations this build does not know ("
          + unknown.joined(separator: ", ") + ")",
        path: connection.path)
    }
    var ran: [String] = []
    for (index, migration) in migrations.enumerated() where !applied.contains(migration.name) {
      do {
        // Asked again under the write lock: another run that opened the store at the same
        // moment (two imports into a new store) may have applied it while this one waited.
        let didRun = try connection.transaction { () throws -> Bool in
          let done = try connection.row(
            "SELECT 1 AS applied FROM schema_migrations WHERE name = ?", [migration.name])
          guard done == nil else { return false }
          try connection.execute(migration.sql)
          try connection.execute(
            "INSERT INTO schema_migrations (name, applied_at_ms) VALUES (?, ?)",
            [migration.name, now])
          try connection.execute("PRAGMA user_version = \(index + 1)")
          return true
        }
        if didRun { ran.append(migration.name) }
      } catch let error as StoreError {
        throw error
      } catch {
        throw StoreError(.sqlite(code: 1), message: "\(error)", path: connection.path)
      }
    }
    return ran
  }
}
