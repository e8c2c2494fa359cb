import ResonanceModel

/// How a notebook block's result is written between its markers.
package enum NotebookOutput {
  /// A command's standard output in a `text` fence; "(no output)" when it printed nothing.
  package static func text(_ printed: String) -> String {
    let body = printed.hasSuffix("\n") ? String(printed.dropLast()) : printed
    return fenced(body.isEmpty ? "(no output)" : body)
  }

  /// A block that failed or was refused: the message, and the exit status when there is one.
  package static func failure(_ message: String, status: Int? = nil) -> String {
    var body = message.hasSuffix("\n") ? String(message.dropLast()) : message
    if let status { body += "\n(exit \(status))" }
    return fenced(body)
  }

  /// `body` in a `text` fence that nothing in it can end or escape, as the report escapes its
  /// pages: control characters other than line feed and tab become U+FFFD (a terminal showing
  /// the file gets no escape sequence; a CR cannot hide a line), the fence is longer than any
  /// run of backticks inside, and a line that reads as an output marker has its `<` written
  /// `&lt;`, so the notebook still parses back to the same blocks.
  static func fenced(_ body: String) -> String {
    var clean = ""
    var run = 0
    var longest = 0
    for c in body.unicodeScalars {
      run = c == "`" ? run + 1 : 0
      longest = max(longest, run)
      let isControl = c.properties.generalCategory == .control && c != "\n" && c != "\t"
      clean.unicodeScalars.append(isControl ? "\u{FFFD}" : c)
    }
    let lines = clean.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let text = String(line)
      guard text.trimmed == Notebook.openMarker || text.trimmed == Notebook.closeMarker else {
        return text
      }
      return text.split(separator: "<", omittingEmptySubsequences: false).joined(separator: "&lt;")
    }
    let fence = String(repeating: "`", count: max(3, longest + 1))
    return fence + "text\n" + lines.joined(separator: "\n") + "\n" + fence
  }

  /// A query's rows as a Markdown table: integers as they are, real numbers to four decimals
  /// (whole ones without decimals, in scientific notation below 0.001), NULL as `–`, a blob
  /// by its size; "(no rows)" for an
  /// empty result, and a note for rows beyond the limit.
  package static func table(_ table: QueryTable) -> String {
    guard !table.columns.isEmpty else { return "(no rows)" }
    guard !table.rows.isEmpty else {
      return Markdown.table(header: table.columns, rows: []) + "\n(no rows)"
    }
    let alignments: [Character] = table.columns.indices.map { c in
      table.rows.allSatisfy { row in
        switch row[c] {
        case .integer, .real, .null: true
        default: false
        }
      } ? "r" : "l"
    }
    var text = Markdown.table(
      header: table.columns, rows: table.rows.map { $0.map(cell) }, alignments: alignments)
    if table.more > 0 {
      text += "\n… and \(Format.grouped(table.more)) more rows (a `LIMIT` chooses which)\n"
    }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  static func cell(_ value: QueryTable.Value) -> String {
    switch value {
    case .null: return "–"
    case .integer(let v): return String(v)
    case .text(let v): return v
    case .blob(let n): return "(\(n) bytes)"
    case .real(let v):
      guard v.isFinite else { return "\(v)" }
      if v == v.rounded(), abs(v) < 1e15 { return Format.fixed(v, 0) }
      if v != 0, abs(v) < 0.001 { return Format.scientific(v) }
      var text = Format.fixed(v, 4)
      while text.hasSuffix("0") { text.removeLast() }
      return text.hasSuffix(".") ? text + "0" : text
    }
  }

  /// A unified diff of two texts, line by line, with two lines of context: what `--check`
  /// shows for a stale notebook.
  package static func diff(_ old: String, _ new: String, name: String) -> String {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The longest common subsequence, by dynamic programming from the ends.
    var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
      }
    }
    enum Edit {
      case same(String)
      case removed(String)
      case added(String)
    }
    var edits: [Edit] = []
    var (i, j) = (0, 0)
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i] == b[j] {
        edits.append(.same(a[i]))
        i += 1
        j += 1
      } else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] {
        edits.append(.removed(a[i]))
        i += 1
      } else {
        edits.append(.added(b[j]))
        j += 1
      }
    }
    var out = "--- \(name)\n+++ \(name) (re-run)\n"
    var printed = -1
    for (k, edit) in edits.enumerated() {
      let near = edits[max(0, k - 2)...min(edits.count - 1, k + 2)].contains {
        if case .same = $0 { return false }
        return true
      }
      guard near else { continue }
      if printed >= 0, printed < k - 1 { out += "…\n" }
      switch edit {
      case .same(let line): out += "  " + line + "\n"
      case .removed(let line): out += "- " + line + "\n"
      case .added(let line): out += "+ " + line + "\n"
      }
      printed = k
    }
    return out
  }
}
