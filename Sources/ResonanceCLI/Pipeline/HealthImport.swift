import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore
import Synchronization

/// What importing one Health export did.
struct HealthImportResult: Sendable {
  var file: String
  var sha256 = ""
  var bytes: Int64 = 0
  var status: ImportEntry.Status = .complete
  var recordsRead = 0
  var recordsAdded = 0
  var beatsAdded = 0
  var workoutsAdded = 0
  var warnings = 0
  var diagnostics: [Diagnostic] = []
  var notImported: [String: Int] = [:]
  var metadataDropped = 0
  /// Plays stored earlier without a UTC offset of their own that took this export's.
  var playsGivenOffsets = 0
  /// Set when the same content was imported before: nothing was written.
  var previousImport: ImportEntry?
  var seconds = 0.0
}

/// Imports one Health export: libxml2 parses on a second thread while this one writes, with a
/// bounded queue between them; the whole file is one transaction, so a failure leaves the store
/// exactly as it was (unless `keepPartial`).
enum HealthImport {
  static let importer = "apple-health"

  /// What the parsing thread hands back when it ends.
  private struct ProducerResult: Sendable {
    var sha256 = ""
    var bytes: Int64 = 0
    var counts = HealthReadCounts()
    var diagnostics: [Diagnostic] = []
    var warnings = 0
    var error: (any Error)?
  }

  /// - Throws: `IngestError` for a malformed export (after rolling back, or after keeping what
  ///   parsed when `keepPartial`), `IOError` when it cannot be read, `StoreError` from SQLite.
  static func run(
    _ location: HealthExportLocation, notImported: [String: Int], store: Store, keepPartial: Bool,
    progress: ProgressReporter?, now: () -> Int64 = { Clock.nowMilliseconds() }
  ) throws -> HealthImportResult {
    let started = Date()
    let file = location.displayName
    let queue = BoundedQueue<[HealthItem]>(capacity: 8)
    let spent = SpentBatches()
    let bytesRead = SharedCounter()
    let outcome = Mutex(ProducerResult())
    let done = DispatchSemaphore(value: 0)

    let producer = Thread {
      outcome.withLock {
        $0 = produce(location, file: file, queue: queue, spent: spent, bytesRead: bytesRead)
      }
      queue.close()
      done.signal()
    }
    producer.stackSize = 8 << 20
    producer.start()

    // The producer signals once; whoever waits first remembers it.
    var producerEnded = false
    func waitForProducer() {
      if !producerEnded {
        done.wait()
        producerEnded = true
      }
    }
    let db = store.connection
    let startedAt = now()
    var result = HealthImportResult(file: file, notImported: notImported)
    // The writer makes every reference it writes (its own import row, the types, sources and
    // devices it found or created, the records it just inserted): SQLite checking each record's
    // foreign keys again was a seventh of the writer thread. The setting cannot change inside a
    // transaction, hence here, and back on once the transaction has ended.
    defer { try? db.execute("PRAGMA foreign_keys = ON") }
    do {
      try db.execute("PRAGMA foreign_keys = OFF")
      try db.execute("BEGIN IMMEDIATE")
    } catch {
      queue.close()
      waitForProducer()
      throw error
    }
    do {
      let importID = try store.insertImport(
        ImportEntry(
          file: file, sha256: String(repeating: "0", count: 64), importer: importer,
          status: .complete, records: 0, warnings: 0),
        bytes: 0, startedAt: startedAt, finishedAt: startedAt)
      let writer = try HealthWriter(store: store, importID: importID)
      while let batch = queue.pop() {
        try writer.write(batch)
        progress?.update(bytesRead.value)
        spent.put(consume batch)
      }
      waitForProducer()
      let produced = outcome.withLock { $0 }
      result.sha256 = produced.sha256
      result.bytes = produced.bytes
      result.recordsRead = produced.counts.records
      result.recordsAdded = writer.recordsAdded
      result.beatsAdded = writer.beatsAdded
      result.workoutsAdded = writer.workoutsAdded
      result.diagnostics = produced.diagnostics
      result.warnings = produced.warnings
      result.metadataDropped = produced.counts.metadataDropped
      for (part, count) in produced.counts.notImported {
        result.notImported[part, default: 0] += count
      }

      if let error = produced.error {
        guard keepPartial, error is IngestError else { throw error }
        result.status = .partial
        result.warnings += 1
        result.diagnostics.append(
          Diagnostic(
            .warning, "kept what parsed before the error (--keep-partial)",
            at: SourceLocation(file: file)))
      }
      if let previous = try store.existingImport(sha256: result.sha256, importer: importer) {
        try db.execute("ROLLBACK")
        result.previousImport = previous
        result.recordsAdded = 0
        result.beatsAdded = 0
        result.workoutsAdded = 0
        result.seconds = Date().timeIntervalSince(started)
        return result
      }
      result.playsGivenOffsets = try store.adoptHealthOffsets()
      try db.execute(
        """
        UPDATE imports SET sha256 = ?, bytes = ?, status = ?, records = ?, warnings = ?,
          finished_at_ms = ? WHERE id = ?
        """,
        [
          result.sha256, result.bytes, result.status.rawValue, result.recordsAdded, result.warnings,
          now(), importID,
        ])
      try db.execute("COMMIT")
      result.seconds = Date().timeIntervalSince(started)
      if result.status == .partial, let error = produced.error {
        // The partial data is kept; the file is still reported as bad.
        throw PartialImport(result: result, error: error)
      }
      return result
    } catch let partial as PartialImport {
      throw partial
    } catch {
      queue.close()
      waitForProducer()
      try? db.execute("ROLLBACK")
      throw error
    }
  }

  /// Reads, hashes and parses on the producer thread; a plain file is hashed by a thread that
  /// trails this one (a member of a zip archive, inflated here, is hashed here).
  private static func produce(
    _ location: HealthExportLocation, file: String, queue: BoundedQueue<[HealthItem]>,
    spent: SpentBatches, bytesRead: SharedCounter
  ) -> ProducerResult {
    var result = ProducerResult()
    let stopped = SharedFlag()
    let reader = AppleHealthReader(
      file: file,
      exchange: { batch in
        if !queue.push(batch) { stopped.raise() }
        return spent.take()
      })
    let parser = XMLPushParser(
      handler: reader, repairs: .init(stripsInternalSubset: true, replacesVerticalTabs: true))
    let trailing: TrailingFileHasher?
    if case .file(let path) = location {
      trailing = TrailingFileHasher(path: path)
    } else {
      trailing = nil
    }
    let hasher = SHA256()
    struct Stop: Error {}
    func consume(_ chunk: UnsafeRawBufferPointer) throws {
      if stopped.isRaised { throw Stop() }
      if let trailing {
        trailing.advance(by: chunk.count)
      } else {
        hasher.update(chunk)
      }
      bytesRead.add(Int64(chunk.count))
      try parser.feed(chunk)
    }
    do {
      switch location {
      case .file(let path):
        try InputFile(path: path).forEachChunk(consume)
      case .zipMember(let zip, let member, _):
        try ZipReader(path: zip).read(entry: member, consume)
      }
      try parser.finish()
    } catch let error as XMLParseError {
      result.error = IngestError(
        .malformed, at: SourceLocation(file: file, line: error.line, column: error.column),
        "malformed XML: \(error.message)")
    } catch is Stop {
      result.error = nil
    } catch {
      result.error = error
    }
    reader.flush()
    let report = parser.report
    if report.internalSubsetWasMalformed {
      reader.note(
        Diagnostic(
          .warning,
          "the export's DTD is malformed (as iOS 16 wrote it); it was skipped, and nothing depends on it",
          at: SourceLocation(file: file, line: 2)))
    }
    if report.verticalTabs > 0 {
      reader.note(
        Diagnostic(
          .warning, "\(report.verticalTabs) stray vertical-tab characters (0x0B) read as spaces",
          at: SourceLocation(file: file, line: report.firstVerticalTabLine)))
    }
    if let trailing {
      do throws(IOError) {
        result.sha256 = try trailing.finish()
      } catch {
        if result.error == nil { result.error = error }
      }
    } else {
      result.sha256 = hasher.finalize()
    }
    result.bytes = bytesRead.value
    result.counts = reader.counts
    result.diagnostics = reader.diagnostics
    result.warnings = reader.warningCount
    return result
  }
}

/// Batches the writer has finished with, on their way back to the parsing thread. That thread
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

/// An import that failed part-way and kept what parsed (`--keep-partial`): the store changed,
/// and the file is still reported as bad.
struct PartialImport: Error, CustomStringConvertible {
  var result: HealthImportResult
  var error: any Error

  var description: String { "\(error)" }
}
