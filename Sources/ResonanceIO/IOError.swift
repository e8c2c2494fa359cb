/// A file could not be found, opened or read.
///
/// The command layer maps `.missing` to exit 66 and the others to exit 74.
package struct IOError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// Nothing exists at the path.
    case missing
    /// The path exists but cannot be read (permissions, a directory where a file was expected).
    case unreadable
    /// The operating system reported a failure while reading or writing.
    case failed
  }

  package var kind: Kind
  package var path: String
  /// What the operating system said, in lower case (`permission denied`).
  package var reason: String

  package init(_ kind: Kind, path: String, reason: String) {
    self.kind = kind
    self.path = path
    self.reason = reason
  }

  package var description: String {
    switch kind {
    case .missing: "\(path): no such file"
    case .unreadable: "\(path): cannot read: \(reason)"
    case .failed: "\(path): \(reason)"
    }
  }
}
