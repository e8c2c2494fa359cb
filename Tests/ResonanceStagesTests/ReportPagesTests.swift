import Foundation
import Testing

@testable import ResonanceModel
@testable import ResonanceStages
@testable import ResonanceStore

@Suite("Report page registry")
struct ReportPagesTests {
  @Test("every page name has one entry, in the index's order")
  func oneEntryEach() {
    #expect(ReportPages.all.map(\.name) == ReportPageName.allCases)
    for name in ReportPageName.allCases { #expect(ReportPages.page(name).name == name) }
    #expect(ReportPages.described.hasPrefix("songs ("))
  }

  @Test(
    "each entry loads from the store and writes the page it is named for, even on an empty store")
  func entriesWriteTheirPage() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("resonance-pages-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try Store(path: folder + "/empty.sqlite")
    let sources = ReportSources(store: store, days: DayRange(), truth: nil)
    for entry in ReportPages.all where entry.name != .validation {
      let page = try entry.make(sources)
      #expect(page.name == entry.name.rawValue)
      #expect(page.files.first?.name == entry.name.rawValue + ".md")
      #expect(!page.headline.isEmpty)
    }
  }

  @Test("the report stage writes only the pages asked for, in the index's order, and the index")
  func stageWritesWhatWasAsked() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("resonance-report-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try Store(path: folder + "/s.sqlite")
    let progress = ProgressRecorder()
    let result = try ReportStage(
      ReportRequest(
        store: StoreLocation(path: folder + "/s.sqlite"), folder: folder + "/out",
        pages: [.sleep, .songs])
    ).run(progress: progress)
    #expect(result.pages.map(\.name) == ["songs", "sleep"])
    #expect(FileManager.default.fileExists(atPath: folder + "/out/index.md"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/hrv.md"))
    #expect(progress.events.first == "begin report: pages 2")
    #expect(progress.events.contains("advance 2") && progress.events.last == "end")
  }
}
