/// A failure a stage reports in its own words, for cases no lower layer's error describes (a
/// store that is not there, an output folder that cannot be created, a log that does not
/// replay). `kind` decides the exit status the command gives.
package struct StageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure it is, for the exit status (`sysexits.h`'s meanings).
  package enum Kind: Sendable, Equatable, Comparable {
    /// Something failed that none of the others describes (exit 1).
    case failure
    /// An input's content was not what it should be, or the store is from a newer build
    /// (exit 65).
    case badData
    /// An input, or the store, does not exist (exit 66).
    case missingInput
    /// An input could not be read or an output written (exit 74).
    case io
    /// The store is busy with another run; try again (exit 75).
    case busy

    /// The process exit status the kind means, after BSD's `sysexits.h`.
    package var exitStatus: Int32 {
      switch self {
      case .failure: 1
      case .badData: 65
      case .missingInput: 66
      case .io: 74
      case .busy: 75
      }
    }
  }

  package var kind: Kind
  /// What went wrong, in lower case without a final full stop, naming the file.
  package var message: String

  package init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  package var description: String { message }
}

/// Where a store is and how long to wait for another run that holds it.
package struct StoreLocation: Sendable, Equatable {
  /// The SQLite file.
  package var path: String
  /// How long a run waits for another that is writing, in milliseconds.
  package var busyTimeoutMilliseconds: Int32

  package init(path: String, busyTimeoutMilliseconds: Int32 = 30_000) {
    self.path = path
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
  }

  /// What a store path must be, as a usage error says it.
  package static let expectedPath = "a file path (not empty, not ':memory:', not a 'file:' URI)"

  /// Whether `text` names a store file: SQLite would take an empty name or `:memory:` for a
  /// throw-away database, and a `file:` name for a URI, and keep nothing.
  package static func isFilePath(_ text: String) -> Bool {
    !text.isEmpty && text != ":memory:" && !text.hasPrefix("file:")
  }

  /// An environment variable that does not say what it must: the message and what was expected.
  package struct InvalidSetting: Error, Sendable, Equatable {
    package var message: String
    package var expected: String
  }

  /// The store path: `path` (`--db`), else `$RESONANCE_DB`, else `./resonance.sqlite`; the busy
  /// wait from `$RESONANCE_BUSY_TIMEOUT` (seconds) when set.
  ///
  /// - Throws: `InvalidSetting` for a `RESONANCE_DB` that is not a file path (`isFilePath`),
  ///   or a `RESONANCE_BUSY_TIMEOUT` that is not seconds from 0 to 86400.
  package static func resolve(_ path: String?, _ environment: [String: String])
    throws(InvalidSetting) -> StoreLocation
  {
    if path == nil, let variable = environment["RESONANCE_DB"], !isFilePath(variable) {
      throw InvalidSetting(message: "invalid RESONANCE_DB '\(variable)'", expected: expectedPath)
    }
    var location = StoreLocation(path: path ?? environment["RESONANCE_DB"] ?? "resonance.sqlite")
    if let text = environment["RESONANCE_BUSY_TIMEOUT"] {
      guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
        throw InvalidSetting(
          message: "invalid RESONANCE_BUSY_TIMEOUT '\(text)'", expected: "seconds from 0 to 86400")
      }
      location.busyTimeoutMilliseconds = Int32(seconds * 1000)
    }
    return location
  }
}
