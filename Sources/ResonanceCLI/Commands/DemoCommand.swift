import Foundation
import ResonanceBrain
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance demo`: the whole pipeline on the committed sample, into a fresh store, with the
/// reports written from what that store holds.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract: "Run every stage on the committed sample and write Reports/index.md.",
    discussion: """
      Starts a fresh store (the old demo store is deleted first; your own ./resonance.sqlite \
      is never touched unless you pass it with --db), ingests what this build's readers \
      understand under the data folder, runs the stages that exist, and writes the reports \
      from what the store then holds. Every figure in the reports comes from the data.

      'make demo' builds resonance in release mode and runs this command.
      """,
    options: [
      OptionDefinition(
        "data", .value(placeholder: "DIR"), help: "The sample to read. Default: Datasets/sample."),
      OptionDefinition(
        "reports", .value(placeholder: "DIR"), help: "Where to write the reports. Default: Reports."
      ),
      OptionDefinition(
        "db", .value(placeholder: "PATH"),
        help: "The demo's store, deleted and rebuilt. Default: DIR/demo.sqlite under --reports."),
      CommonOptions.quiet,
    ],
    examples: [
      Example("resonance demo", "Rebuild Reports/ from Datasets/sample."),
      Example(
        "resonance demo --data ~/exports --reports /tmp/out",
        "Run the same pipeline over your own folder of exports, writing to /tmp/out."),
    ])

  var dataPath: String
  var isDataPathDefault: Bool
  var reportsPath: String
  var storePath: String
  var isQuiet: Bool

  init(parsed: ParsedArguments, environment: [String: String]) {
    dataPath = parsed.value("data") ?? "Datasets/sample"
    isDataPathDefault = parsed.value("data") == nil
    reportsPath = parsed.value("reports") ?? "Reports"
    storePath =
      parsed.value("db") ?? (reportsPath as NSString).appendingPathComponent("demo.sqlite")
    isQuiet = parsed.flag("quiet")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let files = FileManager.default
    var isDirectory: ObjCBool = false
    let dataExists = files.fileExists(atPath: dataPath, isDirectory: &isDirectory)
    if !isDataPathDefault, !dataExists {
      throw CommandError(.noInput, "\(dataPath): no such folder")
    }

    try createDirectory(reportsPath)
    for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: storePath + suffix) {
      do {
        try files.removeItem(atPath: storePath + suffix)
      } catch {
        throw CommandError(.ioError, "\(storePath + suffix): cannot remove the old demo store")
      }
    }
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    say(context, "store \(storePath) (new, schema version \(try store.schemaVersion()))")

    var stages: [IndexReport.StageNote] = []
    let breathingFiles = dataFiles().filter {
      $0.hasPrefix("resonance/breathing/") && $0.hasSuffix(".jsonl")
    }
    let ingest = try ingestStage(
      dataExists: dataExists && isDirectory.boolValue, store: store, context: context)
    stages.append(IndexReport.StageNote(stage: "ingest", outcome: ingest))
    say(context, "ingest: \(ingest)")
    if !breathingFiles.isEmpty {
      let breathing = try breathingStage(store)
      stages.append(IndexReport.StageNote(stage: "breathing", outcome: breathing))
      say(context, "breathing: \(breathing)")
    }

    let report = IndexReport(
      summary: try store.summary(), storePath: storePath, dataPath: dataPath, stages: stages)
    let indexPath = (reportsPath as NSString).appendingPathComponent("index.md")
    try write(report.markdown(), to: indexPath)
    say(context, "wrote \(indexPath)")
    return .ok
  }

  /// Ingests what this build's readers understand in the data folder (the Apple Health export,
  /// as `export.zip` or its folder), and names the files no reader takes yet.
  private func ingestStage(dataExists: Bool, store: Store, context: CommandContext) throws -> String
  {
    guard dataExists else { return "no sample data: \(dataPath) does not exist" }
    let found = dataFiles()
    if found.isEmpty { return "no sample data: \(dataPath) holds no data files" }
    var read: [String] = []
    var covered = Set<String>()
    let zips = found.filter { $0.lowercased().hasSuffix(".zip") }
    var exports: [(HealthExportLocation, [String: Int])] = []
    for zip in zips {
      if let located = try? HealthExportLocator.locate(zip: dataPath + "/" + zip) {
        exports.append(located)
        covered.insert(zip)
      }
    }
    if let located = HealthExportLocator.locate(folder: dataPath) {
      exports.append(located)
    }
    for (location, parts) in exports {
      let result = try HealthImport.run(
        location, notImported: parts, store: store, keepPartial: false, progress: nil)
      read.append(
        "\((location.displayName as NSString).lastPathComponent): \(ProgressReporter.grouped(Int64(result.recordsAdded))) Health records, "
          + "\(ProgressReporter.grouped(Int64(result.beatsAdded))) beats, \(result.workoutsAdded) workouts"
      )
      if case .file(let path) = location {
        covered.insert(String(path.dropFirst(dataPath.count + 1)))
      }
    }
    // The apps' own recordings, recognised by their header line.
    var traces = 0
    var traceSamples = 0
    for name in found
    where !covered.contains(name) && (name.hasSuffix(".jsonl") || name.hasSuffix(".jsonl.gz")) {
      let path = (dataPath as NSString).appendingPathComponent(name)
      guard let trace = try TraceImport.recognize(path: path) else { continue }
      let result = try TraceImport.run(path: path, raw: trace.raw, text: trace.text, store: store)
      traces += 1
      traceSamples += result.samples
      covered.insert(name)
    }
    if traces > 0 {
      read.append(
        "\(traces) app recordings (decision log, Watch and Mac traces, mood, breathing), \(ProgressReporter.grouped(Int64(traceSamples))) samples"
      )
    }
    // Files in the Health export's folder that the export does not need (routes, the CDA file).
    let others = found.filter { name in
      !covered.contains(name) && !name.hasPrefix("apple_health_export/") && name != "truth.json"
    }
    var outcome = read.isEmpty ? "no file this build can read" : read.joined(separator: "; ")
    if !others.isEmpty {
      outcome +=
        "; no reader yet for \(others.count) other files (the listening histories)"
    }
    return outcome
  }

  /// Analyses the breathing sessions the store holds and sums them up: sessions, then per
  /// pattern the mean Resonance Score, breathing rate and phase locking.
  private func breathingStage(_ store: Store) throws -> String {
    let rows = try store.breathingRecordings().map {
      ($0.recording, BreathingAnalysis($0.recording))
    }
    let groups = BreathingCommand.comparison(rows).map { group in
      "\(group["pattern"] as? String ?? "") (\(group["sessions"] as? Int ?? 0)): score "
        + BreathingCommand.number(group["mean_score"] as? Double, 0) + ", "
        + BreathingCommand.number(group["mean_rate"] as? Double, 1) + " breaths/min, PLV "
        + BreathingCommand.number(group["mean_plv"] as? Double, 2)
    }
    return "\(rows.count) sessions analysed"
      + "; by pattern, mean Resonance Score, rate and phase locking: "
      + groups.joined(separator: "; ")
  }

  /// Data files under the data folder, relative to it, sorted; READMEs are documentation.
  private func dataFiles() -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: dataPath) else { return [] }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let full = (dataPath as NSString).appendingPathComponent(path)
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      let name = (path as NSString).lastPathComponent
      if name.hasPrefix(".") || name.uppercased().hasPrefix("README") { continue }
      found.append(path)
    }
    return found.sorted()
  }

  private func createDirectory(_ path: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw CommandError(.ioError, "\(path): cannot create the folder")
    }
  }

  private func write(_ text: String, to path: String) throws {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CommandError(.ioError, "\(path): cannot write: \(error.localizedDescription)")
    }
  }

  private func say(_ context: CommandContext, _ text: String) {
    if !isQuiet { context.report("demo: " + text) }
  }
}
