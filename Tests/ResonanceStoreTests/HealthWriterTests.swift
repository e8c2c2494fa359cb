import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Health writer: records many to a statement")
struct HealthWriterTests {
  static let minute: Int64 = 60_000

  /// A record of `type` at `minute`, with what varies between records of an export: value,
  /// source, device, UTC offset, metadata and beats.
  static func record(
    _ type: String = "HKQuantityTypeIdentifierHeartRate", at minute: Int, value: Int,
    source: String = "Jane’s Apple Watch", offset: Int32 = -25_200,
    metadata: [MetadataEntry] = [], beats: Int = 0
  ) -> HealthRecord {
    let start = Timestamp(
      millisecondsSinceEpoch: 1_700_000_000_000 + Int64(minute) * Self.minute,
      utcOffsetSeconds: offset)
    let device = HealthDevice(
      name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,2",
      software: "9.1")
    return HealthRecord(
      type: type,
      provenance: HealthProvenance(sourceName: source, sourceVersion: "9.1", device: device),
      unit: "count/min", valueText: "\(value)", value: Double(value), creation: start,
      start: start, end: start, metadata: metadata,
      beats: (0..<beats).map { HealthBeat(timeMs: Int64($0) * 800, bpm: 70 + Double($0)) })
  }

  /// An export's worth of items: long runs of one type, exact duplicates next to each other,
  /// within sixteen rows and far apart, records with beats among them, a change of offset,
  /// source and type, metadata on some, a Correlation whose Records also stand alone.
  static func items() -> [HealthItem] {
    var items: [HealthItem] = []
    let motion = [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "1")]
    for m in 0..<90 {
      let heartRate = record(
        at: m, value: 60 + m % 13, offset: m < 40 ? -25_200 : -28_800,
        metadata: m.isMultiple(of: 3) ? motion : [])
      items.append(.record(heartRate))
      if m.isMultiple(of: 7) { items.append(.record(heartRate)) }
      if m.isMultiple(of: 11) {
        items.append(
          .record(
            record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", at: m, value: 40, beats: 5)))
      }
      if m == 50 { items.append(.record(record(at: 3, value: 63))) }  // a duplicate from far back
    }
    for m in 0..<40 {
      items.append(
        .record(record("HKQuantityTypeIdentifierStepCount", at: m, value: m, source: "iPhone")))
    }
    let systolic = record("HKQuantityTypeIdentifierBloodPressureSystolic", at: 5, value: 120)
    let diastolic = record("HKQuantityTypeIdentifierBloodPressureDiastolic", at: 5, value: 80)
    items.append(.record(systolic))
    items.append(
      .correlation(
        HealthCorrelation(
          type: "HKCorrelationTypeIdentifierBloodPressure", provenance: systolic.provenance,
          creation: systolic.creation, start: systolic.start, end: systolic.end,
          metadata: [], records: [systolic, diastolic])))
    for m in 40..<75 { items.append(.record(record(at: 1_000 + m, value: 70))) }
    return items
  }

  /// The store after writing `items` in batches of `batch`, `perInsert` records a statement.
  static func written(_ items: [HealthItem], batch: Int, perInsert: Int) throws -> (
    tables: [[SQLiteValue]], records: Int, beats: Int
  ) {
    let store = try Store(path: ":memory:")
    try store.connection.execute("PRAGMA foreign_keys = OFF")
    try store.connection.execute("BEGIN")
    let writer = try HealthWriter(store: store, importID: 1, recordsPerInsert: perInsert)
    for start in stride(from: 0, to: items.count, by: batch) {
      try writer.write(Array(items[start..<min(start + batch, items.count)]))
    }
    try store.connection.execute("COMMIT")
    var rows: [[SQLiteValue]] = []
    for table in ["health_records", "health_beats", "health_correlations", "health_types"] {
      rows += try store.connection.rows("SELECT '\(table)', * FROM \(table) ORDER BY 2, 3").map(
        \.values)
    }
    return (rows, writer.recordsAdded, writer.beatsAdded)
  }

  @Test(
    "sixteen records to a statement store what one at a time stores: the same rows, ids, duplicates dropped, beats and links",
    arguments: [(2048, 16), (37, 16), (5, 16), (1, 16), (100, 3)])
  func manyToAStatement(batch: Int, perInsert: Int) throws {
    let items = Self.items()
    let one = try Self.written(items, batch: items.count, perInsert: 1)
    let many = try Self.written(items, batch: batch, perInsert: perInsert)
    #expect(many.tables == one.tables)
    #expect(many.records == one.records && many.beats == one.beats)
    // What one at a time stores, checked on its own: every duplicate dropped, once each.
    let records = items.reduce(into: 0) { count, item in
      if case .record = item { count += 1 }
    }
    let duplicates = 13 + 1  // every seventh minute, and minute 3 again
    #expect(one.records == records - duplicates + 1)  // + the diastolic, only in the Correlation
    #expect(one.beats == 9 * 5)
  }
}
