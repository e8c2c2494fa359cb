/// CSV as RFC 4180 writes it: a header row, comma-separated fields, a field quoted when it
/// holds a comma, a quote or a line break (quotes doubled), CRLF line ends. Numbers are
/// written in full (the shortest decimal that reads back as the same double); a missing value
/// is an empty field.
///
/// A text field that a spreadsheet would take for a formula — one starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return (OWASP's list) — is written with a `'` before it, so that a
/// song titled `=HYPERLINK(…)` stays text when the report is opened in a spreadsheet. Number
/// fields are never prefixed. Control characters other than tab and line breaks become
/// U+FFFD. These files are for people; the store keeps text as it was read.
package struct CSVTable: Sendable {
  package var header: [String]
  package var rows: [[Field]] = []

  /// One field.
  package enum Field: Sendable, Equatable {
    case text(String)
    case number(Double?)
    case integer(Int)
    case empty
  }

  package init(header: [String]) { self.header = header }

  package mutating func append(_ row: [Field]) {
    precondition(row.count == header.count, "one field per column")
    rows.append(row)
  }

  /// The file's text.
  package var text: String {
    var out = header.map(Self.quoted).joined(separator: ",") + "\r\n"
    for row in rows {
      out += row.map(Self.rendered).joined(separator: ",") + "\r\n"
    }
    return out
  }

  private static func rendered(_ field: Field) -> String {
    switch field {
    case .text(let s): quoted(defused(printable(s)))
    case .number(let x?) where x.isFinite:
      x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
    case .number: ""
    case .integer(let i): String(i)
    case .empty: ""
    }
  }

  /// Every control character but tab and the line breaks (quoted, below) as U+FFFD: a file
  /// shown in a terminal cannot send it escape sequences.
  static func printable(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      return s
    }
    var out = ""
    for scalar in s.unicodeScalars {
      let kept = scalar == "\t" || scalar == "\n" || scalar == "\r"
      if scalar.properties.generalCategory == .control && !kept {
        out += "\u{FFFD}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A text field with a `'` before a leading formula character.
  static func defused(_ s: String) -> String {
    guard let first = s.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else {
      return s
    }
    return "'" + s
  }

  /// Scalars, not characters: `"\r\n"` is one `Character`, equal to neither line break.
  static func quoted(_ s: String) -> String {
    guard
      s.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
    else { return s }
    return "\"" + s.replacingAll("\"", with: "\"\"") + "\""
  }
}

extension String {
  /// By scalar: a quote followed by a combining mark is one `Character`, unequal to `"`, and
  /// would otherwise be written undoubled, ending the field early.
  fileprivate func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
    var out = ""
    for scalar in unicodeScalars {
      if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }
}
