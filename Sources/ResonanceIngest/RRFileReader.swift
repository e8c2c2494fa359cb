import Foundation
import ResonanceModel

/// Reads RR intervals from the files heart-rate apps export: one interval per line (Polar,
/// Elite HRV), a CSV column, or a JSON array or object. Intervals are in milliseconds; a series
/// whose values are all under 10 is taken to be in seconds and converted.
package enum RRFileReader {
  /// The column names recognised in a CSV header or a JSON object, compared case-insensitively
  /// after dropping spaces, underscores and a unit in brackets: `RR`, `RR (ms)`, `rr_ms`,
  /// `IBI`, `interval`, `intervals`, `RR intervals`, `NN`.
  static let columnNames: Set<String> = [
    "rr", "rrms", "ibi", "ibims", "interval", "intervals", "rrintervals", "nn", "rri",
  ]

  /// The intervals and the lines skipped (with their reasons).
  ///
  /// - Throws: `IngestError` when the file holds no interval at all.
  package static func read(path: String, data: Data) throws -> (
    rr: [Double], diagnostics: [Diagnostic]
  ) {
    let text = String(decoding: data, as: UTF8.self)
    let trimmed = text.drop { $0.isWhitespace }
    var values: [Double] = []
    var diagnostics: [Diagnostic] = []
    if trimmed.first == "[" || trimmed.first == "{" {
      let object = try? JSONSerialization.jsonObject(with: data)
      var array: [Any]? = object as? [Any]
      if let dictionary = object as? [String: Any] {
        array = dictionary.first { columnNames.contains(normalized($0.key)) }?.value as? [Any]
      }
      guard let array else {
        throw IngestError(
          .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
          "expected a JSON array of RR intervals or an object with an \"rr\" array")
      }
      for (i, item) in array.enumerated() {
        if let number = item as? Double, number.isFinite {
          values.append(number)
        } else {
          diagnostics.append(
            Diagnostic(
              .warning, "item \(i + 1) skipped: not a number", at: SourceLocation(file: path)))
        }
      }
    } else {
      var column: Int?
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let row = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if row.isEmpty { continue }
        let fields = row.split(
          separator: row.contains(";") ? ";" : ",", omittingEmptySubsequences: false
        )
        .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")) }
        if column == nil, index == values.count + diagnostics.count,
          fields.contains(where: { Double($0) == nil })
        {
          // A header: pick the RR column by name, else the first.
          column = fields.firstIndex { columnNames.contains(normalized($0)) } ?? 0
          continue
        }
        let field = fields[min(column ?? 0, fields.count - 1)]
        if let number = Double(field), number.isFinite {
          values.append(number)
        } else {
          diagnostics.append(
            Diagnostic(
              .warning, "line skipped: expected an interval in ms, found '\(field)'",
              at: SourceLocation(file: path, line: index + 1)))
        }
      }
    }
    guard !values.isEmpty else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected RR intervals (one per line, a CSV column or a JSON array), found none")
    }
    if values.allSatisfy({ $0 < 10 }) { values = values.map { $0 * 1000 } }
    return (values, diagnostics)
  }

  static func normalized(_ name: String) -> String {
    var text = name.lowercased()
    if let bracket = text.firstIndex(where: { $0 == "(" || $0 == "[" }) {
      text = String(text[..<bracket])
    }
    return text.filter { $0.isLetter }
  }
}
