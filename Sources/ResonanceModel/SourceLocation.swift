/// A place in an input file, as `file:line:col` tools and editors understand it.
///
/// Lines and columns count from 1; a column or line of `nil` means the reader only knows the
/// coarser position (a whole file, or a whole line).
package struct SourceLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// The path as the user gave it, or `ZIP!MEMBER` for a member of an archive.
  package var file: String
  package var line: Int?
  package var column: Int?

  package init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file`, `file:line` or `file:line:col`, whichever the location knows.
  package var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    return text
  }
}
