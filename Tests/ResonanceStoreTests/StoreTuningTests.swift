import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Store: sweeps and tuning reports, with their vocabulary typed")
struct StoreTuningTests {
  /// A tuning report as `tuning_runs.report` kept it before the reward, the estimator, the
  /// design and the contexts were typed (a real `resonance tune --by-context --design random
  /// --points 64 --seed 7` on twelve simulated months, its folds and contexts cut to two).
  static let storedReport = #"""
    {"bootstrapReplicates":2000,"candidate":{"bpmWeight":0.321115503969076,\#
    "contextWeight":0.051105300484417394,"energyWeight":0.2349838532559758,\#
    "familiarityWeight":0.08701889541709379,"historicalWeight":0.09381793703915597,\#
    "morningBPMCap":120,"morningEndHour":9,"morningStartHour":5,"nightBPMCap":95,\#
    "nightEndHour":5,"nightHardCapBPM":110,"nightStartHour":22,"policy":{"epsilon":0,\#
    "kind":"softmax","temperature":0.05},"recencyPenaltyWeight":0.17560480135884057,\#
    "recencyWindowMinutes":240,"repeatBlockMinutes":60,"sameArtistLimit":0,\#
    "sameArtistWindow":3,"timeOfDayPenaltyWeight":0.06083880364288641},\#
    "contexts":[{"claimed":false,"context":"workout","decisions":2166,"heldOutDecisions":209,\#
    "reason":"no preferences did clearly better on its months before the last"},\#
    {"claimed":false,"context":"deep-work","decisions":5266,\#
    "effectiveSampleSize":249.6853786730874,"gain":{"estimate":0.0027103837301226674,\#
    "level":0.9833333333333333,"lower":-0.001716461984508575,"upper":0.0075235486505956925},\#
    "heldOutDecisions":361,"reason":"the forward-chaining gain's 98.33% interval (−0.0017 … \#
    +0.0075) reaches +0.0100 or below","weights":{"bpm":0.24735302472899437,\#
    "context":0.2331295675212062,"energy":0.304474759173405,"familiarity":0.08526228242532262,\#
    "historical":0.03492034349935116,"recency":0.03734198074564527,\#
    "timeOfDay":0.33451723478655865}}],"decisions":14690,"design":"random (64 points, seed \#
    7)","designPoints":64,"estimator":"dr","excluded":{},"folds":[{"decisions":1151,\#
    "gain":0.008191343087345704,"month":"2022-07"},{"decisions":1300,"month":"2022-08"}],\#
    "forwardGain":{"estimate":0.012067785136257059,"level":0.95,"lower":0.009886487156214804,\#
    "upper":0.014144159079854345},"from":"2022-06-01",\#
    "heldOut":{"agreementShare":0.29502852485737574,"chosenValue":0.5875616197895729,\#
    "clipping":[{"gain":0.005578412998811677},{"gain":0.005578412998811677,"threshold":100},\#
    {"gain":0.005578412998811677,"threshold":20},{"gain":0.005578412998811677,"threshold":10},\#
    {"gain":0.005574770468233514,"threshold":5}],"decisions":1227,\#
    "effectiveSampleSize":1059.8134005574245,"gain":{"estimate":0.005578412998811677,\#
    "level":0.95,"lower":-0.0026979811441565477,"upper":0.013817289168532207},\#
    "inForceValue":0.5819832067907612,"keepChangePer100":1.1093343840776648,\#
    "largestWeight":5.1334008421666155,"month":"2023-05"},"inForce":{"bpmWeight":0.25,\#
    "contextWeight":0.15,"energyWeight":0.25,"familiarityWeight":0.15,"historicalWeight":0.2,\#
    "morningBPMCap":120,"morningEndHour":9,"morningStartHour":5,"nightBPMCap":95,\#
    "nightEndHour":5,"nightHardCapBPM":110,"nightStartHour":22,"policy":{"epsilon":0,\#
    "kind":"softmax","temperature":0.05},"recencyPenaltyWeight":0.3,\#
    "recencyWindowMinutes":240,"repeatBlockMinutes":60,"sameArtistLimit":0,\#
    "sameArtistWindow":3,"timeOfDayPenaltyWeight":0.2},"judgedDecisions":13323,"level":0.95,\#
    "margin":0.01,"minimumESS":200,"months":["2022-06","2022-07","2022-08","2022-09",\#
    "2022-10","2022-11","2022-12","2023-01","2023-02","2023-03","2023-04","2023-05"],\#
    "pairwise":{"agreementWithRecommended":0.5321663818102437,"pairs":12842,\#
    "pairwiseAccuracy":0.6984893318797695,"plays":5340,"sessions":337,\#
    "weights":{"bpm":0.042364055087810736,"context":0.051913506720626154,\#
    "energy":0.11333097690023193,"familiarity":0.7923914612913311,"historical":0,\#
    "recency":0.17179032617030743,"timeOfDay":0.24391456590840915}},"reason":"on the 11 \#
    months judged by a choice made before them (2022-07…2023-05, 13323 decisions), choosing \#
    on the past gained +0.0121 in composite (95% interval +0.0099 … +0.0141): the interval \#
    reaches +0.0100 or below, so the data do not show choosing this way doing better by \#
    enough","recommendation":"keep","recommended":{"bpmWeight":0.25,"contextWeight":0.15,\#
    "energyWeight":0.25,"familiarityWeight":0.15,"historicalWeight":0.2,"morningBPMCap":120,\#
    "morningEndHour":9,"morningStartHour":5,"nightBPMCap":95,"nightEndHour":5,\#
    "nightHardCapBPM":110,"nightStartHour":22,"policy":{"epsilon":0,"kind":"softmax",\#
    "temperature":0.05},"recencyPenaltyWeight":0.3,"recencyWindowMinutes":240,\#
    "repeatBlockMinutes":60,"sameArtistLimit":0,"sameArtistWindow":3,\#
    "timeOfDayPenaltyWeight":0.2},"replay":{"byVersion":{"2":14690},\#
    "largestPropensityRelativeDifference":0,"largestScoreDifference":0,"notReplayable":{},\#
    "replayed":14690},"reward":"composite","selectionESS":11155.908192333829,\#
    "selectionGain":0.01491626113541722,"to":"2023-05-31"}
    """#

  @Test(
    "a tuning report stored before the vocabulary was typed reads back, and writes the same JSON but the bootstrap's replicates"
  )
  func readsStoredReport() throws {
    let store = try Store(path: ":memory:")
    try store.connection.execute(
      "INSERT INTO tuning_runs (ran_at_ms, recommendation, reason, report) VALUES (?, ?, ?, ?)",
      [Int64(0), "keep", "why", Self.storedReport])
    let report = try #require(try store.latestTuning())
    #expect(report.reward == .composite && report.estimator == .dr)
    #expect(report.design == SweepDesign(kind: .random, points: 64, seed: 7))
    #expect(report.designPoints == 64)
    #expect(report.contexts.map(\.context) == [.workout, .deepWork])
    // Intervals no longer come from a bootstrap: the count of its replicates is read past and
    // not written again; everything else is.
    #expect(
      try Store.json(report)
        == Self.storedReport.replacingOccurrences(of: #"{"bootstrapReplicates":2000,"#, with: "{"))
  }

  @Test("a stored report whose design is not one this build writes is refused")
  func unknownDesign() throws {
    let store = try Store(path: ":memory:")
    let text = Self.storedReport.replacingOccurrences(
      of: #""design":"random (64 points, seed 7)""#, with: #""design":"halton (64 points)""#)
    try store.connection.execute(
      "INSERT INTO tuning_runs (ran_at_ms, recommendation, reason, report) VALUES (?, ?, ?, ?)",
      [Int64(0), "keep", "why", text])
    let error = try #require(throws: StoreError.self) { try store.latestTuning() }
    #expect(error.message == "the stored tuning report is not one this build writes")
  }

  @Test(
    "a run's line goes into the error ledger with its report; one worked out on a ledger another run has since changed is refused, storing nothing"
  )
  func ledgerLines() throws {
    let store = try Store(path: ":memory:")
    var report = try JSONDecoder().decode(TuningReport.self, from: Data(Self.storedReport.utf8))
    let family = #"{"in force":1}"#
    func spending(through month: String) throws -> ErrorLedger.Allowance {
      ErrorLedger.allowance(
        family: family, first: "2022-06", through: month, alpha: 0.05,
        entries: try store.errorLedger())
    }
    report.spending = try spending(through: "2022-09")
    try store.insertTuning(report, at: 1)
    #expect(try store.errorLedger() == [report.spending!.entry!])
    // A run that read the ledger before that line went in, through October.
    report.spending = ErrorLedger.allowance(
      family: family, first: "2022-06", through: "2022-10", alpha: 0.05, entries: [])
    let error = try #require(throws: StoreError.self) { try store.insertTuning(report, at: 2) }
    #expect(error.kind == .busy && error.message.contains("run it again"))
    #expect(try store.connection.row("SELECT COUNT(*) FROM tuning_runs")?.int(0) == 1)
    #expect(try store.errorLedger().count == 1)
    // Worked out on the ledger as it is now, it goes in; a repeated run adds no line.
    report.spending = try spending(through: "2022-10")
    try store.insertTuning(report, at: 3)
    report.spending = try spending(through: "2022-10")
    #expect(report.spending?.kind == .repeated)
    try store.insertTuning(report, at: 4)
    #expect(try store.errorLedger().map(\.throughMonth) == ["2022-09", "2022-10"])
    #expect(try store.connection.row("SELECT COUNT(*) FROM tuning_runs")?.int(0) == 3)
  }

  static let sweep = SweepResult(
    design: SweepDesign(kind: .grid, step: 0.25), reward: .listenShare, estimator: .snips,
    decisions: 12, from: "2022-06-01", to: "2022-06-30",
    points: [
      SweepPoint(
        index: 0, label: "in force", weights: UserPreferences.appDefault.weights, value: 0.5,
        keepRate: 0.6, response: 0.4, effectiveSampleSize: 12, largestWeight: 1,
        agreementShare: 0.25, isPareto: true)
    ], kernelSeconds: 0.5, product: .blas)

  @Test("a sweep's design, reward, estimator and product are stored as the text they always were")
  func sweepColumns() throws {
    let store = try Store(path: ":memory:")
    let run = try store.insertSweep(Self.sweep, at: 0)
    let row = try #require(
      try store.connection.row(
        "SELECT design, reward, estimator, product FROM sweep_runs WHERE id = ?", [run]))
    #expect(row.string(0) == "grid, step 0.25 (630 points)")
    #expect(row.string(1) == "listen-share" && row.string(2) == "snips")
    #expect(row.string(3) == "blas")
    #expect(try store.latestSweep() == Self.sweep)
  }

  @Test("a sweep stored before the vocabulary was typed reads back")
  func readsStoredSweep() throws {
    let store = try Store(path: ":memory:")
    try store.connection.execute(
      """
      INSERT INTO sweep_runs (ran_at_ms, design, reward, estimator, decisions, from_day, to_day,
        kernel_seconds, product)
      VALUES (0, 'random (64 points, seed 7)', 'session-quality', 'dm', 5, NULL, NULL, 0.25,
        'simd')
      """)
    let sweep = try #require(try store.latestSweep())
    #expect(sweep.design == SweepDesign(kind: .random, points: 64, seed: 7))
    #expect(sweep.reward == .sessionQuality && sweep.estimator == .dm && sweep.product == .simd)
    #expect(sweep.points.isEmpty)
  }

  @Test("a sweep run whose estimator is not one this build writes is refused, naming the run")
  func unknownEstimator() throws {
    let store = try Store(path: ":memory:")
    try store.connection.execute(
      """
      INSERT INTO sweep_runs (ran_at_ms, design, reward, estimator, decisions, kernel_seconds,
        product)
      VALUES (0, 'sobol (1024 points)', 'composite', 'mrdr', 5, 0.25, 'simd')
      """)
    let error = try #require(throws: StoreError.self) { try store.latestSweep() }
    #expect(error.message == "the stored sweep run 1 is not one this build writes")
  }
}
