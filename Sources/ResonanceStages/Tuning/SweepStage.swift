import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

/// `resonance sweep`: every point of a design over the seven weights, estimated offline on
/// the DJ's logged decisions, stored and written to a CSV.
package struct SweepStage: Stage {
  package let request: SweepRequest

  /// The effective sample size below which a point's estimate is flagged.
  static let minimumESS = 200.0

  package init(_ request: SweepRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when there is no store; `StageError.badData` when
  ///   the log cannot be evaluated (no decisions, no reward measured); `StoreError`;
  ///   `StageError.io` when the CSV cannot be written.
  package func run(progress: any StageProgress) throws -> SweepOutcome {
    let store = try request.store.existing(for: "sweep")
    let log = try store.replayedLog(
      in: request.days, replays: false, label: "sweep", progress: progress)
    let sweep: SweepResult
    do {
      sweep = try Sweeper.sweep(
        log, design: request.design, reward: request.reward, estimator: request.estimator,
        product: request.product, intervals: request.intervals, progress: progress)
    } catch {
      throw StageError(.badData, "\(request.store.path): \(error.detail)")
    }
    let run = try store.insertSweep(sweep, at: Clock.nowMilliseconds())
    try OutputFiles.write(SweepReport.csv(sweep).text, to: request.csvPath)
    return SweepOutcome(
      sweep: sweep, run: run, csvPath: request.csvPath, minimumESS: Self.minimumESS)
  }
}

extension Store {
  /// The decision history within `days` (every decision when the range is open). A log
  /// states its preferences once, at its first decision: the first decision kept gets the
  /// preferences in force at it (the last stated at or before it), so that a range starting
  /// after a log's first decision replays as the whole history does.
  func decisionHistory(in days: DayRange) throws -> DecisionHistory {
    let all = try decisionHistory()
    guard !days.isAll else { return all }
    let keep = all.records.indices.filter { days.contains(all.records[$0].time) }
    var records = keep.map { all.records[$0] }
    if let first = keep.first, records[0].preferences == nil {
      records[0].preferences = all.records[...first].last { $0.preferences != nil }?.preferences
    }
    return DecisionHistory(records: records, followUps: keep.map { all.followUps[$0] })
  }
}

extension SweepOutcome: ConsolePresentable {
  package var text: String {
    SweepReport.lines(sweep, csvPath: csvPath, run: run, minimumESS: minimumESS)
      .map { $0 + "\n" }.joined()
  }
  package var json: String { SweepReport.json(sweep, csvPath: csvPath, run: run).text }

  /// The sweep in a line, for the demo's index.
  var outcome: String { DemoSummary.sweep(sweep, run: run, csv: csvPath) }
}
