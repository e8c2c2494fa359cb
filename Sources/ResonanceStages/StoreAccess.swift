import Foundation
import ResonanceModel
import ResonanceStore

extension StoreLocation {
  /// Opens the store, creating and migrating it when it is not there (`ingest`).
  ///
  /// - Throws: `StoreError` (busy, newer schema, not a store, the disk).
  func create() throws -> Store {
    try Store(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
  }

  /// Opens a store that must exist already. A missing one is `StageError.missingInput`
  /// naming the `ingest` command that makes it, and nothing is created.
  ///
  /// - Parameter command: the command the person ran, for the message (`analyze`).
  /// - Throws: `StageError` when the file is not there; `StoreError` from opening.
  func existing(for command: String) throws -> Store {
    try requireExisting(for: command)
    return try create()
  }

  /// Opens a store that must exist already, for a command that only reads it
  /// (`Store(readingAt:)`: no journal-mode switch, no migration).
  ///
  /// - Throws: `StageError` when the file is not there; `StoreError` from opening.
  func reading(for command: String) throws -> Store {
    try requireExisting(for: command)
    return try Store(readingAt: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
  }

  /// Fails, naming what makes a store, when there is none at `path`; opens nothing.
  ///
  /// - Throws: `StageError.missingInput`.
  func requireExisting(for command: String) throws(StageError) {
    guard FileManager.default.fileExists(atPath: path) else {
      throw StageError(
        .missingInput,
        "\(path): no store here; import the files first (resonance ingest FILES --db \(path)), "
          + "then resonance \(command)")
    }
  }
}
