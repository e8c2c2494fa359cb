/// A value that SQLite stores: one of its five storage classes.
package enum SQLiteValue: Sendable, Equatable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// The value as an integer, when it is one.
  package var int64: Int64? {
    if case .integer(let v) = self { return v }
    return nil
  }

  /// The value as a `Double`; integers convert.
  package var double: Double? {
    switch self {
    case .real(let v): v
    case .integer(let v): Double(v)
    default: nil
    }
  }

  /// The value as text, when it is text.
  package var string: String? {
    if case .text(let v) = self { return v }
    return nil
  }
}

/// A Swift value that can be bound to a statement parameter.
package protocol SQLiteBindable {
  var sqliteValue: SQLiteValue { get }
}

extension Int: SQLiteBindable {
  package var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}
extension Int64: SQLiteBindable {
  package var sqliteValue: SQLiteValue { .integer(self) }
}
extension Int32: SQLiteBindable {
  package var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}
extension Double: SQLiteBindable {
  package var sqliteValue: SQLiteValue { .real(self) }
}
extension String: SQLiteBindable {
  package var sqliteValue: SQLiteValue { .text(self) }
}
extension Bool: SQLiteBindable {
  package var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}
extension SQLiteValue: SQLiteBindable {
  package var sqliteValue: SQLiteValue { self }
}
extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
  package var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
