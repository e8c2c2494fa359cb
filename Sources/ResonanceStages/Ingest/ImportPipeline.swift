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
///
/// The store is opened when the first input is recognised, so a run whose inputs are all
/// missing, unreadable or unknown creates no store. A file on disk every import of which
/// completed is recorded with the digest of its bytes (`Store.recordSource`); met again
/// unchanged, the walk passes over it with no reader running.
final class ImportPipeline {
  /// What happened to one input, as it happens.
  enum Event {
    case imported(ImportResult)
    /// `file` is nil when the failure came before the input was named (a path that does not
    /// exist names itself in its error).
    case failed(file: String?, any Error)
    case skipped(SkippedInput)
    case notImported(file: String, parts: [String: Int])
    /// A file on disk imported whole before, unchanged since: passed over, nothing read.
    case unchanged(file: String)
  }

  let location: StoreLocation
  let zone: TimeZoneFallback
  let forced: ImportFormat?
  let keepPartial: Bool
  /// The store, once an input needed it.
  private(set) var store: Store?
  /// The files on disk the store had imported whole when the run began.
  private let known: ImportedSources

  /// - Throws: `StoreError` when the store exists but cannot be read.
  init(location: StoreLocation, zone: TimeZoneFallback, forced: ImportFormat?, keepPartial: Bool)
    throws
  {
    self.location = location
    self.zone = zone
    self.forced = forced
    self.keepPartial = keepPartial
    if FileManager.default.fileExists(atPath: location.path) {
      let opened = try location.create()
      store = opened
      known = try opened.importedSources()
    } else {
      known = ImportedSources()
    }
  }

  /// The store, opened (and created) the first time an import begins.
  private func openStore() throws -> Store {
    if let store { return store }
    let opened = try location.create()
    store = opened
    return opened
  }

  /// Imports everything under `path` (`-`: standard input), telling `report` what became of
  /// each input in order, and `progress` how far the current file's reader has read.
  ///
  /// - Parameter label: what the progress step of an input is called, from its name.
  func run(
    _ path: String, progress: any StageProgress, label: (String) -> String,
    report: (Event) -> Void
  ) {
    let sink = QueueSink()
    let done = DispatchSemaphore(value: 0)
    let forced = self.forced
    let known = self.known
    let reader = Thread {
      InputWalker(sink: sink, forced: forced, known: known).walk(path: path)
      sink.queue.close()
      done.signal()
    }
    reader.stackSize = 8 << 20
    reader.start()
    defer {
      sink.queue.close()
      done.wait()
    }
    var open: (unit: ImportTransaction, file: String, format: ImportFormat)?
    var started = Date()
    // What became of the imports of the file on disk being walked, since the last one ended.
    var source = SourceOutcome()
    func tell(_ event: Event) {
      source.note(event)
      report(event)
    }
    func abandon(_ error: any Error) {
      if let current = open {
        progress.end()
        current.unit.rollback()
        tell(.failed(file: current.file, error))
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
            progress.advance(to: sink.bytesRead)
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
            try openStore().beginImport(
              file: file, format: format, zone: zone,
              precedence: ImportRegistry.mergePrecedence), file, format
          )
          progress.begin(label(file), total: expected, unit: .bytes)
        } catch {
          tell(.failed(file: file, error))
          sink.abandonCurrent()
        }
      case .batch(let batch):
        guard let current = open else { continue }
        do {
          try current.unit.write(batch)
          progress.advance(to: sink.bytesRead)
        } catch {
          abandon(error)
        }
      case .end(let sha256, let bytes, let summary):
        guard let current = open else { continue }
        open = nil
        progress.end()
        do {
          tell(
            .imported(
              try commit(
                current.unit, file: current.file, format: current.format, sha256: sha256,
                bytes: bytes, summary: summary, started: started)))
        } catch {
          tell(.failed(file: current.file, error))
        }
      case .failed(let error, let partial):
        guard let current = open else {
          tell(.failed(file: nil, error))
          continue
        }
        open = nil
        progress.end()
        if keepPartial, error is IngestError, var partial {
          partial.summary.warnings += 1
          partial.summary.diagnostics.append(
            Diagnostic(
              .warning, "kept what parsed before the error (--keep-partial)",
              at: SourceLocation(file: current.file)))
          do {
            tell(
              .imported(
                try commit(
                  current.unit, file: current.file, format: current.format,
                  sha256: partial.sha256, bytes: partial.bytes, summary: partial.summary,
                  started: started, status: .partial)))
          } catch {
            tell(.failed(file: current.file, error))
            continue
          }
        } else {
          current.unit.rollback()
        }
        tell(.failed(file: current.file, error))
      case .skipped(let input): tell(.skipped(input))
      case .notImported(let file, let parts): tell(.notImported(file: file, parts: parts))
      case .unchanged(let file, _):
        source = SourceOutcome()
        tell(.unchanged(file: file))
      case .sourceEnded(let file, let digest):
        if let digest, source.isWhole, let store {
          do {
            try store.recordSource(
              sha256: digest.sha256, bytes: digest.bytes, file: file, imports: source.imports,
              at: Clock.nowMilliseconds())
          } catch {
            tell(.failed(file: file, error))
          }
        }
        source = SourceOutcome()
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

/// What became of the imports of one file on disk, as the pipeline meets them: the file is
/// imported whole when at least one import completed (or was there already) and none failed
/// or was kept partial.
private struct SourceOutcome {
  private(set) var imports: [ImportEntry] = []
  private var hasFailed = false

  mutating func note(_ event: ImportPipeline.Event) {
    switch event {
    case .imported(let result):
      if result.status == .partial { hasFailed = true } else { imports.append(result.entry) }
    case .failed: hasFailed = true
    case .skipped, .notImported, .unchanged: break
    }
  }

  var isWhole: Bool { !imports.isEmpty && !hasFailed }
}
