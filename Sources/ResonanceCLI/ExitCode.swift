import ResonanceIO
import ResonanceIngest
import ResonanceStore

/// A process exit code, following BSD's `sysexits.h` where it has a meaning for us.
package struct ExitCode: Sendable, Equatable, Comparable, CustomStringConvertible {
  package var code: Int32

  package init(_ code: Int32) { self.code = code }

  /// All went well.
  package static let ok = ExitCode(0)
  /// Something failed that none of the codes below describes.
  package static let failure = ExitCode(1)
  /// The command line was wrong (`EX_USAGE`).
  package static let usage = ExitCode(64)
  /// An input's content was not what it should be, or the store is from a newer build
  /// (`EX_DATAERR`).
  package static let dataError = ExitCode(65)
  /// An input file does not exist (`EX_NOINPUT`).
  package static let noInput = ExitCode(66)
  /// An input could not be read or an output written (`EX_IOERR`).
  package static let ioError = ExitCode(74)
  /// The store is busy with another run; try again (`EX_TEMPFAIL`).
  package static let storeBusy = ExitCode(75)

  /// Orders by numeric value: a command that met several errors exits with the highest.
  package static func < (lhs: ExitCode, rhs: ExitCode) -> Bool { lhs.code < rhs.code }

  package var description: String { "\(code)" }

  /// The one place that decides which exit code an error means.
  package static func of(_ error: any Error) -> ExitCode {
    switch error {
    case is UsageError:
      return .usage
    case let error as IOError:
      switch error.kind {
      case .missing: return .noInput
      case .unreadable, .failed: return .ioError
      }
    case let error as StoreError:
      switch error.kind {
      case .busy: return .storeBusy
      case .newerSchema, .notAStore: return .dataError
      case .sqlite(let code):
        // SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN: the disk, not the data.
        return [8, 10, 13, 14].contains(code) ? .ioError : .failure
      }
    case is IngestError:
      return .dataError
    case let error as CommandError:
      return error.status
    default:
      return .failure
    }
  }
}

/// A failure a command reports with a chosen exit code and message, for cases no layer's
/// error type covers (an output folder that cannot be created, say).
package struct CommandError: Error, Sendable, CustomStringConvertible {
  package var status: ExitCode
  package var message: String

  package init(_ status: ExitCode, _ message: String) {
    self.status = status
    self.message = message
  }

  package var description: String { message }
}
