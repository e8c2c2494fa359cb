import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

extension StageError.Kind {
  /// The one place that decides what kind of failure an error is, whichever layer threw it.
  package static func of(_ error: any Error) -> StageError.Kind {
    switch error {
    case let error as StageError:
      return error.kind
    case let error as IOError:
      switch error.kind {
      case .missing: return .missingInput
      case .unreadable, .failed: return .io
      }
    case let error as StoreError:
      switch error.kind {
      case .busy: return .busy
      case .limit: return .failure
      case .newerSchema, .olderSchema, .notAStore: return .badData
      case .sqlite(let code):
        // SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN: the disk, not the data.
        return [8, 10, 13, 14].contains(code) ? .io : .failure
      }
    case is IngestError:
      return .badData
    case is BrokenFile:
      return .badData
    default:
      return .failure
    }
  }
}
