import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance demo`: every stage in turn on a folder of exports — ingest, analyze, breathing,
/// sweep and tune (when the data holds a decision log), the experiment beside the data (when
/// there is one), report — into a fresh store, with the report written from what that store
/// then holds.
package struct DemoStage: Stage {
  package let request: DemoRequest

  package init(_ request: DemoRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when the data folder is missing or holds no data
  ///   file; `StageError.io` when the old demo store cannot be removed or a folder created;
  ///   what the stages throw.
  package func run(progress: any StageProgress) throws -> DemoResult {
    let data = request.dataPath
    let reports = request.reportsPath
    try checkData()
    try createFolder(reports)
    try removeOldStore()
    let location = StoreLocation(path: request.storePath)
    var lines = [
      "store \(request.storePath) (new, schema version \(try location.create().schemaVersion()))"
    ]
    var stages: [StageOutcome] = []
    func record(_ stage: String, _ outcome: String) {
      stages.append(StageOutcome(stage: stage, outcome: outcome))
      lines.append("\(stage): \(outcome)")
    }

    let ingest = try IngestStage(IngestRequest(paths: [data], store: location)).run(
      progress: Quieted(progress))
    let store = try location.existing(for: "demo")
    let summary = try store.summary()
    record(
      "ingest",
      DemoSummary.ingest(
        summary,
        skipped: ingest.passedOver.filter { $0.reason != .simulationTruth }.map {
          String($0.name.dropFirst(data.count + 1))
        }))
    if summary.listening.plays > 0 {
      record(
        "analyze", try AnalyzeStage(AnalyzeRequest(store: location)).run(progress: progress).outcome
      )
    }
    // As resonance breathing runs over the store: results saved where the notebooks read them.
    let breathing = try BreathingStage.analyseAndSave(store.breathingRecordings(), in: store)
    if !breathing.isEmpty {
      record("breathing", DemoSummary.breathing(breathing, BreathingSummary.byPattern(breathing)))
    }

    var written: [String] = []
    if try store.hasDecisions() {
      // The sweep and the tuning with their defaults, as resonance sweep and tune run them.
      let settings = TuningSettings()
      let sweepPath = (reports as NSString).appendingPathComponent("sweep.csv")
      do {
        let sweep = try SweepStage(
          SweepRequest(
            store: location, design: settings.design, reward: settings.reward,
            estimator: settings.estimator, csvPath: sweepPath)
        ).run(progress: progress)
        written.append(sweepPath)
        record("sweep", sweep.outcome)
      } catch let error as StageError where error.kind == .badData {
        record("sweep", error.message)
      }
      let preferencesPath = (reports as NSString).appendingPathComponent("preferences.json")
      let tune = try TuneStage(
        TuneRequest(
          store: location, settings: settings, preferencePath: preferencesPath,
          command: "resonance tune --db \(request.storePath) --out \(preferencesPath)")
      ).run(progress: progress)
      written.append(preferencesPath)
      record("tune", tune.outcome)
      if let experiment = try runExperiment(location, progress: progress, record: record) {
        written.append(experiment)
      }
    }

    // The report, every page (validation.md too when the sample has its truth.json).
    let truthPath = (data as NSString).appendingPathComponent("truth.json")
    let hasTruth = FileManager.default.fileExists(atPath: truthPath)
    let report = try ReportStage(
      ReportRequest(
        store: location, folder: reports,
        pages: ReportPageName.allCases.filter { $0 != .validation || hasTruth },
        truthPath: hasTruth ? truthPath : nil,
        pipeline: ReportPipeline(dataPath: data, storePath: request.storePath, stages: stages),
        html: true)
    ).run(progress: progress)
    lines.append("report: \(report.pages.count) pages, \(report.fileCount) files")
    written.insert(
      contentsOf: (["index"] + report.pages.map(\.name)).map {
        (reports as NSString).appendingPathComponent($0 + ".md")
      } + [(reports as NSString).appendingPathComponent("index.html")], at: 0)
    lines.append("wrote \(written.joined(separator: ", "))")
    return DemoResult(
      stages: stages, storePath: request.storePath, written: written, lines: lines,
      worstFailure: ingest.worstFailure)
  }

  /// The gain the demo's experiment is planned to show, and its longest length: what
  /// `scripts/sample-experiment.sh` planned the committed experiment with.
  static let experimentMargin = 0.05
  static let experimentDays = 56

  /// The experiment beside the sample (`Datasets/sample-experiment`: `candidate.json` and
  /// the decision logs of the DJ carrying out the plan): planned on the store as the history
  /// left it, its days ingested, then analysed, as `resonance experiment plan`, `ingest` and
  /// `experiment analyze` run. Nothing without the folder.
  ///
  /// - Returns: the plan's path, when there was an experiment.
  private func runExperiment(
    _ location: StoreLocation, progress: any StageProgress,
    record: (String, String) -> Void
  ) throws -> String? {
    var data = request.dataPath
    while data.count > 1 && data.hasSuffix("/") { data.removeLast() }
    let folder = data + "-experiment"
    let candidate = (folder as NSString).appendingPathComponent("candidate.json")
    guard FileManager.default.fileExists(atPath: candidate) else { return nil }
    let planPath = (request.reportsPath as NSString).appendingPathComponent("experiment.json")
    let plan = try ExperimentPlanStage(
      ExperimentPlanRequest(
        store: location, candidates: [candidate], margin: Self.experimentMargin,
        maxDays: Self.experimentDays, out: planPath)
    ).run(progress: Quieted(progress)).plan
    record(
      "experiment plan",
      "\(plan.arms.map(\.name).joined(separator: " against ")) from \(plan.start) for "
        + "\(plan.days) days in cycles of \(plan.stoppingRule.cycleDays), seed \(plan.seed); "
        + "\(planPath)")
    let recordings = (folder as NSString).appendingPathComponent("resonance")
    let ingest = try IngestStage(IngestRequest(paths: [recordings], store: location)).run(
      progress: Quieted(progress))
    let analysis = try ExperimentAnalyzeStage(
      ExperimentAnalyzeRequest(store: location, plan: planPath)
    ).run(progress: progress)
    record(
      "experiment",
      "\(Format.grouped(ingest.imports.reduce(0) { $0 + $1.counts.samples })) decisions of the "
        + "DJ carrying it out, from \(recordings); " + ExperimentPage.headline(analysis))
    return planPath
  }

  /// The data folder must exist and hold a data file (a README alone is not data).
  private func checkData() throws {
    let files = FileManager.default
    let data = request.dataPath
    var isFolder: ObjCBool = false
    guard files.fileExists(atPath: data, isDirectory: &isFolder), isFolder.boolValue else {
      throw StageError(
        .missingInput, "\(data): no such folder (the demo reads the sample committed there)")
    }
    let walker = files.enumerator(atPath: data)
    let holdsData =
      walker?.contains { item in
        let path = item as? String ?? ""
        let name = (path as NSString).lastPathComponent
        var isFolder: ObjCBool = false
        return !name.hasPrefix(".") && !name.uppercased().hasPrefix("README")
          && files.fileExists(
            atPath: (data as NSString).appendingPathComponent(path), isDirectory: &isFolder)
          && !isFolder.boolValue
      } ?? false
    guard holdsData else {
      throw StageError(
        .missingInput, "\(data): holds no data files (the demo reads a sample there)")
    }
  }

  private func createFolder(_ path: String) throws(StageError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw StageError(.io, "\(path): cannot create the folder")
    }
  }

  private func removeOldStore() throws(StageError) {
    let path = request.storePath
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
      do {
        try FileManager.default.removeItem(atPath: path + suffix)
      } catch {
        throw StageError(.io, "\(path + suffix): cannot remove the old demo store")
      }
    }
  }
}

/// Another stage's progress with its messages held back: the demo's ingest says what it read
/// in its one line, not file by file; its errors still show.
private struct Quieted: StageProgress {
  let inner: any StageProgress

  init(_ inner: any StageProgress) { self.inner = inner }

  func begin(_ step: String, total: Int64?, unit: WorkUnit) {
    inner.begin(step, total: total, unit: unit)
  }
  func advance(to done: Int64) { inner.advance(to: done) }
  func end() { inner.end() }
  func notice(_ notice: StageNotice) { if notice.kind == .error { inner.notice(notice) } }
}

extension DemoResult: ConsolePresentable {
  package var text: String { lines.map { "demo: " + $0 + "\n" }.joined() }
  package var json: String {
    DemoSummary.json(
      stages: stages, store: storePath, written: written,
      exitStatus: Int(worstFailure?.exitStatus ?? 0)
    ).text
  }
}
