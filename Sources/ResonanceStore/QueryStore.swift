import ResonanceModel

/// The store opened for reading only, for the queries people write (a notebook's `sql`
/// blocks): SQLite opens the file read-only and refuses any statement that would write, so a
/// query can change nothing.
package final class QueryStore {
  let connection: Connection

  /// Opens the store at `path`, which must exist.
  ///
  /// - Throws: `StoreError` when the file is missing or is not a database.
  package init(path: String) throws(StoreError) {
    connection = try Connection(path: path, readOnly: true)
    try connection.execute("PRAGMA query_only = ON")
  }

  /// The longest text a cell keeps, in characters; longer text is cut with `…`.
  package static let cellCharacters = 1_000

  /// The result of one read-only statement, at most `limit` rows kept (the rest counted), each
  /// text cut to `cellCharacters`.
  ///
  /// - Throws: `StoreError` for SQL that does not compile, more than one statement, or a
  ///   statement that would write; of kind `.limit` for one that runs past `limits`.
  package func query(_ sql: String, limit: Int = 1000, limits: QueryLimits = .standard)
    throws(StoreError) -> QueryTable
  {
    try connection.withLimits(seconds: limits.seconds, valueBytes: limits.valueBytes) {
      () throws(StoreError) -> QueryTable in
      let statement = try connection.prepareQuery(sql)
      defer { statement.reset() }
      var table = QueryTable(columns: statement.columnNames, rows: [])
      while try statement.step() {
        guard table.rows.count < limit else {
          table.more += 1
          continue
        }
        table.rows.append(
          statement.currentRow().values.map { value -> QueryTable.Value in
            switch value {
            case .null: .null
            case .integer(let v): .integer(v)
            case .real(let v): .real(v)
            case .text(let v):
              .text(v.count > Self.cellCharacters ? v.prefix(Self.cellCharacters) + "…" : v)
            case .blob(let v): .blob(v.count)
            }
          })
      }
      return table
    }
  }
}
