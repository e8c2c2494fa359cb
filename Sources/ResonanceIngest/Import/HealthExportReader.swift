import Dispatch
import ResonanceIO
import ResonanceModel
import Synchronization

/// Reads an Apple Health export's XML through libxml2's push parser, sending its records in
/// batches as they are parsed. iOS 16's broken DTD and stray vertical tabs are repaired on the
/// way, each with a warning.
///
/// Two threads share the work: this one runs libxml2 and records the element events
/// (`XMLEventRecorder`); a thread of its own replays them into `AppleHealthReader`, which
/// builds the records and sends them to the sink. libxml2's parse alone is about as much work
/// as the reader's and the store's put together, so split this way the parsing thread no
/// longer sets the pace on two cores (`docs/performance.md`).
struct HealthExportReader: ExportReader {
  /// Recorded batches in flight between the two threads.
  static let batchesInFlight = 4
  /// About how many bytes of attribute values a recorded batch holds.
  static let batchBytes = 256 << 10
  /// Health values per batch sent to the store.
  static let itemsPerBatch = 2048

  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    let file = source.name
    let decoding = HealthDecoding(file: file, sink: sink)
    let recorder = XMLEventRecorder(batchBytes: Self.batchBytes) { full in decoding.send(full) }
    let parser = XMLPushParser(
      handler: recorder, repairs: .init(stripsInternalSubset: true, replacesVerticalTabs: true))
    struct Stop: Error {}
    var failure: IngestError?
    do {
      try source.forEachChunk { chunk in
        if decoding.isStopped { throw Stop() }
        try parser.feed(chunk)
      }
      try parser.finish()
    } catch let error as XMLParseError {
      failure = IngestError(
        .malformed, at: SourceLocation(file: file, line: error.line, column: error.column),
        "malformed XML: \(error.message)")
    } catch is Stop {
      failure = nil
    } catch {
      // A read error: the events recorded so far are still decoded, then it goes on up.
      recorder.flush()
      _ = decoding.finish()
      throw error
    }
    // Everything recorded before the end (or the first error) is decoded and sent.
    recorder.flush()
    var summary = decoding.finish()
    let report = parser.report
    if report.internalSubsetWasMalformed {
      summary.diagnostics.append(
        Diagnostic(
          .warning,
          "the export's DTD is malformed (as iOS 16 wrote it); it was skipped, and nothing depends on it",
          at: SourceLocation(file: file, line: 2)))
      summary.warnings += 1
    }
    if report.verticalTabs > 0 {
      summary.diagnostics.append(
        Diagnostic(
          .warning, "\(report.verticalTabs) stray vertical-tab characters (0x0B) read as spaces",
          at: SourceLocation(file: file, line: report.firstVerticalTabLine)))
      summary.warnings += 1
    }
    if let failure { throw BrokenFile(error: failure, summary: summary) }
    return summary
  }
}

/// The decoding thread: replays recorded batches into an `AppleHealthReader`, whose batches
/// of records go to the sink, and hands spent event batches back for refilling.
private final class HealthDecoding: Sendable {
  private let queue = BoundedQueue<XMLEventBatch>(capacity: HealthExportReader.batchesInFlight)
  private let spent = Mutex<[XMLEventBatch]>([])
  private let stopped = Atomic<Bool>(false)
  private let done = DispatchSemaphore(value: 0)
  private let result = Mutex<ReadSummary?>(nil)

  init(file: String, sink: any ImportSink) {
    WorkerThread.start { [self] in
      let reader = AppleHealthReader(
        file: file, batchSize: HealthExportReader.itemsPerBatch,
        exchange: { [self] batch in
          if !sink.send(.health(batch)) { stopped.store(true, ordering: .relaxed) }
          return sink.reusableHealthBatch()
        })
      let replayer = XMLEventReplayer()
      while var batch = queue.pop() {
        // Once the store's side has given up, what is still in flight is dropped.
        if !stopped.load(ordering: .relaxed) { replayer.replay(batch, into: reader) }
        batch.removeAll()
        var moving = Optional(batch)
        spent.withLock { $0.append(moving.take()!) }
      }
      reader.flush()
      var summary = ReadSummary()
      summary.rows = reader.counts.records
      summary.diagnostics = reader.diagnostics
      summary.warnings = reader.warningCount
      summary.notImported = reader.counts.notImported
      summary.metadataDropped = reader.counts.metadataDropped
      result.withLock { $0 = summary }
      done.signal()
    }
  }

  /// Whether the store's side has abandoned the import: the parser should stop.
  var isStopped: Bool { stopped.load(ordering: .relaxed) }

  /// Queues a full batch (waiting while `batchesInFlight` are queued) and returns one to fill
  /// next.
  func send(_ batch: XMLEventBatch) -> XMLEventBatch {
    queue.push(batch)
    return spent.withLock { $0.popLast() } ?? XMLEventBatch()
  }

  /// No more batches: waits until every one sent has been decoded, and returns what the
  /// reader found.
  func finish() -> ReadSummary {
    queue.close()
    done.wait()
    return result.withLock { $0 } ?? ReadSummary()
  }
}
