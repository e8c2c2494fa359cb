/// One result row, read out of a statement into Swift values, its columns found by name.
///
/// Code outside `Store/SQLite` reads a row by column name (`row.int64("start_ms")`): a query's
/// column list can change without every reader shifting by one. The names are the ones SQLite
/// reports, so an expression needs an alias (`COUNT(*) AS plays`). Positional reads
/// (`row.int(0)`) exist for ad-hoc queries in tests and for this folder's own code;
/// `make lint` refuses them anywhere else in `Sources`.
package struct Row: Sendable, Equatable {
  package var values: [SQLiteValue]
  package let columns: ColumnNames

  package init(_ values: [SQLiteValue], columns: ColumnNames) {
    precondition(values.count == columns.names.count, "a row has one value per column")
    self.values = values
    self.columns = columns
  }

  package static func == (a: Row, b: Row) -> Bool {
    a.values == b.values && a.columns.names == b.columns.names
  }

  // MARK: By name

  /// The value in the column named `name`.
  ///
  /// A name the query does not produce is a programmer error: it stops the program, naming
  /// the column and the columns there are.
  package subscript(_ name: String) -> SQLiteValue { values[columns.position(of: name)] }

  /// The integer in column `name`, or 0 when it is NULL (as `COUNT`/`SUM` on nothing gives).
  package func int(_ name: String) -> Int { Int(self[name].int64 ?? 0) }

  /// The integer in column `name`, or `nil` when it is NULL.
  package func int64(_ name: String) -> Int64? { self[name].int64 }

  /// The number in column `name` (integers convert), or `nil` when it is NULL.
  package func double(_ name: String) -> Double? { self[name].double }

  /// The text in column `name`, or `""` when it is NULL.
  package func string(_ name: String) -> String { self[name].string ?? "" }

  /// The text in column `name`, or `nil` when it is NULL.
  package func text(_ name: String) -> String? { self[name].string }

  /// Whether the integer in column `name` is non-zero; `nil` when it is NULL.
  package func bool(_ name: String) -> Bool? { self[name].int64.map { $0 != 0 } }

  // MARK: By a column found once

  /// The value in `column`, found by name before a loop over many rows (`Statement.column`).
  ///
  /// A column of another statement's result is a programmer error, caught in debug builds.
  package subscript(_ column: Column) -> SQLiteValue {
    assert(ObjectIdentifier(columns) == column.result, "a column of another statement's result")
    return values[column.position]
  }

  /// The integer in `column`, or 0 when it is NULL.
  package func int(_ column: Column) -> Int { Int(self[column].int64 ?? 0) }

  /// The integer in `column`, or `nil` when it is NULL.
  package func int64(_ column: Column) -> Int64? { self[column].int64 }

  /// The number in `column` (integers convert), or `nil` when it is NULL.
  package func double(_ column: Column) -> Double? { self[column].double }

  /// The text in `column`, or `""` when it is NULL.
  package func string(_ column: Column) -> String { self[column].string ?? "" }

  /// The text in `column`, or `nil` when it is NULL.
  package func text(_ column: Column) -> String? { self[column].string }

  // MARK: By position (tests and Store/SQLite only)

  package subscript(_ index: Int) -> SQLiteValue { values[index] }

  /// The integer in column `index`, or 0 when it is NULL.
  package func int(_ index: Int) -> Int { Int(values[index].int64 ?? 0) }

  /// The integer in column `index`, or `nil` when it is NULL.
  package func optionalInt64(_ index: Int) -> Int64? { values[index].int64 }

  /// The text in column `index`, or `""` when it is NULL.
  package func string(_ index: Int) -> String { values[index].string ?? "" }
}

/// The column names of one statement's result, shared by all its rows, with each name's
/// position looked up once.
package final class ColumnNames: Sendable {
  package let names: [String]
  private let positions: [String: Int]

  package init(_ names: [String]) {
    self.names = names
    var positions: [String: Int] = [:]
    // A name given twice (a join's two `id`s) finds its first column, as SQLite's own
    // `sqlite3_column_name` lookups do in other wrappers; give such columns aliases.
    for (position, name) in names.enumerated() where positions[name] == nil {
      positions[name] = position
    }
    self.positions = positions
  }

  /// Where `name` is, or stops the program: reading a column the query does not produce is
  /// a mistake in the query or the reader, never in the data.
  package func position(of name: String) -> Int {
    guard let position = positions[name] else {
      preconditionFailure(
        "no column '\(name)' in this result; its columns: \(names.joined(separator: ", "))")
    }
    return position
  }

  /// Whether the result has a column named `name`.
  package func contains(_ name: String) -> Bool { positions[name] != nil }

  /// The column named `name`, found once for all the rows of this result; stops the program
  /// when there is none, as `position(of:)` does.
  package func column(_ name: String) -> Column {
    Column(position: position(of: name), result: ObjectIdentifier(self))
  }
}

/// A column of one statement's result, found by name once (`Statement.column(_:)`), for a
/// loop over many rows: reading `row.double(column)` is an array index, where
/// `row.double("name")` looks the name up in every row.
///
/// It reads the rows of the statement it came from, and no other's.
package struct Column: Sendable {
  fileprivate let position: Int
  /// The result it belongs to, checked in debug builds.
  fileprivate let result: ObjectIdentifier
}

/// A type built from a result row by column name, in the spirit of GRDB's `FetchableRecord`.
///
/// The Store's queries decode their rows into Model values through conformers declared beside
/// the query (`Store+Reports.swift`), so each column is named once.
package protocol RowDecodable {
  /// - Throws: `StoreError` when a value is not one the type accepts (a store edited by hand).
  init(row: Row) throws(StoreError)
}
