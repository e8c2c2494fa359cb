import ResonanceIO
import ResonanceModel

/// A CSV header row, looked up by name: exports reorder their columns over the years (Apple's
/// went alphabetical in 2019), so columns are found by name, never by position.
///
/// Names compare case-insensitively, with curly apostrophes read as straight ones and
/// surrounding spaces ignored (`User’s Audio Quality` = `user's audio quality`).
package struct CSVHeader {
  private var indices: [String: Int] = [:]
  /// The header's names, as written.
  package let names: [String]

  package init(_ record: CSVRecord) {
    var names: [String] = []
    for i in 0..<record.count {
      let name = record.string(i)
      names.append(name)
      let key = Self.key(name)
      if indices[key] == nil { indices[key] = i }
    }
    self.names = names
  }

  /// The index of the first column with one of these names.
  package func index(_ candidates: String...) -> Int? {
    for name in candidates {
      if let i = indices[Self.key(name)] { return i }
    }
    return nil
  }

  /// Whether every one of these names is a column.
  package func has(_ names: String...) -> Bool {
    names.allSatisfy { indices[Self.key($0)] != nil }
  }

  static func key(_ name: String) -> String {
    var text = name.replacingOccurrences(of: "\u{2019}", with: "'").lowercased()
    while text.first == " " || text.first == "\u{FEFF}" { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The header of a file that starts with `prefix`, if its first line is a complete record.
  package static func firstLine(of prefix: [UInt8]) -> CSVHeader? {
    guard let newline = prefix.firstIndex(of: 0x0A) else { return nil }
    var reader = CSVReader(bytes: Array(prefix[..<newline]))
    guard let record = try? reader.next() else { return nil }
    return CSVHeader(record)
  }
}

extension CSVRecord {
  /// The warning for a row whose fields held NUL bytes, which the CSV reader removed: the
  /// fields are kept without them. Nil when the row had none.
  func nulWarning(names: [String], at location: SourceLocation) -> Diagnostic? {
    let fields = fieldsWithNUL
    guard !fields.isEmpty else { return nil }
    let named = fields.map { $0 < names.count ? "'\(names[$0])'" : "\($0 + 1)" }
    return Diagnostic(
      .warning,
      "NUL bytes removed from field\(fields.count == 1 ? "" : "s") \(named.joined(separator: ", ")) (the text is kept without them)",
      at: location)
  }
}

extension CSVReader {
  /// The next record, a row over the reader's cap an error at its line in `path`.
  ///
  /// - Throws: `IngestError(.malformed)` for a row longer than `maximumRecordBytes`;
  ///   `IOError` from reading.
  mutating func nextRecord(in path: String) throws -> CSVRecord? {
    do {
      return try next()
    } catch let error as CSVRecordTooLong {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: 1), error.message)
    }
  }
}
