/// The store's schema: every migration, in order. `docs/schema.md` documents each table.
///
/// Metadata is a JSON object per row (`{"HKTimeZone":"Europe/Paris"}`; a key that repeats holds
/// an array of its values), so a heart-rate sample with its motion context is one row, not two.
///
/// Conventions: instants are `*_ms` (UTC milliseconds since the epoch) with `*_offset_s` (the
/// source's UTC offset in seconds) beside them; text columns used in uniqueness keys are
/// `NOT NULL DEFAULT ''` because SQLite treats NULLs as distinct in unique indexes.
package enum Schema {
  /// Every migration this build knows, oldest first. Append; never edit one that has shipped.
  package static let migrations: [Migration] = [
    ingestLedger,
    healthRaw,
    seedEntities,
    traceRecordings,
    dailyTotals,
    traceContents,
    breathingResults,
    listening,
    analysis,
    effectEstimates,
    nightsAndStates,
    songResponses,
    songFeatures,
    analysisScope,
    incrementalAnalysis,
    analysisSummary,
    decisionCandidates,
    tuning,
    queryViews,
    musicBrainzRecordings,
    importSources,
    tuningLedger,
    contextEstimates,
    experiments,
  ]

  /// The schema version a fully migrated store has.
  package static var currentVersion: Int { migrations.count }

  static let ingestLedger = Migration(
    "0001-ingest-ledger",
    sql: """
      CREATE TABLE imports (
        id INTEGER PRIMARY KEY,
        file TEXT NOT NULL,
        bytes INTEGER NOT NULL CHECK (bytes >= 0),
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        importer TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('complete', 'partial')),
        records INTEGER NOT NULL DEFAULT 0,
        warnings INTEGER NOT NULL DEFAULT 0,
        started_at_ms INTEGER NOT NULL,
        finished_at_ms INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX imports_content ON imports (sha256, importer);
      """)
}
