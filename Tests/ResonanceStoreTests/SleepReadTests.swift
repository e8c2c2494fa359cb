import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Reading sleep analysis back as intervals")
struct SleepReadTests {
  static func record(
    _ type: String, _ value: String, source: String, startMs: Int64, endMs: Int64,
    offset: Int32 = -28_800, endOffset: Int32? = nil
  ) -> HealthItem {
    .record(
      HealthRecord(
        type: type, provenance: HealthProvenance(sourceName: source), unit: "", valueText: value,
        value: nil, creation: nil,
        start: Timestamp(millisecondsSinceEpoch: startMs, utcOffsetSeconds: offset),
        end: Timestamp(millisecondsSinceEpoch: endMs, utcOffsetSeconds: endOffset ?? offset)))
  }

  @Test("sleep records come back in time order with values, sources and both offsets")
  func sleepIntervals() throws {
    let store = try Store(path: ":memory:")
    let sleep = Store.sleepAnalysisType
    try store.connection.transaction {
      let id = try store.insertImport(
        ImportEntry(
          file: "export.xml", sha256: String(repeating: "cd", count: 32),
          importer: "apple-health", status: .complete, records: 5, warnings: 0),
        bytes: 1, startedAt: 0, finishedAt: 0)
      let writer = try HealthWriter(store: store, importID: id)
      try writer.write([
        Self.record(
          sleep, "HKCategoryValueSleepAnalysisAsleepDeep", source: "Watch", startMs: 5_000,
          endMs: 6_000, offset: -25_200),
        Self.record(
          sleep, "HKCategoryValueSleepAnalysisInBed", source: "iPhone", startMs: 1_000,
          endMs: 9_000, endOffset: -25_200),
        Self.record(
          sleep, "HKCategoryValueSleepAnalysisAsleep", source: "Watch", startMs: 2_000,
          endMs: 3_000),
        // Not a sleep value, and not sleep analysis: neither is read.
        Self.record(
          sleep, "HKCategoryValueSomethingNew", source: "Watch", startMs: 3_000, endMs: 4_000),
        Self.record(
          "HKCategoryTypeIdentifierMindfulSession", "HKCategoryValueNotApplicable",
          source: "Resonance", startMs: 1_500, endMs: 2_500),
      ])
    }
    let intervals = try store.sleepIntervals()
    #expect(intervals.map(\.value) == [.inBed, .asleepUnspecified, .deep])
    #expect(intervals.map(\.source) == ["iPhone", "Watch", "Watch"])
    #expect(intervals.map(\.start.millisecondsSinceEpoch) == [1_000, 2_000, 5_000])
    #expect(intervals[0].start.utcOffsetSeconds == -28_800)
    #expect(intervals[0].end == Timestamp(millisecondsSinceEpoch: 9_000, utcOffsetSeconds: -25_200))
    #expect(intervals[2].start.utcOffsetSeconds == -25_200)
  }

  @Test("a store without sleep records reads none")
  func empty() throws {
    #expect(try Store(path: ":memory:").sleepIntervals().isEmpty)
  }
}
