internal import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// What `bindIfChanged` last bound at each parameter, while no other bind has replaced it
  /// (SQLite keeps bindings from one run to the next): a slot of `Kept.stride` bytes per
  /// parameter, index 0 unused.
  private let kept: UnsafeMutableRawBufferPointer

  /// A kept slot: its kind (a byte), the text's length (a byte), the integer (at 8) or the
  /// text's bytes (at 16).
  private enum Kept {
    static let stride = 16 + maximumText
    /// Longer text is bound every time.
    static let maximumText = 32
    static let none: UInt8 = 0
    static let null: UInt8 = 1
    static let integer: UInt8 = 2
    static let text: UInt8 = 3
  }

  init(handle: OpaquePointer, connection: Connection, sql: String) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
    let slots = Int(sqlite3_bind_parameter_count(handle)) + 1
    kept = .allocate(byteCount: slots * Kept.stride, alignment: 8)
    kept.initializeMemory(as: UInt8.self, repeating: 0)
  }

  deinit {
    sqlite3_finalize(handle)
    rowText?.deallocate()
    kept.deallocate()
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
    forget(index)
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
  package func bind(_ value: Int64, at index: Int32) {
    forget(index)
    sqlite3_bind_int64(handle, index, value)
  }

  /// Binds a double, or NULL for `nil`.
  package func bind(_ value: Double?, at index: Int32) {
    forget(index)
    if let value {
      sqlite3_bind_double(handle, index, value)
    } else {
      sqlite3_bind_null(handle, index)
    }
  }

  /// Binds text, or NULL for `nil`.
  package func bind(_ value: String?, at index: Int32) {
    forget(index)
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
    forget(index)
    guard var value else {
      sqlite3_bind_null(handle, index)
      return
    }
    value.withUTF8 { bindRowText(UnsafeRawBufferPointer($0), at: index) }
  }

  /// Binds UTF-8 bytes as text for the next `run()` only, as `bindRowText(_:at:)` does.
  package func bindRowText(utf8 bytes: [UInt8], at index: Int32) {
    forget(index)
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
    forget(index)
    if let value {
      sqlite3_bind_int64(handle, index, value)
    } else {
      sqlite3_bind_null(handle, index)
    }
  }

  /// Binds an integer, or NULL for `nil`, unless this method bound the same at `index` last:
  /// for a bulk writer's columns that repeat from row to row, where comparing costs a tenth
  /// of what SQLite spends on a bind.
  package func bindIfChanged(_ value: Int64?, at index: Int32) {
    let slot = keptSlot(index)
    let kind = slot.load(as: UInt8.self)
    if let value {
      if kind == Kept.integer && slot.load(fromByteOffset: 8, as: Int64.self) == value { return }
      sqlite3_bind_int64(handle, index, value)
      slot.storeBytes(of: Kept.integer, as: UInt8.self)
      slot.storeBytes(of: value, toByteOffset: 8, as: Int64.self)
    } else {
      if kind == Kept.null { return }
      sqlite3_bind_null(handle, index)
      slot.storeBytes(of: Kept.null, as: UInt8.self)
    }
  }

  /// Binds text, or NULL for `nil`, unless this method bound the same bytes at `index` last
  /// (text of up to 32 bytes is remembered; SQLite keeps its own copy of what is bound).
  package func bindIfChanged(_ value: String?, at index: Int32) {
    let slot = keptSlot(index)
    guard var value else {
      if slot.load(as: UInt8.self) == Kept.null { return }
      sqlite3_bind_null(handle, index)
      slot.storeBytes(of: Kept.null, as: UInt8.self)
      return
    }
    value.withUTF8 { bytes in
      let text = UnsafeRawBufferPointer(bytes)
      if slot.load(as: UInt8.self) == Kept.text,
        Int(slot.load(fromByteOffset: 1, as: UInt8.self)) == text.count,
        text.isEmpty || memcmp(slot + 16, text.baseAddress!, text.count) == 0
      {
        return
      }
      _ = sqlite3_bind_text(
        handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
        Int32(bytes.count), Statement.transient)
      guard text.count <= Kept.maximumText else {
        slot.storeBytes(of: Kept.none, as: UInt8.self)
        return
      }
      slot.storeBytes(of: Kept.text, as: UInt8.self)
      slot.storeBytes(of: UInt8(text.count), toByteOffset: 1, as: UInt8.self)
      if text.count > 0 { (slot + 16).copyMemory(from: text.baseAddress!, byteCount: text.count) }
    }
  }

  private func keptSlot(_ index: Int32) -> UnsafeMutableRawPointer {
    let offset = Int(index) * Kept.stride
    precondition(index > 0 && offset < kept.count, "parameter \(index) is not in \(sql)")
    return kept.baseAddress! + offset
  }

  /// Another bind replaces whatever `bindIfChanged` kept at `index`.
  private func forget(_ index: Int32) {
    let offset = Int(index) * Kept.stride
    if index > 0, offset < kept.count {
      kept.storeBytes(of: Kept.none, toByteOffset: offset, as: UInt8.self)
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

  /// Resets the statement so it can run again; bindings are kept, but text bound with
  /// `bindRowText` must be bound again.
  package func reset() {
    sqlite3_reset(handle)
    rowTextUsed = 0
  }

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
  ///
  /// - Throws: `StoreError` when the query fails or a row does not decode (then naming the
  ///   store's path, which a decoder does not know).
  package func fetch<T: RowDecodable>(_ type: T.Type, _ arguments: [any SQLiteBindable] = [])
    throws(StoreError) -> [T]
  {
    try fetch(arguments) { row throws(StoreError) in try T(row: row) }
  }

  /// Binds `arguments` and makes a value of every row with `decode`, in order: for a loop
  /// that reads its columns through `column(_:)`, found once before it.
  ///
  /// - Throws: `StoreError` when the query fails or `decode` throws (then naming the store's
  ///   path, which a decoder does not know).
  package func fetch<T>(
    _ arguments: [any SQLiteBindable] = [], decode: (Row) throws(StoreError) -> T
  ) throws(StoreError) -> [T] {
    try bind(arguments)
    defer { sqlite3_reset(handle) }
    var decoded: [T] = []
    while try step() {
      do {
        decoded.append(try decode(currentRow()))
      } catch {
        var error = error
        if error.path == nil { error.path = connection.path }
        throw error
      }
    }
    return decoded
  }

  /// The result's column names, as SQLite gives them (an alias when the query names one).
  package var columnNames: [String] { columns.names }

  /// The result's column named `name`, found once for a loop over many rows
  /// (`row.double(column)`); a name the query does not produce stops the program.
  package func column(_ name: String) -> Column { columns.column(name) }

  /// The column names, read from SQLite once: they are fixed when the statement is compiled.
  private lazy var columns = ColumnNames(
    (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) })

  /// The row the last `step()` stopped on.
  package func currentRow() -> Row {
    let count = sqlite3_column_count(handle)
    var values: [SQLiteValue] = []
    values.reserveCapacity(Int(count))
    for column in 0..<count {
      values.append(value(at: column))
    }
    return Row(values, columns: columns)
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
