import Foundation
import ResonanceModel
import Testing

@testable import ResonanceReports

@Suite("Index report")
struct IndexReportTests {
  static let summary = StoreSummary(
    schemaVersion: 4,
    health: .init(
      records: [
        "HKQuantityTypeIdentifierHeartRate": 1520, "HKCategoryTypeIdentifierSleepAnalysis": 31,
      ],
      heartbeats: 4200, workouts: 3,
      first: Timestamp(millisecondsSinceEpoch: 1_704_067_200_000),
      last: Timestamp(millisecondsSinceEpoch: 1_706_745_599_000)),
    listening: .init(plays: 840, skips: 190, songs: 212),
    traces: .init(recordings: 2, samples: 12_000),
    imports: [
      ImportEntry(
        file: "export.zip!apple_health_export/export.xml",
        sha256: "e08559e32cd073aeaae31d4a9b1ab9eb094b2bab9e831fe466a368fbde44a583",
        importer: "apple-health", status: .complete, records: 1551, warnings: 1)
    ])

  @Test("renders the store's figures as Markdown, matching the golden file")
  func golden() throws {
    let report = IndexReport(
      summary: Self.summary, storePath: "Reports/demo.sqlite", dataPath: "Datasets/sample",
      stages: [.init(stage: "ingest", outcome: "1 file read, 1,551 records")])
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden/index.md")
    if ProcessInfo.processInfo.environment["RESONANCE_UPDATE_GOLDEN"] == "1" {
      try Data(report.markdown().utf8).write(to: url)
    }
    #expect(report.markdown() == (try String(contentsOf: url, encoding: .utf8)))
  }

  @Test("an empty store says so instead of showing empty tables")
  func empty() {
    let report = IndexReport(
      summary: StoreSummary(schemaVersion: 4), storePath: "s", dataPath: "d",
      stages: [.init(stage: "ingest", outcome: "no sample data")])
    let text = report.markdown()
    #expect(text.contains("Nothing has been imported"))
    #expect(!text.contains("Imported files"))
  }

  @Test("table cells escape pipes and flatten newlines")
  func escaping() {
    let table = Markdown.table(header: ["a"], rows: [["x|y\nz"]])
    #expect(table == "| a |\n|---|\n| x\\|y z |\n")
    #expect(Format.grouped(1_234_567) == "1,234,567")
    #expect(Format.grouped(-1000) == "-1,000")
  }
}
