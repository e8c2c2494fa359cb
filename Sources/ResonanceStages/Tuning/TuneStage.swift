import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

/// `resonance tune`: the DJ's weights chosen on earlier months and judged on later ones, at the
/// share of the error rate the store's ledger allows, the recommendation stored (with the
/// run's line in the ledger) and written as a preference file with its evidence.
package struct TuneStage: Stage {
  package let request: TuneRequest

  package init(_ request: TuneRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when there is no store; `StageError.badData` when
  ///   the decision log does not replay (naming the first decision that differs) or cannot be
  ///   evaluated; `StoreError`; `StageError.io` when the file cannot be written.
  package func run(progress: any StageProgress) throws -> TuneOutcome {
    let store = try request.store.existing(for: "tune")
    let log = try store.replayedLog(
      in: request.days, replays: true, label: "tune", progress: progress)
    let ledger = request.usesLedger ? try store.errorLedger() : nil
    let reserved = request.usesLedger ? try store.experimentReservations() : []
    var report: TuningReport
    do {
      report = try Tuner.tune(
        log, settings: request.settings, ledger: ledger, reserved: reserved, progress: progress)
    } catch {
      throw StageError(.badData, "\(request.store.path): \(error.detail)")
    }
    if let mismatch = report.replay.firstMismatch {
      throw StageError(
        .badData,
        "\(request.store.path): the decision log does not replay: \(mismatch); offline "
          + "evaluation needs the engine that made the decisions, so nothing was written")
    }
    // The plays chosen by hand, ranked pairwise: a cross-check, never the evidence.
    let features = Dictionary(
      uniqueKeysWithValues: try store.songFeatures().map { ($0.songID, $0.features) })
    let plays = try store.rankingPlays().filter { request.days.contains($0.start) }
    report.pairwise = PairwiseCheck.fit(
      plays: plays, features: features, recommended: report.recommended.weights)
    try store.insertTuning(report, at: Clock.nowMilliseconds())
    try OutputFiles.write(
      try Self.file(report, command: request.command).encoded(as: request.encoding),
      to: request.preferencePath)
    return TuneOutcome(report: report, preferencePath: request.preferencePath)
  }

  /// The preference file of a report, with the command that made it.
  static func file(_ report: TuningReport, command: String) -> PreferenceFile {
    PreferenceFile(
      recommendation: report.recommendation, preferences: report.recommended,
      contexts: contexts(report),
      evidence: TuningEvidence(
        from: report.from ?? "", to: report.to ?? "", decisions: report.decisions,
        months: report.months.count, estimator: report.estimator, reward: report.reward,
        forwardGain: report.forwardGain, heldOut: report.heldOut?.gain,
        effectiveSampleSize: report.heldOut?.effectiveSampleSize,
        agreementShare: report.heldOut?.agreementShare, folds: report.folds.count,
        reason: report.reason, command: command))
  }

  /// The claimed contexts' preferences, keyed by context; nil when none was claimed.
  static func contexts(_ report: TuningReport) -> [String: UserPreferences]? {
    let claimed = report.contexts.filter(\.claimed)
    guard !claimed.isEmpty else { return nil }
    return Dictionary(
      uniqueKeysWithValues: claimed.compactMap { c in
        c.weights.map { (c.context.rawValue, report.inForce.with(weights: $0)) }
      })
  }
}

extension TuneOutcome: ConsolePresentable {
  package var text: String {
    TuningReportText.lines(report, outPath: preferencePath).map { $0 + "\n" }.joined()
  }
  package var json: String { TuningReportText.json(report, outPath: preferencePath).text }

  /// The decision in a line, for the demo's index.
  var outcome: String { DemoSummary.tune(report, file: preferencePath) }
}
