import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("What analyze reads to keep sessions: the raw tables' marks and what came after them")
struct StoreIncrementalTests {
  static let hour: Int64 = 3_600_000

  /// A store with one import, the types and source records need, and `records` heart-rate
  /// records given as (start, end) in ms.
  func store(records: [(Int64, Int64)] = []) throws -> Store {
    let store = try Store(path: ":memory:", now: 1_700_000_000_000)
    try store.connection.execute(
      """
      INSERT INTO imports (id, file, bytes, sha256, importer, status, started_at_ms,
                           finished_at_ms)
        VALUES (1, 'export.zip', 1, '\(String(repeating: "a", count: 64))', 'health',
                'complete', 0, 0);
      INSERT INTO health_types (id, identifier, kind) VALUES
        (1, 'HKQuantityTypeIdentifierHeartRate', 'quantity');
      INSERT INTO health_sources (id, name, name_key) VALUES (1, 'Watch', 'watch');
      """)
    try add(records, to: store)
    return store
  }

  func add(_ records: [(Int64, Int64)], to store: Store) throws {
    let insert = try store.connection.prepare(
      """
      INSERT INTO health_records (import_id, type_id, source_id, unit, value_text, value,
                                  start_ms, start_offset_s, end_ms, end_offset_s)
        VALUES (1, 1, 1, 'count/min', ?, 70, ?, 0, ?, 0)
      """)
    for (start, end) in records { try insert.execute(["\(start)-\(end)", start, end]) }
  }

  @Test("nothing added: no spans; every table has a mark")
  func nothingAdded() throws {
    let store = try store(records: [(0, 1000)])
    let marks = try store.rawMarks()
    #expect(marks["health_records"] == 1)
    #expect(marks["mood_inputs"] == 0)
    #expect(Set(marks.keys) == Set(Store.sessionInputs.map(\.table)))
    let spans = try #require(try store.spansAdded(after: marks))
    #expect(spans.isEmpty)
  }

  @Test("added rows become whole hours, merged where they touch, reaching a long row's end")
  func spans() throws {
    let store = try store(records: [(0, 1000)])
    let marks = try store.rawMarks()
    let h = Self.hour
    try add(
      [
        (10 * h + 5, 10 * h + 6),  // hour 10
        (11 * h + 7, 11 * h + 8),  // hour 11: touches hour 10's span
        (20 * h, 20 * h + 1),  // hour 20 alone
        (30 * h + 1, 38 * h + 30),  // a night-long record from hour 30
      ], to: store)
    let spans = try #require(try store.spansAdded(after: marks))
    #expect(spans.map(\.startMs) == [10 * h, 20 * h, 30 * h])
    #expect(spans.map(\.endMs) == [12 * h, 21 * h, 38 * h + 30])
  }

  @Test("a new birth year, or marks from before a table existed, cannot be placed in time")
  func unplaceable() throws {
    let store = try store()
    var marks = try store.rawMarks()
    try store.connection.execute(
      "INSERT INTO person (id, birth_year, import_id) VALUES (1, 1984, 1)")
    #expect(try store.spansAdded(after: marks) == nil)
    marks = try store.rawMarks()
    #expect(try store.spansAdded(after: marks)?.isEmpty == true)
    marks["workouts"] = nil
    #expect(try store.spansAdded(after: marks) == nil)
  }
}
