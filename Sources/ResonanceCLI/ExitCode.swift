import ResonanceModel
import ResonanceStages

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
  /// An input file or the store does not exist (`EX_NOINPUT`).
  package static let noInput = ExitCode(66)
  /// An input could not be read or an output written (`EX_IOERR`).
  package static let ioError = ExitCode(74)
  /// The store is busy with another run; try again (`EX_TEMPFAIL`).
  package static let storeBusy = ExitCode(75)

  /// The code of a kind of failure a stage reports.
  package init(_ kind: StageError.Kind) { self.init(kind.exitStatus) }

  /// Orders by numeric value: a command that met several errors exits with the highest.
  package static func < (lhs: ExitCode, rhs: ExitCode) -> Bool { lhs.code < rhs.code }

  package var description: String { "\(code)" }

  /// The one place that decides which exit code an error means: 64 for the command line,
  /// else what the stages layer says the error is (`StageError.Kind.of(_:)`).
  package static func of(_ error: any Error) -> ExitCode {
    if error is UsageError { return .usage }
    return ExitCode(StageError.Kind.of(error))
  }
}
