import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Store: one import, one unit of work")
struct ImportTransactionTests {
  static let hour: Int64 = 3_600_000

  /// A heart-rate record at `hour` (hours since the epoch), in `offset` seconds east of UTC.
  static func heartRate(_ hour: Int64, offset: Int32) -> HealthItem {
    let at = Timestamp(millisecondsSinceEpoch: hour * Self.hour, utcOffsetSeconds: offset)
    return .record(
      HealthRecord(
        type: "HKQuantityTypeIdentifierHeartRate",
        provenance: HealthProvenance(sourceName: "Watch"), unit: "count/min",
        valueText: "\(60 + hour % 30)", value: Double(60 + hour % 30), creation: nil, start: at,
        end: at))
  }

  /// A Spotify-like play of song `n` at `ms`, with or without an offset of its own.
  static func play(_ n: Int, at ms: Int64, offset: Int32?) -> PlayReport {
    PlayReport(
      song: SongReference(title: "Song \(n % 40)", artist: "Artist \(n % 7)"),
      source: offset == nil ? .spotify : .appleMusic, startMs: ms, utcOffsetSeconds: offset,
      endMs: ms + 180_000, playedMs: 180_000, mediaDurationMs: 200_000, wasSkipped: false,
      completed: nil, endReason: nil, startReason: nil, shuffle: nil, decision: nil, line: n)
  }

  /// Everything a store holds, table by table, for comparing before and after.
  static func contents(_ store: Store) throws -> [String: [[SQLiteValue]]] {
    var tables: [String: [[SQLiteValue]]] = [:]
    for row in try store.connection.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    {
      let name = row.string(0)
      tables[name] = try store.connection.rows("SELECT * FROM \(name) ORDER BY 1").map(\.values)
    }
    return tables
  }

  /// A store holding a Health export whose records are in +02:00 during hours 100–199.
  static func storeWithHealth() throws -> Store {
    let store = try Store(path: ":memory:")
    let unit = try store.beginImport(file: "export.xml", format: .appleHealth)
    try unit.write(.health((100..<200).map { heartRate($0, offset: 7_200) }))
    let (outcome, counts) = try unit.commit(
      sha256: String(repeating: "a", count: 64), bytes: 10, warnings: 0)
    #expect(counts.recordsAdded == 100)
    guard case .imported(let entry) = outcome else {
      Issue.record("expected an import, found \(outcome)")
      return store
    }
    #expect(entry.records == 100 && entry.importer == "apple-health")
    return store
  }

  /// A recording arrives in parts, with a decision log's plays between them; the plays'
  /// writes run on the listening writer's thread, on the same connection, and a part written
  /// while they ran used the connection from two threads at once ("database disk image is
  /// malformed").
  @Test(
    "a recording's parts and plays taking turns: the plays' writes end before a part is written")
  func recordingPartsBetweenPlays() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "resonance-parts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try Store(path: folder.appendingPathComponent("s.sqlite").path)
    let unit = try store.beginImport(file: "watch.jsonl", format: .recording(.watchTrace))
    let start: Int64 = 1_654_092_000_000
    try unit.write(.expectedPlays(90_000))
    for part in 0..<3 {
      try unit.write(
        .plays(
          (0..<30_000).map {
            Self.play($0, at: start + Int64(part * 30_000 + $0) * 200_000, offset: 0)
          }))
      var file = TraceFile(
        format: "resonance.watch-trace", version: 1,
        started: Timestamp(millisecondsSinceEpoch: start, utcOffsetSeconds: 0), samples: 20_000,
        content: .watch(
          (0..<20_000).map {
            BiometricReading(
              time: Timestamp(
                millisecondsSinceEpoch: start + Int64(part * 20_000 + $0) * 5_000,
                utcOffsetSeconds: 0),
              heartRate: 60, hrv: nil, isStationary: nil, isWorkout: nil)
          }))
      file.continues = part > 0
      try unit.write(.recording(file))
    }
    _ = try unit.commit(sha256: String(repeating: "b", count: 64), bytes: 1, warnings: 0)
    #expect(try store.connection.row("SELECT samples FROM trace_recordings")?.int(0) == 60_000)
    #expect(try store.connection.row("SELECT COUNT(*) FROM biometric_samples")?.int(0) == 60_000)
    #expect(try store.connection.row("PRAGMA integrity_check")?.string(0) == "ok")
  }

  /// Imports one recording of `content` as its own file (`digest` tells the copies apart);
  /// returns the samples the import says it added.
  static func importRecording(
    _ store: Store, format: RecordingFormat, content: TraceContent, samples: Int,
    digest: Character
  ) throws -> Int {
    let unit = try store.beginImport(file: "trace.jsonl", format: .recording(format))
    try unit.write(
      .recording(
        TraceFile(
          format: format.rawValue, version: 1, started: nil, samples: samples,
          content: content)))
    let (outcome, counts) = try unit.commit(
      sha256: String(repeating: digest, count: 64), bytes: 1, warnings: 0)
    guard case .imported(let entry) = outcome else {
      Issue.record("expected an import, found \(outcome)")
      return -1
    }
    #expect(entry.records == counts.samples)
    return counts.samples
  }

  @Test(
    "a month's Watch trace and Mac contexts imported again as they grew store only their new samples, and say so"
  )
  func grownRecordings() throws {
    let store = try Store(path: ":memory:")
    let start: Int64 = 1_654_092_000_000
    func at(_ i: Int) -> Timestamp {
      Timestamp(millisecondsSinceEpoch: start + Int64(i) * 5_000, utcOffsetSeconds: 7_200)
    }
    func watch(_ range: Range<Int>) -> TraceContent {
      .watch(
        range.map {
          BiometricReading(
            time: at($0), heartRate: Double(60 + $0 % 20), hrv: 40, isStationary: true,
            isWorkout: false)
        })
    }
    func mac(_ range: Range<Int>) -> TraceContent {
      .mac(
        range.map {
          MacContextSnapshot(
            time: at($0), focusMode: nil, appCategory: "work", inMeeting: $0 % 2 == 0)
        })
    }
    // The copy exported mid-month, then the whole month's.
    #expect(
      try Self.importRecording(
        store, format: .watchTrace, content: watch(0..<1_000), samples: 1_000, digest: "a")
        == 1_000)
    #expect(
      try Self.importRecording(
        store, format: .watchTrace, content: watch(0..<1_500), samples: 1_500, digest: "b")
        == 500)
    #expect(
      try Self.importRecording(
        store, format: .macContext, content: mac(0..<300), samples: 300, digest: "c") == 300)
    #expect(
      try Self.importRecording(
        store, format: .macContext, content: mac(0..<400), samples: 400, digest: "d") == 100)
    let samples = try store.connection.rows(
      "SELECT time_ms, hr FROM biometric_samples ORDER BY time_ms")
    #expect(samples.count == 1_500)
    #expect(Set(samples.map { $0.int64("time_ms") }).count == 1_500, "each instant once")
    #expect(samples.last?.double("hr") == Double(60 + 1_499 % 20))
    let contexts = try store.connection.row(
      "SELECT COUNT(DISTINCT time_ms), COUNT(*) FROM macos_contexts")
    #expect(contexts?.int(0) == 400 && contexts?.int(1) == 400)
    // The next month's file shares no instant with this one: all of it is stored.
    #expect(
      try Self.importRecording(
        store, format: .watchTrace, content: watch(600_000..<600_200), samples: 200,
        digest: "e") == 200)
  }

  @Test(
    "plays with and without offsets, thousands of them: the Health offsets are read mid-import, while writes are in flight, and land right"
  )
  func offsetsMidImport() throws {
    let store = try Self.storeWithHealth()
    let unit = try store.beginImport(
      file: "Streaming_History.json", format: .listening(.spotifyExtended), zone: .fixed(-3_600))
    // Alternating: a play with its own offset (written on the writer's thread), then one
    // without, whose offset must come from the Health data of its hour, else the zone.
    var plays: [PlayReport] = []
    for i in 0..<6_000 {
      let ms = (50 + Int64(i / 30)) * Self.hour + Int64(i % 30) * 120_000
      plays.append(Self.play(i, at: ms, offset: i.isMultiple(of: 2) ? 3_600 : nil))
    }
    try unit.write(.expectedPlays(plays.count))
    for start in stride(from: 0, to: plays.count, by: 500) {
      try unit.write(.plays(Array(plays[start..<min(start + 500, plays.count)])))
    }
    let (outcome, counts) = try unit.commit(
      sha256: String(repeating: "b", count: 64), bytes: 20, warnings: 0)
    guard case .imported = outcome else {
      Issue.record("expected an import, found \(outcome)")
      return
    }
    let rows = try store.connection.rows(
      "SELECT start_ms, start_offset_s, offset_source FROM playback_events WHERE source = 'spotify'"
    )
    #expect(!rows.isEmpty)
    // The Health data's offset reaches 36 hours either side of its records (hours 100–199).
    let reach = 36 * Self.hour
    for row in rows {
      let ms = row.optionalInt64(0) ?? 0
      let covered = ms >= 100 * Self.hour - reach && ms <= 199 * Self.hour + reach
      let expected: (Int, String) = covered ? (7_200, "health") : (-3_600, "user")
      #expect(row.int(1) == expected.0 && row.string(2) == expected.1, "at \(ms) ms")
    }
    #expect(Set(rows.map { $0.string(2) }) == ["health", "user"])
    let taken = (counts.offsetSources[.health] ?? 0) + (counts.offsetSources[.user] ?? 0)
    #expect(taken == 3_000 && counts.offsetSources[.source] == nil)
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(try store.connection.row("PRAGMA foreign_keys")?.int(0) == 1)
  }

  @Test(
    "a Health import writes with the smaller page cache, and the store's own comes back after a commit and after a rollback"
  )
  func healthCacheSize() throws {
    let folder = try TemporaryFolder()
    let store = try Store(path: folder.file("store.sqlite"))
    func cacheSize() throws -> Int64? {
      try store.connection.row("PRAGMA cache_size")?.optionalInt64(0)
    }
    #expect(try cacheSize() == Int64(Store.cacheSizePragma))
    for commits in [true, false] {
      let unit = try store.beginImport(file: "export.xml", format: .appleHealth)
      try unit.write(.health((100..<200).map { Self.heartRate($0, offset: 0) }))
      #expect(try cacheSize() == Int64(HealthWriter.cacheSizePragma))
      if commits {
        _ = try unit.commit(sha256: String(repeating: "b", count: 64), bytes: 10, warnings: 0)
      } else {
        unit.rollback()
      }
      #expect(try cacheSize() == Int64(Store.cacheSizePragma))
    }
  }

  @Test("the ledger row is written at commit with the real digest, size and counts")
  func ledgerAtCommit() throws {
    let store = try Self.storeWithHealth()
    let unit = try store.beginImport(file: "history.json", format: .listening(.spotifyExtended))
    try unit.write(.plays((0..<10).map { Self.play($0, at: Int64($0) * Self.hour, offset: 0) }))
    // Before the commit there is no row for it, not even a placeholder.
    #expect(try store.connection.row("SELECT COUNT(*) FROM imports")?.int(0) == 1)
    _ = try unit.commit(sha256: String(repeating: "c", count: 64), bytes: 1234, warnings: 3)
    let row = try #require(
      try store.connection.row(
        "SELECT id, sha256, bytes, records, warnings, status FROM imports WHERE file = 'history.json'"
      ))
    #expect(row.int(0) == 2 && row.string(1) == String(repeating: "c", count: 64))
    #expect(row.int(2) == 1234 && row.int(3) == 10 + 10 && row.int(4) == 3)
    #expect(row.string(5) == "complete")
    #expect(
      try store.connection.row("SELECT COUNT(*) FROM playback_events WHERE import_id = 2")?.int(0)
        == 10)
  }

  @Test("a rollback, an error or a unit let go leave the store exactly as it was")
  func leavesNoTrace() throws {
    let store = try Self.storeWithHealth()
    let before = try Self.contents(store)
    let rolledBack = try store.beginImport(file: "a.json", format: .listening(.spotifyExtended))
    try rolledBack.write(.plays([Self.play(1, at: 0, offset: nil)]))
    rolledBack.rollback()
    #expect(try Self.contents(store) == before)
    do {
      let dropped = try store.beginImport(file: "b.xml", format: .appleHealth)
      try dropped.write(.health([Self.heartRate(5, offset: 0)]))
    }
    #expect(try Self.contents(store) == before)
    let failing = try store.beginImport(file: "c.json", format: .listening(.spotifyExtended))
    try failing.write(.plays([Self.play(2, at: 0, offset: nil)]))
    #expect(throws: StoreError.self) {
      // A digest of the wrong length breaks the ledger's CHECK: the commit fails whole.
      _ = try failing.commit(sha256: "short", bytes: 1, warnings: 0)
    }
    #expect(try Self.contents(store) == before)
    #expect(try store.connection.row("PRAGMA foreign_keys")?.int(0) == 1)
  }

  @Test("content imported before is found at commit, and nothing changes")
  func alreadyImported() throws {
    let store = try Self.storeWithHealth()
    let before = try Self.contents(store)
    let again = try store.beginImport(file: "copy of export.xml", format: .appleHealth)
    try again.write(.health((100..<200).map { Self.heartRate($0, offset: 7_200) }))
    let (outcome, _) = try again.commit(
      sha256: String(repeating: "a", count: 64), bytes: 10, warnings: 0)
    #expect(outcome == .alreadyImported(try #require(try store.importEntries().first)))
    #expect(try Self.contents(store) == before)
  }

  @Test("a restart voids what was sent before it")
  func restart() throws {
    let store = try Store(path: ":memory:")
    let unit = try store.beginImport(
      file: "Play Activity.csv", format: .listening(.applePlayActivity))
    try unit.write(.plays((0..<5).map { Self.play($0, at: Int64($0) * Self.hour, offset: 0) }))
    try unit.write(.restart)
    try unit.write(.plays([Self.play(9, at: 99 * Self.hour, offset: 0)]))
    let (_, counts) = try unit.commit(
      sha256: String(repeating: "d", count: 64), bytes: 1, warnings: 0)
    #expect(counts.listening.playsAdded == 1)
    #expect(try store.connection.row("SELECT COUNT(*) FROM playback_events")?.int(0) == 1)
    #expect(try store.connection.row("SELECT COUNT(*) FROM songs")?.int(0) == 1)
  }

  /// The journal mode of `store`'s file as its connection sees it.
  static func journalMode(_ store: Store) throws -> String {
    try store.connection.row("PRAGMA journal_mode")?.string(0) ?? ""
  }

  @Test(
    "a Health import writes with a rollback journal and leaves the store in WAL; a listening import stays in WAL",
    arguments: [true, false])
  func healthWritesInBulk(commits: Bool) throws {
    let folder = try TemporaryFolder()
    let store = try Store(path: folder.file("s.sqlite"))
    #expect(try Self.journalMode(store) == "wal")
    let unit = try store.beginImport(file: "export.xml", format: .appleHealth)
    #expect(try Self.journalMode(store) == "delete")
    try unit.write(.health((0..<50).map { Self.heartRate($0, offset: 0) }))
    if commits {
      _ = try unit.commit(sha256: String(repeating: "e", count: 64), bytes: 1, warnings: 0)
    } else {
      unit.rollback()
    }
    #expect(try Self.journalMode(store) == "wal")
    #expect(!FileManager.default.fileExists(atPath: folder.file("s.sqlite-journal")))
    #expect(
      try store.connection.row("SELECT COUNT(*) FROM health_records")?.int(0) == (commits ? 50 : 0))

    let listening = try store.beginImport(
      file: "Play Activity.csv", format: .listening(.applePlayActivity))
    #expect(try Self.journalMode(store) == "wal")
    listening.rollback()
  }

  @Test("a Health import begun while another connection reads stays in WAL, without waiting for it")
  func bulkWriteDefersToReaders() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("s.sqlite")
    let store = try Store(path: path)
    let reader = try Connection(path: path, busyTimeoutMilliseconds: 0)
    try reader.execute("BEGIN")
    _ = try reader.row("SELECT COUNT(*) FROM imports")
    let started = Clock.nowMilliseconds()
    let unit = try store.beginImport(file: "export.xml", format: .appleHealth)
    #expect(Clock.nowMilliseconds() - started < 5_000)
    #expect(try Self.journalMode(store) == "wal")
    try unit.write(.health((0..<10).map { Self.heartRate($0, offset: 0) }))
    _ = try unit.commit(sha256: String(repeating: "f", count: 64), bytes: 1, warnings: 0)
    // The reader's snapshot is the store as it was, as WAL promises.
    #expect(try reader.row("SELECT COUNT(*) FROM health_records")?.int(0) == 0)
    try reader.execute("COMMIT")
    #expect(try reader.row("SELECT COUNT(*) FROM health_records")?.int(0) == 10)
  }
}
