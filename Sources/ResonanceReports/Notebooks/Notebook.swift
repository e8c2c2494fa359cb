import ResonanceModel

/// A Markdown research notebook (`notebooks-md/`): prose, and fenced blocks tagged
/// ```` ```resonance ```` or ```` ```sql ```` whose output sits right after them between
/// `<!-- output -->` and `<!-- /output -->`. Parsing keeps every line that is not a block's
/// output exactly as written, so rendering with new outputs changes nothing else, and rendering
/// with the outputs a file already holds gives the file back (`docs/notebooks.md`).
package struct Notebook: Sendable, Equatable {
  /// A block the runner executes.
  package struct Block: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable {
      case resonance
      case sql
    }

    package var kind: Kind
    /// The lines between the fences.
    package var code: String
    /// The 1-based line of the opening fence, for messages.
    package var line: Int
    /// The output the file holds for it, without the markers; nil when it has none yet.
    package var output: String?
  }

  enum Piece: Sendable, Equatable {
    /// Lines kept as they are.
    case text([String])
    /// A block: its fence and code lines as written, and its index in `blocks`.
    case block(lines: [String], index: Int)
  }

  package static let openMarker = "<!-- output -->"
  package static let closeMarker = "<!-- /output -->"

  package private(set) var blocks: [Block] = []
  var pieces: [Piece] = []

  /// Splits `text` into prose and blocks. Fences of other languages (and anything inside
  /// them, ```` ```resonance ```` included) are prose; a block without a closing fence is
  /// prose too.
  package init(parsing text: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var prose: [String] = []
    var i = 0
    func flush() {
      if !prose.isEmpty { pieces.append(.text(prose)) }
      prose = []
    }
    while i < lines.count {
      let line = lines[i]
      guard let fence = Self.fence(line) else {
        prose.append(line)
        i += 1
        continue
      }
      // The closing fence: at least as many backticks, nothing else on the line.
      var j = i + 1
      while j < lines.count, !Self.closes(lines[j], fence.ticks) { j += 1 }
      guard j < lines.count else {
        prose.append(contentsOf: lines[i...])
        break
      }
      guard let kind = Block.Kind(rawValue: fence.info) else {
        prose.append(contentsOf: lines[i...j])
        i = j + 1
        continue
      }
      flush()
      var block = Block(
        kind: kind, code: lines[(i + 1)..<j].joined(separator: "\n"), line: i + 1, output: nil)
      pieces.append(.block(lines: Array(lines[i...j]), index: blocks.count))
      i = j + 1
      // Its output, if the file has one: after blank lines, between the markers.
      var m = i
      while m < lines.count, lines[m].allSatisfy(\.isWhitespace) { m += 1 }
      if m < lines.count, lines[m].trimmed == Self.openMarker,
        let end = lines[(m + 1)...].firstIndex(where: { $0.trimmed == Self.closeMarker })
      {
        block.output = lines[(m + 1)..<end].joined(separator: "\n")
        i = end + 1
      }
      blocks.append(block)
    }
    flush()
  }

  /// The notebook with `outputs[k]` as block k's output (a block beyond `outputs` keeps the
  /// one it has): each block, a blank line, and its output between the markers.
  package func rendered(outputs: [String]) -> String {
    var lines: [String] = []
    for piece in pieces {
      switch piece {
      case .text(let text):
        lines += text
      case .block(let block, let index):
        lines += block
        guard let output = index < outputs.count ? outputs[index] : blocks[index].output else {
          continue
        }
        lines += ["", Self.openMarker]
        if !output.isEmpty { lines.append(output) }
        lines.append(Self.closeMarker)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The opening fence of a line: its backtick count and the first word of its info string.
  static func fence(_ line: String) -> (ticks: Int, info: String)? {
    let ticks = line.prefix { $0 == "`" }.count
    guard ticks >= 3 else { return nil }
    let info = line.dropFirst(ticks).split(separator: " ").first.map(String.init) ?? ""
    return info.contains("`") ? nil : (ticks, info)
  }

  static func closes(_ line: String, _ ticks: Int) -> Bool {
    let trimmed = line.trimmed
    return trimmed.count >= ticks && trimmed.allSatisfy { $0 == "`" }
  }
}

extension String {
  /// Without whitespace at either end.
  var trimmed: String {
    var s = Substring(self)
    while let first = s.first, first.isWhitespace { s.removeFirst() }
    while let last = s.last, last.isWhitespace { s.removeLast() }
    return String(s)
  }
}
