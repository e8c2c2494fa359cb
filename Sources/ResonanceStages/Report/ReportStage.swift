import Foundation
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance report`: the pages a person reads, each with its CSV and charts, from the
/// store, and the index that links them.
package struct ReportStage: Stage {
  package let request: ReportRequest

  package init(_ request: ReportRequest) { self.request = request }

  /// Builds the pages asked for, in the index's order, and writes them, the index and the
  /// Datasette metadata into the folder; with `html`, each page's and the index's HTML twin
  /// too.
  ///
  /// - Throws: `StageError.missingInput` when there is no store; the truth file's errors;
  ///   `StageError.io` for a file that cannot be written; `StoreError`.
  package func run(progress: any StageProgress) throws -> ReportResult {
    let store = try request.store.reading(for: "report")
    let truth = try request.truthPath.map { path in
      (truth: try ValidateStage.readTruth(path), name: (path as NSString).lastPathComponent)
    }
    let sources = ReportSources(store: store, days: request.days, truth: truth)
    let wanted = ReportPages.all.filter {
      request.pages.contains($0.name) && ($0.name != .validation || truth != nil)
    }
    var pages: [ReportPage] = []
    try progress.step("report: pages", total: Int64(wanted.count), unit: .items("pages")) {
      for entry in wanted {
        pages.append(try entry.make(sources))
        progress.advance(to: Int64(pages.count))
      }
    }
    let index = ReportIndex.make(
      summary: try store.summary(), pages: pages, range: sources.range,
      pipeline: request.pipeline)
    // Datasette names a database by its file's stem.
    let database = ((store.path as NSString).lastPathComponent as NSString).deletingPathExtension
    let metadata = ReportFile(
      name: "metadata.json", text: DatasetteMetadata.json(database: database).text)
    let markdown = [index] + pages.flatMap(\.files)
    let html = request.html ? HTMLReport.pages(markdown) : []
    var count = 0
    for file in markdown + html + [metadata] {
      try OutputFiles.write(
        file.text, to: (request.folder as NSString).appendingPathComponent(file.name))
      count += 1
    }
    return ReportResult(
      folder: request.folder, days: request.days,
      pages: pages.map {
        ReportResult.Page(
          name: $0.name, title: $0.title, headline: $0.headline, files: $0.files.map(\.name))
      },
      fileCount: count)
  }
}

extension ReportResult: ConsolePresentable {
  package var text: String { ReportSummary.text(self) }
  package var json: String { ReportSummary.json(self).text }
}

/// The files stages write beside their output (reports, CSVs, preference files).
enum OutputFiles {
  /// Writes a file, creating its folder.
  ///
  /// - Throws: `StageError.io` naming the path when it cannot be written.
  static func write(_ text: String, to path: String) throws(StageError) {
    try write(Data(text.utf8), to: path)
  }

  static func write(_ data: Data, to path: String) throws(StageError) {
    let folder = (path as NSString).deletingLastPathComponent
    // The nearest part of the folder that exists must be a folder: `--out notes.txt` names the
    // file in the way, not the report file that could not be written inside it.
    var existing = folder
    var isFolder: ObjCBool = false
    while !existing.isEmpty,
      !FileManager.default.fileExists(atPath: existing, isDirectory: &isFolder)
    {
      // Up one level by hand: Foundation's deletingLastPathComponent traps on a one-character
      // relative path (`--out r`).
      existing = existing.lastIndex(of: "/").map { String(existing[..<$0]) } ?? ""
    }
    if !existing.isEmpty, !isFolder.boolValue {
      throw StageError(.io, "\(existing): is a file, not a folder: cannot write \(path) inside it")
    }
    do {
      if !folder.isEmpty {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
      }
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw StageError(.io, "\(path): cannot write: \(reason(error))")
    }
  }

  /// What the system said, when Foundation's error carries it (`permission denied`), rather
  /// than "the operation could not be completed".
  private static func reason(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let code = underlying.map(\.code)
      ?? ((error as NSError).domain == NSPOSIXErrorDomain ? (error as NSError).code : nil)
    {
      return String(cString: strerror(Int32(code))).lowercased()
    }
    return error.localizedDescription
  }
}
