import ResonanceModel

/// Totals a reader keeps while it reads, for the ledger and the summary.
package struct HealthReadCounts: Sendable, Equatable {
  package var records = 0
  package var correlations = 0
  package var workouts = 0
  package var beats = 0
  package var activitySummaries = 0
  /// Metadata entries left out under the privacy rules (docs/privacy.md).
  package var metadataDropped = 0
  /// Parts of the export that are not imported, by element or file kind, with counts.
  package var notImported: [String: Int] = [:]

  package init() {}
}
