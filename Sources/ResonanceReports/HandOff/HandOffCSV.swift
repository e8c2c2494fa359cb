import ResonanceModel

/// A hand-off table (`resonance export --format csv`) as CSV: RFC 4180 as `CSVTable` writes
/// it, but every value exactly as the store holds it, since the reader is a program (DuckDB,
/// pandas, Spark), not a spreadsheet: no `'` before a leading `=`, no control character
/// replaced. A missing value is an empty field; numbers are the shortest decimal that reads
/// back as the same double; booleans `true`/`false`; timestamps ISO 8601 in UTC with a `Z`;
/// dates `YYYY-MM-DD`.
package enum HandOffCSV {
  package static func text(_ table: ColumnTable) -> String {
    var out = table.columns.map { CSVTable.quoted($0.name) }.joined(separator: ",") + "\r\n"
    for row in 0..<table.rowCount {
      out += table.columns.map { field($0.values, row) }.joined(separator: ",") + "\r\n"
    }
    return out
  }

  static func field(_ values: ColumnTable.Values, _ row: Int) -> String {
    switch values {
    case .boolean(let v): v[row].map { $0 ? "true" : "false" } ?? ""
    case .int32(let v): v[row].map { String($0) } ?? ""
    case .int64(let v): v[row].map { String($0) } ?? ""
    case .double(let v): v[row].map { $0.isFinite ? "\($0)" : "" } ?? ""
    case .string(let v): v[row].map(CSVTable.quoted) ?? ""
    case .timestampMillis(let v):
      v[row].map { Timestamp.iso8601UTC(millisecondsSinceEpoch: $0) } ?? ""
    case .date(let v): v[row].map { CalendarDay(daysSinceEpoch: Int64($0)).description } ?? ""
    }
  }
}
