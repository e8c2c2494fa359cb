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
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
