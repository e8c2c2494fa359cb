import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

/// `resonance demo`: the whole pipeline on the committed sample, into a fresh store, with the
/// reports written from what that store holds.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract:
      "Run every stage on the committed sample and write Reports/: every page, CSV and chart, sweep.csv and preferences.json.",
    discussion: """
      Starts a fresh store (the old demo store is deleted first; your own ./resonance.sqlite \
      is never touched unless you pass it with --db), ingests what this build's readers \
      understand under the data folder, runs every stage — analyze, breathing, and where the \
      data holds a DJ decision log, sweep (Reports/sweep.csv) and tune \
      (Reports/preferences.json) with their defaults — and writes the report from what the \
      store then holds, as resonance report does (with validation.md when the data folder \
      has the simulated person's truth.json), its index listing each stage. Every figure in \
      the reports comes from the data.

      'make demo' builds resonance in release mode and runs this command.
      """,
    options: [Self.data, Self.reports, Self.db] + OutputOptions.options,
    examples: [
      Example("resonance demo", "Rebuild Reports/ from Datasets/sample."),
      Example(
        "resonance demo --data ~/exports --reports /tmp/out",
        "Run the same pipeline over your own folder of exports, writing to /tmp/out."),
    ])

  static let data = Option(
    "data", placeholder: "DIR", help: "The sample to read. Default: Datasets/sample.",
    parser: .nonEmpty)
  static let reports = Option(
    "reports", placeholder: "DIR", help: "Where to write the reports. Default: Reports.",
    parser: .nonEmpty)
  static let db = Option(
    "db", placeholder: "PATH",
    help: "The demo's store, deleted and rebuilt. Default: demo.sqlite under --reports.",
    parser: Option<String>.db.parser)

  var dataPath: String
  var reportsPath: String
  var storePath: String
  var output: OutputOptions
  var environment: [String: String]

  init(parsed: ParsedArguments, environment: [String: String]) {
    dataPath = parsed[Self.data] ?? "Datasets/sample"
    reportsPath = parsed[Self.reports] ?? "Reports"
    storePath = parsed[Self.db] ?? (reportsPath as NSString).appendingPathComponent("demo.sqlite")
    output = OutputOptions(parsed)
    self.environment = environment
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let files = FileManager.default
    var isDirectory: ObjCBool = false
    guard files.fileExists(atPath: dataPath, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw CommandError(
        .noInput, "\(dataPath): no such folder (the demo reads the sample committed there)")
    }
    guard
      let walker = files.enumerator(atPath: dataPath),
      walker.contains(where: { item in
        let name = ((item as? String ?? "") as NSString).lastPathComponent
        var isFolder: ObjCBool = false
        return !name.hasPrefix(".") && !name.uppercased().hasPrefix("README")
          && files.fileExists(
            atPath: (dataPath as NSString).appendingPathComponent(item as? String ?? ""),
            isDirectory: &isFolder)
          && !isFolder.boolValue
      })
    else {
      throw CommandError(
        .noInput, "\(dataPath): holds no data files (the demo reads a sample there)")
    }
    try createDirectory(reportsPath)
    for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: storePath + suffix) {
      do {
        try files.removeItem(atPath: storePath + suffix)
      } catch {
        throw CommandError(.ioError, "\(storePath + suffix): cannot remove the old demo store")
      }
    }
    var options = try StoreOptions(ParsedArguments(), environment)
    options.path = storePath
    let store = try options.open()
    say(context, "store \(storePath) (new, schema version \(try store.schemaVersion()))")

    var stages: [ReportIndex.Stage] = []
    var ingest = IngestRun(output: OutputOptions(quietly: true), context: context)
    ingest.ingest(
      dataPath,
      with: ImportPipeline(store: store, zone: .none, forced: nil, keepPartial: false) {
        _, total in
        ProgressReporter(
          label: "", total: total, unit: .bytes, console: context.console, isEnabled: false)
      })
    let summary = try store.summary()
    let ingestNote = DemoSummary.ingest(
      summary, skipped: ingest.passedOver.map { String($0.name.dropFirst(dataPath.count + 1)) })
    stages.append(ReportIndex.Stage(stage: "ingest", outcome: ingestNote))
    say(context, "ingest: \(ingestNote)")
    if summary.listening.plays > 0 {
      let result = try AnalyzeCommand.analyze(store, startedAt: Clock.nowMilliseconds())
      let outcome = AnalyzeSummary.outcome(result)
      stages.append(ReportIndex.Stage(stage: "analyze", outcome: outcome))
      say(context, "analyze: \(outcome)")
    }
    let breathing = try store.breathingRecordings().map {
      BreathingSummary.analyse($0.recording, file: $0.file)
    }
    if !breathing.isEmpty {
      let outcome = DemoSummary.breathing(breathing, BreathingSummary.byPattern(breathing))
      stages.append(ReportIndex.Stage(stage: "breathing", outcome: outcome))
      say(context, "breathing: \(outcome)")
    }

    var written: [String] = []
    let history = try store.decisionHistory()
    if !history.records.isEmpty {
      // The sweep and the tuning, with their defaults, as resonance sweep and tune run them.
      let sweepPath = (reportsPath as NSString).appendingPathComponent("sweep.csv")
      let settings = TuningSettings()
      do {
        let sweep = try Sweeper.sweep(
          history, design: settings.design, reward: settings.reward,
          estimator: settings.estimator)
        let run = try store.insertSweep(sweep, at: Clock.nowMilliseconds())
        try OutputFiles.write(SweepReport.csv(sweep).text, to: sweepPath)
        written.append(sweepPath)
        let outcome = DemoSummary.sweep(sweep, run: run, csv: sweepPath)
        stages.append(ReportIndex.Stage(stage: "sweep", outcome: outcome))
        say(context, "sweep: \(outcome)")
      } catch let error as TuningError {
        stages.append(ReportIndex.Stage(stage: "sweep", outcome: error.detail))
        say(context, "sweep: \(error.detail)")
      }
      let preferencesPath = (reportsPath as NSString).appendingPathComponent("preferences.json")
      let report = try TuneCommand.tune(
        store, history: history, settings: settings, days: DayRange())
      let command = "resonance tune --db \(storePath) --out \(preferencesPath)"
      try OutputFiles.write(
        try TuneCommand.file(report, command: command).encoded(as: .json), to: preferencesPath)
      written.append(preferencesPath)
      let outcome = DemoSummary.tune(report, file: preferencesPath)
      stages.append(ReportIndex.Stage(stage: "tune", outcome: outcome))
      say(context, "tune: \(outcome)")
    }

    // The report, every page (validation.md too when the sample has its truth.json).
    let truthPath = (dataPath as NSString).appendingPathComponent("truth.json")
    let truth =
      files.fileExists(atPath: truthPath) ? try ValidateCommand.readTruth(truthPath) : nil
    let pages = ReportPage.names.filter { $0 != "validation" || truth != nil }
    let report = try ReportCommand.write(
      store, days: DayRange(), pages: pages, truth: truth.map { ($0, truthPath) },
      to: reportsPath,
      pipeline: ReportIndex.Pipeline(dataPath: dataPath, storePath: storePath, stages: stages))
    say(context, "report: \(report.pages.count) pages, \(report.files) files")
    let pagesWritten = ["index"] + report.pages.map(\.name)
    written.insert(
      contentsOf: pagesWritten.map { (reportsPath as NSString).appendingPathComponent($0 + ".md") },
      at: 0)
    say(context, "wrote \(written.joined(separator: ", "))")
    if output.isJSON {
      context.console.out(
        DemoSummary.json(
          stages: stages, store: storePath, written: written,
          exitStatus: Int(ingest.worst.code)
        ).text)
    }
    return ingest.worst
  }

  private func createDirectory(_ path: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw CommandError(.ioError, "\(path): cannot create the folder")
    }
  }

  /// A stage's line: on standard output, unless --json or --quiet.
  private func say(_ context: CommandContext, _ text: String) {
    if output.isText { context.console.out("demo: " + text + "\n") }
  }
}
