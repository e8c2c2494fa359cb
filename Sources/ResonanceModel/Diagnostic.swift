/// A problem found in the input that did not stop the work: a bad record skipped, a quirk
/// tolerated. Readers collect diagnostics and the command reports them together at the end.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
  /// How serious a diagnostic is; `--strict` style options may promote warnings to errors.
  package enum Severity: String, Sendable, Equatable, Comparable {
    case note, warning, error

    package static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs.order < rhs.order
    }

    private var order: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }
  }

  package var severity: Severity
  package var location: SourceLocation?
  /// Lower-case, without a final full stop, in the style of compiler messages.
  package var message: String

  package init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
    self.severity = severity
    self.message = message
    self.location = location
  }

  /// `warning: FILE:LINE:COL: message`, the form printed on stderr.
  package var description: String {
    if let location {
      return "\(severity.rawValue): \(location): \(message)"
    }
    return "\(severity.rawValue): \(message)"
  }
}
