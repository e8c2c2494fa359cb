/// The error ledger of `resonance tune`: what each run spent of its family's error rate.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
  /// One row per tune run that spent (`ErrorLedger`): the family is the preferences in force
  /// as canonical JSON; a family is tested through a month at most once, so a repeated run
  /// through the same month adds no row.
  static let tuningLedger = Migration(
    "0022-tuning-ledger",
    sql: """
      CREATE TABLE tuning_ledger (
        run_id INTEGER PRIMARY KEY REFERENCES tuning_runs (id) ON DELETE CASCADE,
        family TEXT NOT NULL,
        first_month TEXT NOT NULL CHECK (length(first_month) = 7),
        through_month TEXT NOT NULL CHECK (length(through_month) = 7),
        months INTEGER NOT NULL CHECK (months >= 1),
        alpha REAL NOT NULL CHECK (alpha > 0 AND alpha < 1),
        spent REAL NOT NULL CHECK (spent >= 0 AND spent <= alpha),
        UNIQUE (family, through_month)
      );
      """)
}
