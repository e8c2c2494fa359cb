/// A table of typed columns, as `resonance export` hands it on: the Parquet writer and the
/// CSV writer both write one from this value, so the two formats cannot disagree.
///
/// Every column has a declared type and nullability that do not depend on the data, so that
/// one table has the same schema for every person of a cohort (a reader unions their files).
package struct ColumnTable: Sendable, Equatable {
  /// A column's values, one per row, `nil` for a missing value.
  package enum Values: Sendable, Equatable {
    case boolean([Bool?])
    case int32([Int32?])
    case int64([Int64?])
    case double([Double?])
    case string([String?])
    /// Instants in milliseconds since 1970-01-01T00:00:00Z.
    case timestampMillis([Int64?])
    /// Calendar dates as days since 1970-01-01.
    case date([Int32?])

    package var count: Int {
      switch self {
      case .boolean(let v): v.count
      case .int32(let v): v.count
      case .int64(let v): v.count
      case .double(let v): v.count
      case .string(let v): v.count
      case .timestampMillis(let v): v.count
      case .date(let v): v.count
      }
    }

    /// Whether the value at `row` is missing.
    package func isNull(_ row: Int) -> Bool {
      switch self {
      case .boolean(let v): v[row] == nil
      case .int32(let v): v[row] == nil
      case .int64(let v): v[row] == nil
      case .double(let v): v[row] == nil
      case .string(let v): v[row] == nil
      case .timestampMillis(let v): v[row] == nil
      case .date(let v): v[row] == nil
      }
    }

    /// The type's name as `docs/cohort.md` lists it.
    package var typeName: String {
      switch self {
      case .boolean: "boolean"
      case .int32: "int32"
      case .int64: "int64"
      case .double: "double"
      case .string: "string"
      case .timestampMillis: "timestamp[ms, UTC]"
      case .date: "date"
      }
    }
  }

  package struct Column: Sendable, Equatable {
    package var name: String
    /// Whether the column may hold missing values (Parquet's `OPTIONAL`).
    package var nullable: Bool
    package var values: Values

    package init(_ name: String, nullable: Bool, _ values: Values) {
      self.name = name
      self.nullable = nullable
      self.values = values
    }
  }

  package var name: String
  package var columns: [Column]

  /// A table from its columns, which must all have the same number of rows, and a missing
  /// value only where the column is nullable.
  package init(name: String, columns: [Column]) {
    precondition(
      Set(columns.map(\.values.count)).count <= 1, "table \(name): columns of unequal length")
    for column in columns where !column.nullable {
      precondition(
        (0..<column.values.count).allSatisfy { !column.values.isNull($0) },
        "table \(name): a missing value in the required column \(column.name)")
    }
    self.name = name
    self.columns = columns
  }

  package var rowCount: Int { columns.first?.values.count ?? 0 }
}
