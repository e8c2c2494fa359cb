import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance analyze`: the history stage over what the store holds — sessions, heart rate and
/// HRV around every play, song effects, features, nights, quality and states — brought up to
/// date in one transaction.
package struct AnalyzeStage: Stage {
  package let request: AnalyzeRequest

  package init(_ request: AnalyzeRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when there is no store; `StoreError`.
  package func run(progress: any StageProgress) throws -> AnalyzeResult {
    let started = Date()
    let startedAt = Clock.nowMilliseconds()
    let store = try request.store.existing(for: "analyze")
    let scope = request.scope
    if request.isPreview {
      let inputs = try progress.step("analyze: reading the store", total: nil, unit: .items("")) {
        try store.analysisInputs()
      }
      let (results, summary) = HistoryStage.run(
        inputs, scope: scope, stored: nil, digest: Self.digest, progress: progress)
      return AnalyzeResult(
        summary: summary, scope: scope, derived: results.derivedSummary, isUpToDate: false,
        isStored: false, analysedAtMs: Clock.nowMilliseconds(),
        lastImportID: try store.lastImportID(), seconds: Date().timeIntervalSince(started))
    }
    if !request.rebuild, let last = try store.isAnalysisCurrent(for: scope) {
      return AnalyzeResult(
        summary: last.summary, scope: last.scope, derived: try store.derivedSummary(),
        isUpToDate: true, isStored: true, analysedAtMs: last.finishedAtMs,
        lastImportID: last.lastImportID, seconds: Date().timeIntervalSince(started))
    }
    let summary = try Self.analyze(
      store, scope: scope, startedAt: startedAt, rebuild: request.rebuild, progress: progress)
    return AnalyzeResult(
      summary: summary, scope: scope, derived: try store.derivedSummary(), isUpToDate: false,
      isStored: true,
      analysedAtMs: try store.lastAnalysis()?.finishedAtMs ?? Clock.nowMilliseconds(),
      lastImportID: try store.lastImportID(), seconds: Date().timeIntervalSince(started))
  }

  /// Loads what the analysis reads, runs the history stage, and brings the derived tables up
  /// to date: the sessions whose inputs did not change since the last run keep their rows
  /// (unless `rebuild`), every other derived row is replaced.
  static func analyze(
    _ store: Store, scope: AnalysisScope, startedAt: Int64, rebuild: Bool,
    progress: any StageProgress
  ) throws -> HistorySummary {
    let (inputs, stored) = try progress.step(
      "analyze: reading the store", total: nil, unit: .items("")
    ) {
      (try store.analysisInputs(), rebuild ? nil : try store.storedSessions(for: scope))
    }
    let (results, summary) = HistoryStage.run(
      inputs, scope: scope, stored: stored, digest: digest, progress: progress)
    try progress.step("analyze: writing the derived tables", total: nil, unit: .items("")) {
      try store.replaceAnalysis(
        results, summary: summary, startedAt: startedAt, finishedAt: Clock.nowMilliseconds())
    }
    return summary
  }

  /// SHA-256 in hex: what names a session's inputs.
  static func digest(_ text: String) -> String {
    let hash = SHA256()
    hash.update(Array(text.utf8))
    return hash.finalize()
  }
}

extension AnalyzeResult: ConsolePresentable {
  package var text: String {
    if isUpToDate {
      return
        "analyze: up to date: nothing imported since the last analysis, with the same options "
        + "(--rebuild recomputes anyway)\n"
    }
    guard let summary else { return "" }
    var text = AnalyzeSummary.lines(summary, derived: derived, seconds: seconds)
      .map { $0 + "\n" }.joined()
    if !isStored {
      text +=
        "analyze: the range's analysis, not stored: the derived tables keep the last run's "
        + "(--replace stores this one instead)\n"
    }
    return text
  }

  package var json: String {
    AnalyzeSummary.json(
      summary, scope: scope, derived: derived, upToDate: isUpToDate, analysedAt: analysedAtMs,
      lastImportID: lastImportID, seconds: seconds, stored: isStored
    ).text
  }

  /// The run in one sentence, for the demo's index.
  var outcome: String { summary.map(AnalyzeSummary.outcome) ?? "up to date" }
}
