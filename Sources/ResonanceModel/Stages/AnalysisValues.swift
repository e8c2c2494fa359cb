/// What `resonance analyze` asks: the derived tables brought up to date, or a range's analysis
/// shown without storing it.
package struct AnalyzeRequest: Sendable, Equatable {
  package var store: StoreLocation
  package var scope: AnalysisScope
  /// Recompute every session, even those the last run left unchanged, and even when nothing
  /// was imported since.
  package var rebuild: Bool
  /// With a range: store its analysis in place of the whole history's.
  package var replace: Bool

  package init(
    store: StoreLocation, scope: AnalysisScope = AnalysisScope(), rebuild: Bool = false,
    replace: Bool = false
  ) {
    self.store = store
    self.scope = scope
    self.rebuild = rebuild
    self.replace = replace
  }

  /// Whether the run only shows a range's analysis (a range without `replace`).
  package var isPreview: Bool { scope.days != DayRange() && !replace }
}

/// What one `resonance analyze` did, or found already done.
package struct AnalyzeResult: Sendable, Equatable {
  /// What the run found; nil when the store was up to date and the run in force (by an older
  /// build) kept no summary.
  package var summary: HistorySummary?
  /// The scope of the analysis the figures describe.
  package var scope: AnalysisScope
  package var derived: DerivedSummary
  /// Nothing was imported since the last run with the same options: nothing was computed.
  package var isUpToDate: Bool
  /// False for a range shown without `--replace`, whose figures the derived tables do not
  /// hold.
  package var isStored: Bool
  /// When the analysis in force finished, UTC milliseconds.
  package var analysedAtMs: Int64
  package var lastImportID: Int64?
  package var seconds: Double

  package init(
    summary: HistorySummary?, scope: AnalysisScope, derived: DerivedSummary, isUpToDate: Bool,
    isStored: Bool, analysedAtMs: Int64, lastImportID: Int64?, seconds: Double
  ) {
    self.summary = summary
    self.scope = scope
    self.derived = derived
    self.isUpToDate = isUpToDate
    self.isStored = isStored
    self.analysedAtMs = analysedAtMs
    self.lastImportID = lastImportID
    self.seconds = seconds
  }
}
