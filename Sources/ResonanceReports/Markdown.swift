/// Small builders for the Markdown the reports write: tables and escaped cells.
package enum Markdown {
  /// A pipe table; `alignments` uses `l` or `r` per column (left by default).
  ///
  /// Cells have `|` escaped and newlines flattened, so any text is safe in a cell.
  package static func table(
    header: [String], rows: [[String]], alignments: [Character] = []
  ) -> String {
    func line(_ cells: [String]) -> String {
      "| " + cells.map(escape).joined(separator: " | ") + " |"
    }
    let rule = header.indices.map { index -> String in
      index < alignments.count && alignments[index] == "r" ? "---:" : "---"
    }
    return ([line(header), "|" + rule.joined(separator: "|") + "|"] + rows.map(line))
      .joined(separator: "\n") + "\n"
  }

  /// Escapes a table cell.
  package static func escape(_ cell: String) -> String {
    cell.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }

  /// `1234567` → `1,234,567`, locale-free.
  package static func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude))
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
