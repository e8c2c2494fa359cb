import ResonanceModel

/// A file whose content is not what it should be: exit 65, and the store left as it was.
package struct IngestError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// Not well-formed: truncated, mismatched tags, bad characters.
    case malformed
    /// Not a kind of file any reader knows.
    case unrecognized
  }

  package var kind: Kind
  package var location: SourceLocation
  /// What was expected and what was found, in lower case.
  package var message: String

  package init(_ kind: Kind, at location: SourceLocation, _ message: String) {
    self.kind = kind
    self.location = location
    self.message = message
  }

  package var description: String { "\(location): \(message)" }
}
