internal import CSQLite
import Dispatch

/// An open SQLite database: the one owner of a `sqlite3*` handle, closed in `deinit`.
///
/// Deliberately not `Sendable`: one writer owns a connection, as DESIGN.md asks. Work that runs
/// in parallel passes values to the owner instead of sharing the connection.
package final class Connection {
  let handle: OpaquePointer
  /// The path the connection was opened with (`:memory:` for an in-memory database).
  package let path: String
  /// How long a statement waits for another process's lock before failing.
  let busyTimeoutMilliseconds: Int32

  /// Opens (creating when missing) the database at `path`.
  ///
  /// - Parameters:
  ///   - path: a file path, or `:memory:`.
  ///   - busyTimeoutMilliseconds: how long a statement waits for another process's lock
  ///     before failing with `StoreError.Kind.busy`.
  /// - Throws: `StoreError` when SQLite cannot open the file.
  ///   - readOnly: open an existing file for reading only (SQLite refuses every write).
  package init(path: String, busyTimeoutMilliseconds: Int32 = 30_000, readOnly: Bool = false)
    throws(StoreError)
  {
    _ = Connection.configured
    var db: OpaquePointer?
    let flags =
      readOnly
      ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &db, flags, nil)
    guard code == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
      sqlite3_close_v2(db)
      throw StoreError(.sqlite(code: code), message: message, path: path)
    }
    handle = db
    self.path = path
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    sqlite3_extended_result_codes(db, 0)
    sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
  }

  deinit { sqlite3_close_v2(handle) }

  /// Process-wide SQLite settings, applied once before the first connection opens. Memory
  /// statistics are off: nothing reads them, and keeping them takes a global mutex on every
  /// allocation (about a tenth of the Health import's writer thread). URI filenames are off:
  /// a store path is a path, whatever it starts with.
  private static let configured: Void = {
    _ = resonance_sqlite3_disable_memstatus()
    _ = resonance_sqlite3_disable_uri()
  }()

  /// Runs `body` with the busy wait off: a lock another process holds fails it at once.
  func withoutWaiting<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    sqlite3_busy_timeout(handle, 0)
    defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
    return try body()
  }

  /// Runs `body` with two limits on this connection, both lifted after it: SQLite stops any
  /// statement still running `seconds` after the start (a progress handler, checked every
  /// 10,000 virtual-machine steps), and refuses to make any string or blob longer than
  /// `valueBytes` (`SQLITE_LIMIT_LENGTH`). Both belong to this connection only, so other
  /// connections of the process (a notebook's `resonance` blocks) are not held to them.
  ///
  /// - Throws: `StoreError` of kind `.limit` naming the limit a statement ran into, or what
  ///   `body` throws.
  package func withLimits<T>(
    seconds: Double, valueBytes: Int, _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    let start = DispatchTime.now().uptimeNanoseconds
    let deadline = Deadline(start &+ UInt64(max(0, min(seconds, 1e9)) * 1e9))
    let context = Unmanaged.passRetained(deadline)
    sqlite3_progress_handler(
      handle, 10_000,
      { raw in
        guard let raw else { return 0 }
        let deadline = Unmanaged<Deadline>.fromOpaque(raw).takeUnretainedValue()
        return DispatchTime.now().uptimeNanoseconds >= deadline.uptime ? 1 : 0
      }, context.toOpaque())
    let length = Int32(clamping: max(1, valueBytes))
    let previousLength = sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, length)
    defer {
      sqlite3_progress_handler(handle, 0, nil, nil)
      sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, previousLength)
      context.release()
    }
    do {
      return try body()
    } catch {
      switch error.kind {
      case .sqlite(code: SQLITE_INTERRUPT):
        throw StoreError(
          .limit,
          message:
            "the statement ran past its time limit of \(Self.seconds(seconds)) and was stopped",
          sql: error.sql, path: path)
      case .sqlite(code: SQLITE_TOOBIG):
        throw StoreError(
          .limit,
          message:
            "a value would be larger than the limit of \(Self.bytes(valueBytes)); the statement was stopped",
          sql: error.sql, path: path)
      default: throw error
      }
    }
  }

  private static func seconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
  }

  private static func bytes(_ n: Int) -> String {
    n % (1 << 20) == 0 ? "\(n >> 20) MB" : "\(n) bytes"
  }

  /// Runs one or more statements that return no rows (`;`-separated), e.g. schema DDL.
  ///
  /// - Throws: `StoreError` carrying the SQL when any statement fails.
  package func execute(_ sql: String) throws(StoreError) {
    var errorMessage: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
    if code != SQLITE_OK {
      let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
      sqlite3_free(errorMessage)
      throw error(code: code, message: message, sql: sql)
    }
  }

  /// Runs one statement with bound parameters and returns no rows.
  package func execute(_ sql: String, _ arguments: [any SQLiteBindable]) throws(StoreError) {
    let statement = try prepare(sql)
    try statement.execute(arguments)
  }

  /// Compiles `sql`, which must be exactly one statement that only reads (a `SELECT`, a
  /// `WITH … SELECT`, a read-only `PRAGMA`).
  ///
  /// - Throws: `StoreError` naming what is wrong: more than one statement, one that would
  ///   write, or SQL that does not compile.
  package func prepareQuery(_ sql: String) throws(StoreError) -> Statement {
    var statement: OpaquePointer?
    var tail: UnsafePointer<CChar>?
    let code = sql.withCString { text in
      let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
      // What follows the first statement, when anything but spaces and semicolons does.
      let rest = tail.map { String(cString: $0) } ?? ""
      tail = nil
      return code == SQLITE_OK && rest.contains(where: { !$0.isWhitespace && $0 != ";" })
        ? SQLITE_MISUSE : code
    }
    if code == SQLITE_MISUSE {
      sqlite3_finalize(statement)
      throw StoreError(.sqlite(code: code), message: "one statement per query", path: path)
    }
    guard code == SQLITE_OK, let statement else {
      throw error(code: code, message: lastErrorMessage, sql: sql)
    }
    guard sqlite3_stmt_readonly(statement) != 0 else {
      sqlite3_finalize(statement)
      throw StoreError(
        .sqlite(code: SQLITE_READONLY), message: "a query may only read the store", path: path)
    }
    return Statement(handle: statement, connection: self, sql: sql)
  }

  /// Compiles `sql` into a statement that can be run many times.
  ///
  /// - Throws: `StoreError` carrying the SQL when it does not compile.
  package func prepare(_ sql: String) throws(StoreError) -> Statement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw error(code: code, message: lastErrorMessage, sql: sql)
    }
    return Statement(handle: statement, connection: self, sql: sql)
  }

  /// All rows `sql` returns for the given arguments.
  package func rows(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws(StoreError)
    -> [Row]
  {
    try prepare(sql).rows(arguments)
  }

  /// Every row `sql` returns for the given arguments, decoded as `T`.
  ///
  /// - Throws: `StoreError` when the query fails or a row does not decode.
  package func fetch<T: RowDecodable>(
    _ type: T.Type, _ sql: String, _ arguments: [any SQLiteBindable] = []
  ) throws(StoreError) -> [T] {
    try prepare(sql).fetch(type, arguments)
  }

  /// The first row `sql` returns, or `nil` when it returns none.
  package func row(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws(StoreError)
    -> Row?
  {
    try prepare(sql).rows(arguments).first
  }

  /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
  ///
  /// `IMMEDIATE` takes the write lock at the start, so two runs on one store queue on the busy
  /// timeout instead of failing mid-transaction.
  @discardableResult
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    try inTransaction(begin: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` inside `BEGIN … COMMIT` (deferred): every read in it sees one snapshot of the
  /// store, whatever another connection commits meanwhile (WAL keeps the snapshot; readers
  /// never block the writer).
  @discardableResult
  package func readTransaction<T>(_ body: () throws -> T) throws -> T {
    try inTransaction(begin: "BEGIN", body)
  }

  /// `begin`, then `body`, then `COMMIT`; `ROLLBACK` when `body` throws.
  private func inTransaction<T>(begin: String, _ body: () throws -> T) throws -> T {
    try execute(begin)
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Whether a transaction is open on this connection (SQLite is out of autocommit mode).
  package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// The rowid of the last row inserted through this connection.
  package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  package var changes: Int { Int(sqlite3_changes(handle)) }

  /// The version of the SQLite library linked in, e.g. `3.40.1`.
  package static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

  func error(code: Int32, message: String, sql: String?) -> StoreError {
    switch code {
    case SQLITE_BUSY, SQLITE_LOCKED:
      StoreError(.busy, message: message, sql: sql, path: path)
    case SQLITE_NOTADB:
      StoreError(.notAStore, message: "not a SQLite database", sql: nil, path: path)
    default:
      StoreError(.sqlite(code: code), message: message, sql: sql, path: path)
    }
  }
}

/// When a statement run under `Connection.withLimits` must stop: the progress handler's context.
private final class Deadline {
  let uptime: UInt64
  init(_ uptime: UInt64) { self.uptime = uptime }
}
