/// The command line is wrong: an unknown command or option, a missing value, a bad number.
///
/// Always exit 64. The message says what was wrong; the hint says what would be right.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, in lower case without a final full stop.
  package var message: String
  /// A suggestion: the nearest option name, the expected form, or where to read more.
  package var hint: String?

  package init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }

  package var description: String { message }
}
