import Foundation
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance ingest`: export files read into the store, each file its own transaction; the
/// run goes on after a bad file and reports the most severe failure it met.
package struct IngestStage: Stage {
  package let request: IngestRequest

  package init(_ request: IngestRequest) { self.request = request }

  package func run(progress: any StageProgress) throws -> IngestResult {
    try run(progress: progress) { _ in }
  }

  /// Imports every path, telling `onEvent` what became of each input as it happens; warnings
  /// and the failures it goes on after go to `progress`.
  ///
  /// A path in which nothing at all was recognised (an empty folder, a zip of unknown
  /// members, a file no reader knows) is a failure naming what was found.
  package func run(progress: any StageProgress, onEvent: @escaping (IngestEvent) -> Void) throws
    -> IngestResult
  {
    let started = Date()
    let pipeline = try ImportPipeline(
      location: request.store, zone: request.zone, forced: request.forced,
      keepPartial: request.keepsPartial)
    var run = IngestRun(progress: progress, onEvent: onEvent)
    let files = request.paths.map(Self.fileCount)
    let total = files.reduce(0, +)
    for (path, count) in zip(request.paths, files) {
      run.ingest(path, with: pipeline, files: count, total: total)
    }
    return IngestResult(
      imports: run.imports, unchanged: run.unchanged, passedOver: run.passedOver,
      failures: run.failures, stored: try pipeline.store?.summary(),
      seconds: Date().timeIntervalSince(started))
  }

  /// How many files the walk of `path` opens at the top: 1 for a file (or standard input),
  /// the regular files under a folder, hidden ones left out.
  static func fileCount(_ path: String) -> Int {
    var isFolder: ObjCBool = false
    guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
      isFolder.boolValue, let walker = FileManager.default.enumerator(atPath: path)
    else { return 1 }
    var count = 0
    while let item = walker.nextObject() as? String {
      let name = (item as NSString).lastPathComponent
      if name.hasPrefix(".") {
        walker.skipDescendants()
        continue
      }
      if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { count += 1 }
    }
    return max(count, 1)
  }
}

/// What one ingest met across its paths, passed on as it happens.
private struct IngestRun {
  let progress: any StageProgress
  let onEvent: (IngestEvent) -> Void
  private(set) var imports: [ImportResult] = []
  private(set) var unchanged: [String] = []
  private(set) var failures: [StageFailure] = []
  private var skipped: [SkippedInput] = []
  /// The files on disk walked so far, for "file 37 of 205".
  private var filesDone = 0
  private var currentFile: String?

  init(progress: any StageProgress, onEvent: @escaping (IngestEvent) -> Void) {
    self.progress = progress
    self.onEvent = onEvent
  }

  /// The inputs no reader knew, met in folders and archives.
  var passedOver: [SkippedInput] { skipped.filter { !$0.isExplicit } }

  mutating func ingest(_ path: String, with pipeline: ImportPipeline, files: Int, total: Int) {
    let before = (imports.count, failures.count, skipped.count, unchanged.count)
    let first = filesDone
    let label = IngestLabel(first: first, total: total)
    pipeline.run(path, progress: progress, label: label.next) { event in
      if case .unchanged(let file) = event { label.passedOver(file) }
      record(event, path: path)
    }
    filesDone = first + files
    if imports.count == before.0, failures.count == before.1, unchanged.count == before.3 {
      let met = skipped[before.2...].map(\.name)
      // Named here, so not again among the files skipped.
      for index in skipped.indices.dropFirst(before.2) { skipped[index].isExplicit = true }
      fail(
        path,
        IngestError(
          .unrecognized, at: SourceLocation(file: path),
          "nothing in it is \(ImportFormats.expectedSentence)"
            + (met.isEmpty ? "; it holds no files" : "; found: " + met.joined(separator: ", "))))
    }
  }

  private mutating func record(_ event: ImportPipeline.Event, path: String) {
    switch event {
    case .imported(let result):
      imports.append(result)
      for line in IngestSummary.warnings(result) { progress.say(line) }
      onEvent(.imported(result))
    case .failed(let file, let error):
      fail(file ?? path, error)
    case .skipped(let input):
      skipped.append(input)
      switch input.reason {
      case .unrecognised(let found) where input.isExplicit:
        fail(
          input.name,
          IngestError(
            .unrecognized, at: SourceLocation(file: input.name, line: 1, column: 1),
            "expected \(ImportFormats.expectedSentence), found '\(found)'"))
      case .tooDeep(let limit):
        progress.say(
          "warning: \(input.name): a zip inside zips \(limit) deep, not read (the walk stops at "
            + "\(limit) levels)")
      case .unrecognised, .simulationTruth: break
      }
    case .notImported(let file, let parts):
      if let index = imports.lastIndex(where: { $0.file == file }) {
        imports[index].notImported.merge(parts, uniquingKeysWith: +)
      }
      onEvent(.notImported(file: file, parts: parts))
    case .unchanged(let file):
      unchanged.append(file)
      onEvent(.unchanged(file: file))
    }
  }

  private mutating func fail(_ file: String?, _ error: any Error) {
    let kind = StageError.Kind.of(error)
    failures.append(StageFailure(file: file, message: "\(error)", kind: kind))
    progress.notice(StageNotice(.error, "\(error)"))
  }
}

/// The progress label of each input a walk reads: which file on disk it is of how many, and
/// the input's name (`ingest file 37 of 205: export.zip!apple_health_export/export.xml`).
private final class IngestLabel {
  let first: Int
  let total: Int
  private var seen = 0
  private var lastOuter: String?

  init(first: Int, total: Int) {
    self.first = first
    self.total = total
  }

  /// A file passed over unchanged counts among those walked.
  func passedOver(_ file: String) {
    seen += 1
    lastOuter = file
  }

  func next(_ name: String) -> String {
    let outer = name.split(separator: "!", maxSplits: 1).first.map(String.init) ?? name
    if outer != lastOuter {
      seen += 1
      lastOuter = outer
    }
    let number = min(first + seen, total)
    let shown = (name as NSString).lastPathComponent
    return total > 1 ? "ingest file \(number) of \(total): \(shown)" : "ingest \(shown)"
  }
}

extension IngestResult: ConsolePresentable {
  /// The files no reader knew, if any, then the totals.
  package var text: String { IngestSummary.total(self).map { $0 + "\n" }.joined() }
  package var json: String { IngestSummary.json(self).text }

  /// The inputs no reader knew, in a line for standard error; nil when there were none.
  package var passedOverLine: String? {
    let unknown = passedOver.filter {
      if case .unrecognised = $0.reason { true } else { false }
    }
    guard !unknown.isEmpty else { return nil }
    return "ingest: skipped (no reader knows them): " + unknown.map(\.name).joined(separator: ", ")
  }
}

extension IngestEvent {
  /// What a person reads of the event on standard output.
  package var text: String {
    switch self {
    case .imported(let result): IngestSummary.lines(result).map { $0 + "\n" }.joined()
    case .notImported(_, let parts): IngestSummary.notImportedLine(parts) + "\n"
    case .unchanged(let file):
      "ingest: \(file): unchanged since it was imported whole (same SHA-256); not read\n"
    }
  }
}
