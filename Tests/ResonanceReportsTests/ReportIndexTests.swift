import Foundation
import ResonanceModel
import Testing

@testable import ResonanceReports

@Suite("the report's index")
struct ReportIndexTests {
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

  static let pages = [
    ReportPage(
      name: "songs", title: "Songs", headline: "3 of 12 songs lower your heart rate",
      files: [ReportFile(name: "songs.md", text: "")]),
    ReportPage(
      name: "sleep", title: "Sleep", headline: "40 nights, 12 after evening music: too few",
      files: [ReportFile(name: "sleep.md", text: "")]),
  ]

  @Test("renders each page's answer, the pipeline and the store's figures, as the golden file")
  func golden() throws {
    let index = ReportIndex.make(
      summary: Self.summary, pages: Self.pages,
      range: ReportRange(DayRange(from: CalendarDay("2024-01-01"), to: nil)),
      pipeline: .init(
        dataPath: "Datasets/sample", storePath: "Reports/demo.sqlite",
        stages: [.init(stage: "ingest", outcome: "1 file read, 1,551 records")]))
    #expect(index.name == "index.md")
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden/index.md")
    if ProcessInfo.processInfo.environment["RESONANCE_UPDATE_GOLDEN"] == "1" {
      try Data(index.text.utf8).write(to: url)
    }
    #expect(index.text == (try String(contentsOf: url, encoding: .utf8)))
    #expect(index.text.contains("[Songs](songs.md) | 3 of 12 songs lower your heart rate"))
    #expect(index.text.contains("covering 2024-01-01 onwards"))
  }

  @Test("an empty store says so instead of showing empty tables")
  func empty() {
    let text = ReportIndex.make(
      summary: StoreSummary(schemaVersion: 4), pages: [], range: ReportRange(DayRange())
    ).text
    #expect(text.contains("Nothing has been imported"))
    #expect(text.contains("covering the whole history"))
    #expect(!text.contains("Imported files"))
    #expect(!text.contains("Pipeline"))
  }

  @Test("table cells escape pipes, flatten newlines, and keep what looks like a tag as text")
  func escaping() {
    let table = Markdown.table(header: ["a"], rows: [["x|y\nz"]])
    #expect(table == "| a |\n|---|\n| x\\|y z |\n")
    #expect(Markdown.escape("<b>Intro</b> <3 a<2") == "\\<b>Intro\\</b> <3 a<2")
    #expect(Format.grouped(1_234_567) == "1,234,567")
    #expect(Format.grouped(-1000) == "-1,000")
  }
}
