import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("What the state engine reads from the store")
struct StoreStateTests {
  /// A store with one import, two resting-HR records (out of order), a heart-rate record that
  /// must not be read as resting, a birth year and two mood inputs.
  func store() throws -> Store {
    let store = try Store(path: ":memory:", now: 1_700_000_000_000)
    try store.connection.execute(
      """
      INSERT INTO imports (id, file, bytes, sha256, importer, status, started_at_ms,
                           finished_at_ms)
        VALUES (1, 'export.zip', 1, '\(String(repeating: "a", count: 64))', 'health',
                'complete', 0, 0);
      INSERT INTO health_types (id, identifier, kind) VALUES
        (1, 'HKQuantityTypeIdentifierRestingHeartRate', 'quantity'),
        (2, 'HKQuantityTypeIdentifierHeartRate', 'quantity');
      INSERT INTO health_sources (id, name, name_key) VALUES (1, 'Watch', 'watch');
      INSERT INTO health_records (import_id, type_id, source_id, unit, value_text, value,
                                  value_normalized, start_ms, start_offset_s, end_ms,
                                  end_offset_s)
        VALUES (1, 1, 1, 'count/min', '61', 61, 61, 86400000, 0, 172700000, 0),
               (1, 1, 1, 'count/min', '58', 58, 58, 0, 0, 86300000, 0),
               (1, 2, 1, 'count/min', '90', 90, 90, 5000, 0, 5000, 0);
      INSERT INTO person (id, birth_year, import_id) VALUES (1, 1984, 1);
      INSERT INTO mood_inputs (import_id, time_ms, offset_s, device, tap, valence, energy)
        VALUES (1, 2000, -25200, 'phone', NULL, 0.62, 0.4),
               (1, 1000, -25200, 'watch', -1, NULL, NULL);
      """)
    return store
  }

  @Test("resting heart rate: only resting records, each at its end, in time order")
  func restingHeartRates() throws {
    let rows = try store().restingHeartRates()
    #expect(rows.map(\.timeMs) == [86_300_000, 172_700_000])
    #expect(rows.map(\.value) == [58, 61])
  }

  @Test("birth year, and none in an empty store")
  func birthYear() throws {
    #expect(try store().birthYear() == 1984)
    #expect(try Store(path: ":memory:", now: 0).birthYear() == nil)
  }

  @Test("mood inputs in time order, taps and sliders as stored")
  func moodInputs() throws {
    let inputs = try store().moodInputs()
    #expect(
      inputs == [
        MoodInput(
          time: Timestamp(millisecondsSinceEpoch: 1000, utcOffsetSeconds: -25200),
          device: "watch", tap: -1, valence: nil, energy: nil),
        MoodInput(
          time: Timestamp(millisecondsSinceEpoch: 2000, utcOffsetSeconds: -25200),
          device: "phone", tap: nil, valence: 0.62, energy: 0.4),
      ])
  }
}
