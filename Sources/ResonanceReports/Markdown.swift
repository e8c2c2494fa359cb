/// Small builders for the Markdown the reports write: tables and escaped cells.
package enum Markdown {
  /// A pipe table; `alignments` uses `l` or `r` per column (left by default).
  ///
  /// Cells are escaped (`escape`), so any text is safe in a cell.
  package static func table(
    header: [String], rows: [[String]], alignments: [Character] = [], markup: Set<Int> = []
  ) -> String {
    func line(_ cells: [String]) -> String {
      let escaped = cells.enumerated().map { markup.contains($0) ? $1 : escape($1) }
      return "| " + escaped.joined(separator: " | ") + " |"
    }
    let rule = header.indices.map { index -> String in
      index < alignments.count && alignments[index] == "r" ? "---:" : "---"
    }
    return ([line(header), "|" + rule.joined(separator: "|") + "|"] + rows.map(line))
      .joined(separator: "\n") + "\n"
  }

  /// Escapes a table cell (`markup` names the columns whose cells are Markdown the page built
  /// itself, already escaped): a `|` would end it (and so would one after a `\`, which escapes
  /// a backslash, so `\` is written `\\` too), a line break would end the row, a `<` that
  /// could open an HTML tag (before a letter, `/`, `!` or `?`) would be markup to a renderer,
  /// and a `[` or `]` could make a link (`[x](javascript:…)`) — a song called `<b>Intro</b>`
  /// or `[x](y)` stays text. Line breaks (CR, LF, CRLF, U+2028/2029) and tabs become spaces;
  /// every other control character (ESC included) becomes U+FFFD, so a page shown in a
  /// terminal cannot send it escape sequences.
  package static func escape(_ cell: String) -> String {
    var out = ""
    var previous: Unicode.Scalar?
    for c in cell.unicodeScalars {
      if previous == "<", c.properties.isAlphabetic || c == "/" || c == "!" || c == "?" {
        out.removeLast()
        out += "\\<"
      }
      switch c {
      case "\\": out += "\\\\"
      case "|": out += "\\|"
      case "[": out += "\\["
      case "]": out += "\\]"
      case "\n", "\r", "\t", "\u{2028}", "\u{2029}": out += " "
      case _ where c.properties.generalCategory == .control: out += "\u{FFFD}"
      default: out.unicodeScalars.append(c)
      }
      previous = c
    }
    return out
  }
}
