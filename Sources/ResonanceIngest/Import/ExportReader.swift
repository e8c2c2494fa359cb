import ResonanceIO
import ResonanceModel

/// Where the walk over an input sends what it finds: the reading thread's end of the queue to
/// the store's writer.
///
/// One thread uses a sink at a time (the reading thread); implementations are `Sendable` so
/// that the writing thread can hold the other end.
package protocol ImportSink: AnyObject, Sendable {
  /// Sends one event; false when the store's side has abandoned the current import (a write
  /// failed), so the reader should read no further.
  func emit(_ event: ImportEvent) -> Bool
  /// An empty array to fill with the next Health items: the storage of a batch the writer has
  /// finished with when one has come back (its values are freed on this thread, which made
  /// them), else a new array.
  func reusableHealthBatch() -> [HealthItem]
  /// The bytes the current import's reader has consumed so far, for a progress bar.
  func progress(_ bytesRead: Int64)
}

extension ImportSink {
  /// Sends one batch of the current import; false when the reader should stop.
  func send(_ batch: ImportBatch) -> Bool { emit(.batch(batch)) }
}

/// A reader of one format: reads a recognised stream to its end and sends what it finds to
/// the sink, in the file's order.
package protocol ExportReader {
  /// - Parameters:
  ///   - source: the stream, from its first byte (recognition only peeked at it); its `name`
  ///     is what messages and the ledger call the file.
  ///   - sink: where batches go.
  /// - Returns: what the reader found besides the batches.
  /// - Throws: `IngestError` for content that is not what the format says, `IOError` when
  ///   the stream cannot be read; `BrokenFile` when a file breaks after some of it was sent
  ///   and that part may be kept (`--keep-partial`).
  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary
}

/// A file that broke part-way, with what was read before the break.
package struct BrokenFile: Error, Sendable, CustomStringConvertible {
  package var error: IngestError
  package var summary: ReadSummary

  package var description: String { error.description }
}
