/// The rows a query people wrote returned (a notebook's `sql` block): the column names and
/// each row's values as SQLite gave them.
package struct QueryTable: Sendable, Equatable {
  package enum Value: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A blob, by its size in bytes.
    case blob(Int)
  }

  package var columns: [String]
  package var rows: [[Value]]
  /// Rows the query had beyond those kept (`rows` stops at the limit asked for).
  package var more: Int

  package init(columns: [String], rows: [[Value]], more: Int = 0) {
    self.columns = columns
    self.rows = rows
    self.more = more
  }
}
