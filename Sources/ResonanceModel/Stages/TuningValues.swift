/// What `resonance sweep` asks: every point of a design estimated on the store's decision log.
package struct SweepRequest: Sendable, Equatable {
  package var store: StoreLocation
  /// The decisions taken, by their local day.
  package var days: DayRange
  package var design: SweepDesign
  package var reward: Reward
  package var estimator: Estimator
  package var product: SweepProduct
  /// Give every point's value a 90% interval from a bootstrap over days.
  package var intervals: Bool
  /// Where the CSV of every point goes.
  package var csvPath: String

  package init(
    store: StoreLocation, days: DayRange = DayRange(), design: SweepDesign, reward: Reward,
    estimator: Estimator, product: SweepProduct = .simd, intervals: Bool = false,
    csvPath: String
  ) {
    self.store = store
    self.days = days
    self.design = design
    self.reward = reward
    self.estimator = estimator
    self.product = product
    self.intervals = intervals
    self.csvPath = csvPath
  }
}

/// A sweep as stored, with the CSV written.
package struct SweepOutcome: Sendable, Equatable {
  package var sweep: SweepResult
  /// The `sweep_runs` row it was stored as.
  package var run: Int64
  package var csvPath: String
  /// The effective sample size a point needs before its estimate is trusted.
  package var minimumESS: Double

  package init(sweep: SweepResult, run: Int64, csvPath: String, minimumESS: Double) {
    self.sweep = sweep
    self.run = run
    self.csvPath = csvPath
    self.minimumESS = minimumESS
  }
}

/// What `resonance tune` asks: a recommendation from the store's decision log, and where the
/// preference file goes.
package struct TuneRequest: Sendable, Equatable {
  package var store: StoreLocation
  /// The decisions taken, by their local day; the pairwise cross-check's plays too.
  package var days: DayRange
  package var settings: TuningSettings
  package var preferencePath: String
  package var encoding: PreferenceFile.Encoding
  /// The command line that makes the same file, recorded in it (`evidence.command`).
  package var command: String
  /// Whether the run spends from the store's error ledger (`ErrorLedger`) and records its
  /// line there; false tests at `settings.level` itself, as a one-off analysis.
  package var usesLedger: Bool

  package init(
    store: StoreLocation, days: DayRange = DayRange(), settings: TuningSettings = TuningSettings(),
    preferencePath: String, encoding: PreferenceFile.Encoding = .json, command: String,
    usesLedger: Bool = true
  ) {
    self.store = store
    self.days = days
    self.settings = settings
    self.preferencePath = preferencePath
    self.encoding = encoding
    self.command = command
    self.usesLedger = usesLedger
  }
}

/// What `resonance tune` found and decided, and where the preference file went.
package struct TuneOutcome: Sendable, Equatable {
  package var report: TuningReport
  package var preferencePath: String

  package init(report: TuningReport, preferencePath: String) {
    self.report = report
    self.preferencePath = preferencePath
  }
}

/// What `resonance demo` asks: the whole pipeline on a folder of exports, into a fresh store.
package struct DemoRequest: Sendable, Equatable {
  /// The folder of exports (the committed sample by default).
  package var dataPath: String
  /// Where the report, `sweep.csv` and `preferences.json` go.
  package var reportsPath: String
  /// The demo's store, deleted and rebuilt: `demo.sqlite` in the reports folder unless given.
  package var storePath: String

  package init(dataPath: String, reportsPath: String, storePath: String? = nil) {
    self.dataPath = dataPath
    self.reportsPath = reportsPath
    self.storePath =
      storePath
      ?? (reportsPath.hasSuffix("/") ? reportsPath : reportsPath + "/") + "demo.sqlite"
  }
}

/// What each stage of the demo came to, the store, and the files written.
package struct DemoResult: Sendable, Equatable {
  package var stages: [StageOutcome]
  package var storePath: String
  /// The report's pages, then `sweep.csv` and `preferences.json` when written.
  package var written: [String]
  /// Lines to show as the run went: the store, each stage, the report.
  package var lines: [String]
  /// The most severe failure the ingest met and went on after; nil when none.
  package var worstFailure: StageError.Kind?

  package init(
    stages: [StageOutcome], storePath: String, written: [String], lines: [String],
    worstFailure: StageError.Kind?
  ) {
    self.stages = stages
    self.storePath = storePath
    self.written = written
    self.lines = lines
    self.worstFailure = worstFailure
  }
}
