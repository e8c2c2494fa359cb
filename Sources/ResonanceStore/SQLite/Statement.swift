internal import CSQLite

/// A compiled SQL statement, finalized in `deinit`.
///
/// Not `Sendable`: it belongs to its connection's owner. Bind, step, reset, and bind again —
/// the way bulk writers reuse one `INSERT` for millions of rows.
package final class Statement {
  private let handle: OpaquePointer
  // Keeps the connection open for as long as any of its statements lives.
  private let connection: Connection
  /// The SQL it was compiled from; carried by every error it throws.
  package let sql: String
  /// Where `bindRowText` copies text for SQLite to read in place, used from the start again
  /// after every `run()`.
  private var rowText: UnsafeMutableRawBufferPointer?
  private var rowTextUsed = 0

  init(handle: OpaquePointer, connection: Connection, sql: String) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
    rowText?.deallocate()
  }

  /// Binds `arguments` to parameters 1…n, replacing earlier bindings.
  ///
  /// - Throws: `StoreError` when the count does not match or SQLite refuses a value.
  package func bind(_ arguments: [any SQLiteBindable]) throws(StoreError) {
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard arguments.count == expected else {
      throw StoreError(
        .sqlite(code: SQLITE_RANGE),
        message: "expected \(expected) arguments, found \(arguments.count)", sql: sql,
        path: connection.path)
    }
    sqlite3_reset(handle)
    for (offset, argument) in arguments.enumerated() {
      try bind(argument.sqliteValue, at: Int32(offset + 1))
    }
  }

  /// Binds one value to the 1-based parameter `index`.
  package func bind(_ value: SQLiteValue, at index: Int32) throws(StoreError) {
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(handle, index)
    case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
    case .real(let v): code = sqlite3_bind_double(handle, index, v)
    case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, Statement.transient)
    case .blob(let v):
      code = v.withUnsafeBytes {
        sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Statement.transient)
      }
    }
    if code != SQLITE_OK { throw failure(code) }
  }

  /// Binds an integer to the 1-based parameter `index` (the bulk writers' fast path).
  package func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }

  /// Binds a double, or NULL for `nil`.
  package func bind(_ value: Double?, at index: Int32) {
    if let value {
      sqlite3_bind_double(handle, index, value)
    } else {
      sqlite3_bind_null(handle, index)
    }
  }

  /// Binds text, or NULL for `nil`.
  package func bind(_ value: String?, at index: Int32) {
    guard var value else {
      sqlite3_bind_null(handle, index)
      return
    }
    value.withUTF8 {
      _ = sqlite3_bind_text(
        handle, index, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self),
        Int32($0.count), Statement.transient)
    }
  }

  /// Binds text, or NULL for `nil`, for the next `run()` only: the bytes are copied into the
  /// statement's own scratch space, which SQLite reads in place (one copy, where `bind` has
  /// SQLite allocate, copy and free per value). `run()` reuses the space, so a parameter bound
  /// this way must be bound again before every run.
  package func bindRowText(_ value: String?, at index: Int32) {
    guard var value else {
      sqlite3_bind_null(handle, index)
      return
    }
    value.withUTF8 { bindRowText(UnsafeRawBufferPointer($0), at: index) }
  }

  /// Binds UTF-8 bytes as text for the next `run()` only, as `bindRowText(_:at:)` does.
  package func bindRowText(utf8 bytes: [UInt8], at index: Int32) {
    bytes.withUnsafeBytes { bindRowText($0, at: index) }
  }

  private func bindRowText(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
    let space = rowText ?? UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
    rowText = space
    guard bytes.count <= space.count - rowTextUsed else {
      // Too long for what is left: SQLite takes its own copy.
      _ = sqlite3_bind_text(
        handle, index, bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
        Int32(bytes.count), Statement.transient)
      return
    }
    let start = space.baseAddress! + rowTextUsed
    if bytes.count > 0 { start.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
    rowTextUsed += bytes.count
    // SQLITE_STATIC (a null destructor): SQLite reads the bytes where they are.
    _ = sqlite3_bind_text(
      handle, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
  }

  /// Binds an optional integer.
  package func bind(_ value: Int64?, at index: Int32) {
    if let value {
      sqlite3_bind_int64(handle, index, value)
    } else {
      sqlite3_bind_null(handle, index)
    }
  }

  /// Runs a statement whose parameters were bound one by one, and resets it.
  package func run() throws(StoreError) {
    defer { rowTextUsed = 0 }
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Advances to the next row; `true` when a row is ready, `false` when the statement is done.
  ///
  /// - Throws: `StoreError` (`.busy` when the lock wait ran out) carrying the SQL.
  package func step() throws(StoreError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = failure(code)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Resets the statement so it can run again; bindings are kept.
  package func reset() { sqlite3_reset(handle) }

  /// Binds `arguments`, runs the statement to completion and resets it.
  package func execute(_ arguments: [any SQLiteBindable] = []) throws(StoreError) {
    try bind(arguments)
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Binds `arguments` and returns every row the statement produces.
  package func rows(_ arguments: [any SQLiteBindable] = []) throws(StoreError) -> [Row] {
    try bind(arguments)
    var rows: [Row] = []
    while try step() { rows.append(currentRow()) }
    sqlite3_reset(handle)
    return rows
  }

  /// Binds `arguments` and decodes every row as `T`.
  package func fetch<T: RowDecodable>(_ type: T.Type, _ arguments: [any SQLiteBindable] = [])
    throws -> [T]
  {
    try rows(arguments).map { try T(row: $0) }
  }

  /// The result's column names, as SQLite gives them (an alias when the query names one).
  package var columnNames: [String] {
    (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
  }

  /// The row the last `step()` stopped on.
  package func currentRow() -> Row {
    let count = sqlite3_column_count(handle)
    var values: [SQLiteValue] = []
    values.reserveCapacity(Int(count))
    for column in 0..<count {
      values.append(value(at: column))
    }
    return Row(values)
  }

  private func value(at column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
    case SQLITE_TEXT:
      guard let text = sqlite3_column_text(handle, column) else { return .text("") }
      return .text(String(cString: text))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, column))
      guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }

  private func failure(_ code: Int32) -> StoreError {
    connection.error(code: code, message: connection.lastErrorMessage, sql: sql)
  }

  // SQLITE_TRANSIENT is a macro over a cast that Swift does not import: SQLite copies the bytes.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
