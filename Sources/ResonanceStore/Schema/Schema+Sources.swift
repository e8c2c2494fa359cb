/// The files on disk imported whole.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
  /// One row per file on disk whose every import completed (a zip with all its members, a
  /// plain file with its one import), keyed by the digest of its bytes as they are on disk —
  /// the zip's own, never inflated — beside the imports it held: what lets `ingest` pass over
  /// an unchanged file after hashing it, without a reader running on it.
  static let importSources = Migration(
    "0021-import-sources",
    sql: """
      CREATE TABLE import_sources (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
        bytes INTEGER NOT NULL CHECK (bytes >= 0),
        file TEXT NOT NULL,
        recorded_at_ms INTEGER NOT NULL
      );
      CREATE TABLE import_source_members (
        source_id INTEGER NOT NULL REFERENCES import_sources (id),
        import_id INTEGER NOT NULL REFERENCES imports (id),
        PRIMARY KEY (source_id, import_id)
      );
      """)
}
