import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Ingest ledger and summary")
struct LedgerTests {
  static let digest = String(repeating: "ab", count: 32)

  static func entry(_ file: String = "export.xml", records: Int = 3) -> ImportEntry {
    ImportEntry(
      file: file, sha256: digest, importer: "apple-health", status: .complete, records: records,
      warnings: 1)
  }

  @Test("an empty store summarises to zeros and nulls")
  func empty() throws {
    let summary = try Store(path: ":memory:").summary()
    #expect(summary == StoreSummary(schemaVersion: Schema.currentVersion))
  }

  @Test("a ledger row is listed with its counts, and found again by content")
  func ledger() throws {
    let store = try Store(path: ":memory:")
    try store.insertImport(Self.entry(), bytes: 1234, startedAt: 10, finishedAt: 20)
    #expect(try store.summary().imports == [Self.entry()])
    #expect(try store.existingImport(sha256: Self.digest, importer: "apple-health") == Self.entry())
    #expect(try store.existingImport(sha256: Self.digest, importer: "spotify") == nil)
  }

  @Test("the same content under the same importer cannot be recorded twice")
  func uniqueContent() throws {
    let store = try Store(path: ":memory:")
    try store.insertImport(Self.entry(), bytes: 1, startedAt: 0, finishedAt: 0)
    #expect(throws: StoreError.self) {
      try store.insertImport(Self.entry("copy.xml"), bytes: 1, startedAt: 0, finishedAt: 0)
    }
  }

  @Test("an import that fails inside its transaction leaves no ledger row and no records")
  func failedImportLeavesNoTrace() throws {
    struct ParseFailed: Error {}
    let store = try Store(path: ":memory:")
    #expect(throws: ParseFailed.self) {
      try store.connection.transaction {
        let id = try store.insertImport(Self.entry(), bytes: 1, startedAt: 0, finishedAt: 0)
        try Self.insertHeartRate(store, importID: id, startMs: 1_000)
        throw ParseFailed()
      }
    }
    #expect(try store.summary() == StoreSummary(schemaVersion: Schema.currentVersion))
  }

  @Test("health counts per type identifier, beats, and the span in UTC")
  func healthSummary() throws {
    let store = try Store(path: ":memory:")
    try store.connection.transaction {
      let id = try store.insertImport(Self.entry(), bytes: 1, startedAt: 0, finishedAt: 0)
      try Self.insertHeartRate(store, importID: id, startMs: 1_705_336_200_000)
      try Self.insertHeartRate(store, importID: id, startMs: 1_705_336_260_000)
      try store.connection.execute(
        "INSERT INTO health_beats VALUES (1, 0, 1705336200000, 61), (1, 1, 1705336200980, 62)")
    }
    let health = try store.summary().health
    #expect(health.records == ["HKQuantityTypeIdentifierHeartRate": 2])
    #expect(health.heartbeats == 2)
    #expect(health.first?.iso8601UTC == "2024-01-15T16:30:00Z")
    #expect(health.last?.iso8601UTC == "2024-01-15T16:31:05Z")
  }

  @Test("two runs on one store: the second waits, then fails as busy")
  func busy() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("busy.sqlite")
    let first = try Store(path: path)
    try first.connection.execute("BEGIN IMMEDIATE")
    let second = try Store(path: path, busyTimeoutMilliseconds: 50)
    do {
      try second.connection.transaction {
        try second.insertImport(Self.entry(), bytes: 1, startedAt: 0, finishedAt: 0)
      }
      Issue.record("expected the second writer to be refused")
    } catch let error as StoreError {
      #expect(error.kind == .busy)
      #expect(error.description.contains("store is busy"))
    }
    try first.connection.execute("ROLLBACK")
    try second.connection.transaction {
      try second.insertImport(Self.entry(), bytes: 1, startedAt: 0, finishedAt: 0)
    }
    #expect(try first.summary().imports.count == 1)
  }

  static func insertHeartRate(_ store: Store, importID: Int64, startMs: Int64) throws {
    let db = store.connection
    try db.execute(
      """
      INSERT OR IGNORE INTO health_types (identifier, kind)
      VALUES ('HKQuantityTypeIdentifierHeartRate', 'quantity')
      """)
    try db.execute(
      "INSERT OR IGNORE INTO health_sources (name, name_key) VALUES ('Watch', 'watch')")
    try db.execute(
      """
      INSERT INTO health_records (import_id, type_id, source_id, unit, value_text, value,
        start_ms, start_offset_s, end_ms, end_offset_s)
      VALUES (?, 1, 1, 'count/min', '61', 61, ?, -28800, ?, -28800)
      """, [importID, startMs, startMs + 5000])
  }
}
