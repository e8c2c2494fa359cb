/// One result row, read out of a statement into Swift values.
package struct Row: Sendable, Equatable {
  package var values: [SQLiteValue]

  package init(_ values: [SQLiteValue]) { self.values = values }

  package subscript(_ index: Int) -> SQLiteValue { values[index] }

  /// The integer in column `index`, or 0 when it is NULL (as `COUNT`/`SUM` on nothing gives).
  package func int(_ index: Int) -> Int { Int(values[index].int64 ?? 0) }

  /// The integer in column `index`, or `nil` when it is NULL.
  package func optionalInt64(_ index: Int) -> Int64? { values[index].int64 }

  /// The text in column `index`, or `""` when it is NULL.
  package func string(_ index: Int) -> String { values[index].string ?? "" }
}

/// A type that can be built from a result row, in the spirit of GRDB's `FetchableRecord`.
package protocol RowDecodable {
  init(row: Row) throws
}
