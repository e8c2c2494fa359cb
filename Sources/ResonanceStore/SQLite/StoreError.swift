/// An error from the store: a failing SQLite call, or a store this build must not touch.
///
/// SQLite failures carry the result code, SQLite's message and the SQL that was running, so a
/// report names the statement rather than just "constraint failed".
package struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// A SQLite call returned an error code.
    case sqlite(code: Int32)
    /// Another process holds the store's write lock and the busy timeout ran out.
    case busy
    /// The file's schema is newer than this build knows; it is refused, never migrated back.
    case newerSchema(found: Int, known: Int)
    /// The file's schema is older than this build's, and the command only reads: a command
    /// that writes (`resonance analyze`, `resonance ingest`) upgrades it.
    case olderSchema(found: Int, known: Int)
    /// The file is not a SQLite database, or not one of ours.
    case notAStore
    /// A statement ran into a limit its caller set (`Connection.withLimits`): time or the size
    /// of a value.
    case limit
  }

  package var kind: Kind
  package var message: String
  /// The statement that failed, when there was one.
  package var sql: String?
  /// The store's path, when known.
  package var path: String?

  package init(_ kind: Kind, message: String, sql: String? = nil, path: String? = nil) {
    self.kind = kind
    self.message = message
    self.sql = sql
    self.path = path
  }

  package var description: String {
    var text = path.map { "\($0): " } ?? ""
    switch kind {
    case .sqlite(let code): text += "sqlite error \(code): \(message)"
    case .busy:
      text +=
        "store is busy: another resonance run is writing to it (\(message)); try again when it ends"
    case .newerSchema(let found, let known) where found > known:
      text +=
        "store has schema version \(found), newer than the \(known) this build knows; "
        + "use a newer resonance, or another --db"
    case .newerSchema:
      text += message + "; use the resonance that wrote it, or another --db"
    case .olderSchema(let found, let known):
      text +=
        "store has schema version \(found), older than the \(known) this build reads; "
        + "run resonance analyze --db \(path ?? "PATH") once to upgrade it (this command only reads)"
    case .notAStore, .limit: text += message
    }
    if let sql { text += " (while running: \(sql.trimmingWhitespace))" }
    return text
  }
}

extension String {
  fileprivate var trimmingWhitespace: String {
    let collapsed = split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" })
    return collapsed.joined(separator: " ")
  }
}
