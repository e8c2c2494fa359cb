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

/// A reader's warnings: every one counted, the first thousand kept, so that a file of nothing
/// but bad lines costs no more memory than a thousand messages.
package struct DiagnosticLog: Sendable, Equatable {
  /// How many are kept.
  package static let kept = 1000

  package private(set) var diagnostics: [Diagnostic] = []
  /// Every warning, kept or not.
  package private(set) var count = 0

  package init() {}

  package mutating func append(_ diagnostic: Diagnostic) {
    count += 1
    if diagnostics.count < Self.kept { diagnostics.append(diagnostic) }
  }
}
