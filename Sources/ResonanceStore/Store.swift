import ResonanceModel

/// The resonance store: one SQLite file holding everything imported and derived.
///
/// Opening a store creates the file when it is missing, turns on foreign keys and WAL, and
/// brings the schema up to date. A file written by a newer build is refused, never migrated
/// backwards. Not `Sendable`: one owner writes through it.
package final class Store {
  /// 16 MB of page cache (KiB, negative, as the pragma takes it): index upkeep during a large
  /// import and the analysis's queries stay in memory. A Health import writes with a quarter
  /// of it (`HealthWriter.cacheSizePragma`), to stay under the 64 MB it may use.
  static let cacheSizePragma = -16384

  /// The connection every query and writer of this store goes through.
  let connection: Connection
  /// The path the store was opened at.
  package var path: String { connection.path }

  /// Opens (creating and migrating as needed) the store at `path`.
  ///
  /// - Parameters:
  ///   - path: a file path, or `:memory:` for a throwaway store (tests).
  ///   - busyTimeoutMilliseconds: how long to wait for another run's lock before failing.
  ///   - now: the clock used to stamp migrations, in UTC milliseconds.
  /// - Throws: `StoreError` — `.newerSchema` for a store from a newer build, `.busy` when
  ///   another run holds the lock past the timeout, `.notAStore` for a file that is not SQLite.
  package init(
    path: String, busyTimeoutMilliseconds: Int32 = 30_000, now: Int64 = Clock.nowMilliseconds()
  ) throws(StoreError) {
    connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    try connection.execute("PRAGMA foreign_keys = ON")
    if path != ":memory:" {
      // 16 KiB pages for a new file (an existing one keeps its own): a Health import writes
      // hundreds of megabytes, and bigger pages mean a quarter of the system calls and
      // B-tree pages for the same rows.
      try connection.execute("PRAGMA page_size = 16384")
      // WAL lets `status` and reports read while an import writes (all but a Health
      // import's: `beginBulkWrite()`). The pragma answers with the mode in force; a file that
      // is not SQLite fails here with SQLITE_NOTADB.
      try switchToWAL(waitingMilliseconds: busyTimeoutMilliseconds)
      try connection.execute("PRAGMA synchronous = NORMAL")
      try connection.execute("PRAGMA cache_size = \(Self.cacheSizePragma)")
    }
    try Migrator(Schema.migrations).migrate(connection, now: now)
  }

  /// Opens an existing, up-to-date store for a command that only reads it (`status`, `report`,
  /// `validate`): no journal-mode switch, no migration, and `query_only`, so it never needs
  /// the write lock an import holds — it waits, as any reader does, up to the busy timeout
  /// for a write to commit, and then sees the store as it was before or after it.
  ///
  /// - Throws: `StoreError` — `.newerSchema` or `.olderSchema` for a store this build cannot
  ///   read as it is (a writer such as `resonance analyze` upgrades an older one), `.busy`,
  ///   `.notAStore`.
  package init(readingAt path: String, busyTimeoutMilliseconds: Int32 = 30_000)
    throws(StoreError)
  {
    connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    try connection.execute("PRAGMA query_only = ON")
    try connection.execute("PRAGMA cache_size = \(Self.cacheSizePragma)")
    let found = try connection.row("PRAGMA user_version")?.int("user_version") ?? 0
    let known = Schema.migrations.count
    if found > known {
      throw StoreError(.newerSchema(found: found, known: known), message: "", path: path)
    }
    if found < known {
      throw StoreError(.olderSchema(found: found, known: known), message: "", path: path)
    }
  }

  /// `PRAGMA journal_mode = WAL`, tried again every 20 ms until `waitingMilliseconds` have
  /// passed: changing the journal mode needs the file to itself, and SQLite does not call the
  /// busy handler for it, so a run that opens the store just as an import begins would
  /// otherwise fail at once.
  private func switchToWAL(waitingMilliseconds: Int32) throws(StoreError) {
    let deadline = Clock.nowMilliseconds() + Int64(waitingMilliseconds)
    while true {
      do {
        _ = try connection.row("PRAGMA journal_mode = WAL")
        return
      } catch let error where error.kind == .busy && Clock.nowMilliseconds() < deadline {
        usleep(20_000)
      }
    }
  }

  /// Switches the file to a rollback journal for one large write, unless another run is
  /// reading it at this moment; returns whether it did. `endBulkWrite()` switches back.
  ///
  /// In WAL mode a transaction of hundreds of megabytes is written twice, into the log and
  /// then by the checkpoint into the file; with a rollback journal the new pages go straight
  /// into the file, and the journal keeps only the pages that were there before and changed.
  /// The price: while it writes, other runs wait for it (up to their busy timeout) rather
  /// than read the store as it was. Synchronous is FULL meanwhile, as a rollback journal
  /// needs to survive a power loss.
  func beginBulkWrite() -> Bool {
    guard path != ":memory:" else { return false }
    let mode = try? connection.withoutWaiting { () throws(StoreError) in
      try connection.row("PRAGMA journal_mode = DELETE")?.string("journal_mode")
    }
    guard mode == "delete" else { return false }
    try? connection.execute("PRAGMA synchronous = FULL")
    return true
  }

  /// Back to WAL after `beginBulkWrite()`, outside any transaction. Should it fail, the next
  /// run to open the store switches back.
  func endBulkWrite() {
    try? connection.execute("PRAGMA synchronous = NORMAL")
    _ = try? connection.row("PRAGMA journal_mode = WAL")
  }

  /// The number of migrations applied to this file (`PRAGMA user_version`).
  package func schemaVersion() throws(StoreError) -> Int {
    try connection.row("PRAGMA user_version")?.int("user_version") ?? 0
  }
}

/// Wall-clock time for stamping ledger rows and migrations.
package enum Clock {
  /// The current time in UTC milliseconds since the epoch.
  package static func nowMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
