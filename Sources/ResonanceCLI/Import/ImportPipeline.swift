import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore
import Synchronization

/// The one import pipeline, for every format: Ingest's walk over an input reads on a thread of
/// its own while this thread writes what it finds into the store, a bounded queue between
/// them. Each file or archive member is one unit of work (`Store.beginImport`): committed
/// whole, or rolled back on any error, the next one going on.
final class ImportPipeline {
  /// What happened to one input, as it happens.
  enum Event {
    case imported(ImportResult)
    /// `file` is nil when the failure came before the input was named (a path that does not
    /// exist names itself in its error).
    case failed(file: String?, any Error)
    case skipped(SkippedInput)
    case notImported(file: String, parts: [String: Int])
  }

  let store: Store
  let zone: TimeZoneFallback
  let forced: ImportFormat?
  let keepPartial: Bool
  let progress: (_ file: String, _ total: Int64?) -> ProgressReporter

  init(
    store: Store, zone: TimeZoneFallback, forced: ImportFormat?, keepPartial: Bool,
    progress: @escaping (String, Int64?) -> ProgressReporter
  ) {
    self.store = store
    self.zone = zone
    self.forced = forced
    self.keepPartial = keepPartial
    self.progress = progress
  }

  /// Imports everything under `path` (`-`: standard input), telling `report` what became of
  /// each input in order.
  func run(_ path: String, report: (Event) -> Void) {
    let sink = QueueSink()
    let done = DispatchSemaphore(value: 0)
    let forced = self.forced
    let reader = Thread {
      InputWalker(sink: sink, forced: forced).walk(path: path)
      sink.queue.close()
      done.signal()
    }
    reader.stackSize = 8 << 20
    reader.start()
    defer {
      sink.queue.close()
      done.wait()
    }
    var open: (unit: ImportTransaction, file: String, format: ImportFormat, bar: ProgressReporter)?
    var started = Date()
    func abandon(_ error: any Error) {
      if let current = open {
        current.bar.finish()
        current.unit.rollback()
        report(.failed(file: current.file, error))
      }
      open = nil
      sink.abandonCurrent()
    }
    while var event = sink.queue.pop() {
      if case .batch(.health(let items)) = event {
        // The batch goes back to the reading thread to be refilled, and must hold its only
        // reference then: the event lets go of it first.
        event = .batch(.health([]))
        if let current = open {
          do {
            try current.unit.write(.health(items))
            current.bar.update(sink.bytesRead)
          } catch {
            abandon(error)
          }
        }
        sink.spent.put(consume items)
        continue
      }
      switch event {
      case .begin(let file, let format, let expected):
        sink.beginWriting()
        started = Date()
        do {
          open = (
            try store.beginImport(file: file, format: format, zone: zone), file, format,
            progress(file, expected)
          )
        } catch {
          report(.failed(file: file, error))
          sink.abandonCurrent()
        }
      case .batch(let batch):
        guard let current = open else { continue }
        do {
          try current.unit.write(batch)
          current.bar.update(sink.bytesRead)
        } catch {
          abandon(error)
        }
      case .end(let sha256, let bytes, let summary):
        guard let current = open else { continue }
        open = nil
        current.bar.finish()
        do {
          report(
            .imported(
              try commit(
                current.unit, file: current.file, format: current.format, sha256: sha256,
                bytes: bytes, summary: summary, started: started)))
        } catch {
          report(.failed(file: current.file, error))
        }
      case .failed(let error, let partial):
        guard let current = open else {
          report(.failed(file: nil, error))
          continue
        }
        open = nil
        current.bar.finish()
        if keepPartial, error is IngestError, var partial {
          partial.summary.warnings += 1
          partial.summary.diagnostics.append(
            Diagnostic(
              .warning, "kept what parsed before the error (--keep-partial)",
              at: SourceLocation(file: current.file)))
          do {
            report(
              .imported(
                try commit(
                  current.unit, file: current.file, format: current.format,
                  sha256: partial.sha256, bytes: partial.bytes, summary: partial.summary,
                  started: started, status: .partial)))
          } catch {
            report(.failed(file: current.file, error))
            continue
          }
        } else {
          current.unit.rollback()
        }
        report(.failed(file: current.file, error))
      case .skipped(let input): report(.skipped(input))
      case .notImported(let file, let parts): report(.notImported(file: file, parts: parts))
      }
    }
  }

  private func commit(
    _ unit: ImportTransaction, file: String, format: ImportFormat, sha256: String, bytes: Int64,
    summary: ReadSummary, started: Date, status: ImportEntry.Status = .complete
  ) throws -> ImportResult {
    let (outcome, counts) = try unit.commit(
      sha256: sha256, bytes: bytes, status: status, warnings: summary.warnings)
    let (entry, resultStatus): (ImportEntry, ImportResult.Status) =
      switch outcome {
      case .imported(let entry): (entry, status == .partial ? .partial : .complete)
      case .alreadyImported(let entry): (entry, .alreadyImported)
      }
    var result = ImportResult(
      file: file, format: format, status: resultStatus, entry: entry, bytes: bytes,
      read: summary, counts: counts, seconds: Date().timeIntervalSince(started))
    result.notImported = summary.notImported
    return result
  }
}

/// The reading thread's end of the pipeline: events go into a bounded queue (the walk waits
/// when the writer is behind), written Health batches come back to be refilled, and the
/// writer can abandon the import in progress.
private final class QueueSink: ImportSink {
  let queue = BoundedQueue<ImportEvent>(capacity: 8)
  let spent = SpentBatches()
  /// Imports begun on the reading side, and on the writing side; the import the writer
  /// abandoned (0 for none).
  private let begunReading = Atomic<Int>(0)
  private let begunWriting = Atomic<Int>(0)
  private let abandoned = Atomic<Int>(0)
  private let read = Atomic<Int64>(0)

  func emit(_ event: ImportEvent) -> Bool {
    switch event {
    case .begin:
      begunReading.add(1, ordering: .relaxed)
      read.store(0, ordering: .relaxed)
    case .batch:
      if abandoned.load(ordering: .relaxed) == begunReading.load(ordering: .relaxed) {
        return false
      }
    default: break
    }
    return queue.push(event)
  }

  func reusableHealthBatch() -> [HealthItem] { spent.take() }
  func progress(_ bytesRead: Int64) { read.store(bytesRead, ordering: .relaxed) }

  /// The writer is starting on the next import.
  func beginWriting() { begunWriting.add(1, ordering: .relaxed) }
  /// The writer gave up on its current import: its reader should stop.
  func abandonCurrent() {
    abandoned.store(begunWriting.load(ordering: .relaxed), ordering: .relaxed)
  }
  var bytesRead: Int64 { read.load(ordering: .relaxed) }
}

/// Batches the writer has finished with, on their way back to the reading thread. That thread
/// allocated every value in them; freeing them there, and refilling their storage, keeps the
/// writer from releasing strings the parser is retaining at the same moment on the other core
/// (a reference count bouncing between cores) and from freeing into another thread's heap.
final class SpentBatches: Sendable {
  private let batches = Mutex<[[HealthItem]]>([])

  /// Hands a written batch back; the caller must hold no other reference to it.
  func put(_ batch: consuming [HealthItem]) {
    var moving = Optional(batch)
    batches.withLock { $0.append(moving.take()!) }
  }

  /// An empty array to fill next: a spent batch's storage when one has come back (the others
  /// are freed here), otherwise a new array.
  func take() -> [HealthItem] {
    var returned = batches.withLock { batches in
      let all = batches
      batches = []
      return all
    }
    var next = returned.popLast() ?? []
    returned = []
    next.removeAll(keepingCapacity: true)
    return next
  }
}
