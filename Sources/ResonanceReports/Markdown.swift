/// Small builders for the Markdown the reports write: tables and escaped cells.
package enum Markdown {
  /// A pipe table; `alignments` uses `l` or `r` per column (left by default).
  ///
  /// Cells are escaped (`escape`), so any text is safe in a cell.
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

  /// Escapes a table cell: a `|` would end it, a line break would end the row, and a `<`
  /// that could open an HTML tag (before a letter, `/`, `!` or `?`) would be markup to a
  /// renderer — a song called `<b>Intro</b>` stays text.
  package static func escape(_ cell: String) -> String {
    var out = ""
    var previous: Character?
    for c in cell {
      if let p = previous, p == "<", c.isLetter || c == "/" || c == "!" || c == "?" {
        out.removeLast()
        out += "\\<"
      }
      switch c {
      case "|": out += "\\|"
      case "\n": out += " "
      default: out.append(c)
      }
      previous = c
    }
    return out
  }
}
