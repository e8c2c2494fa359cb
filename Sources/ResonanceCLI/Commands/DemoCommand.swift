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
    let (ingest, ingestCode) = try ingestStage(
      dataExists: dataExists && isDirectory.boolValue, store: store, context: context)
    stages.append(IndexReport.StageNote(stage: "ingest", outcome: ingest))
    say(context, "ingest: \(ingest)")
    if try store.summary().listening.plays > 0 {
      let result = try AnalyzeCommand.analyze(store, startedAt: Clock.nowMilliseconds())
      let outcome = AnalyzeSummary.outcome(result)
      stages.append(IndexReport.StageNote(stage: "analyze", outcome: outcome))
      say(context, "analyze: \(outcome)")
    }
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
    return ingestCode
  }

  /// Ingests every file of the data folder a reader knows, as `resonance ingest DIR` does,
  /// and sums up what the store then holds. Files no reader knows are named.
  private func ingestStage(
    dataExists: Bool, store: Store, context: CommandContext
  ) throws -> (String, ExitCode) {
    guard dataExists else { return ("no sample data: \(dataPath) does not exist", .ok) }
    if dataFiles().isEmpty { return ("no sample data: \(dataPath) holds no data files", .ok) }
    let ingestor = Ingestor(
      store: store, context: context, zone: .none, forcedKind: nil, keepPartial: false,
      isQuiet: true)
    ingestor.ingest(dataPath)
    let summary = try store.summary()
    let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
    var read: [String] = []
    let health = summary.health
    if !health.records.isEmpty {
      read.append(
        "\(count(health.records.values.reduce(0, +))) Health records, \(count(health.heartbeats)) beats, \(count(health.workouts)) workouts"
      )
    }
    let listening = summary.listening
    if listening.songs > 0 {
      let sources = Set(summary.imports.map(\.importer)).filter {
        ListeningFileKind(rawValue: $0) != nil || $0 == "resonance.decision-log"
      }
      read.append(
        "\(count(listening.plays)) plays (\(count(listening.skips)) skipped) of \(count(listening.songs)) songs from \(sources.count) kinds of listening file, \(count(listening.resolved)) plays resolved to an artist and genre"
      )
    }
    if summary.traces.recordings > 0 {
      read.append(
        "\(summary.traces.recordings) app recordings (decision log, Watch and Mac traces, mood, breathing), \(count(summary.traces.samples)) samples"
      )
    }
    var outcome = read.isEmpty ? "no file this build can read" : read.joined(separator: "; ")
    let others = ingestor.skipped.map { String($0.dropFirst(dataPath.count + 1)) }
    if !others.isEmpty { outcome += "; not read: " + others.joined(separator: ", ") }
    return (outcome, ingestor.worst)
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
