/// The apps' recordings: traces, their contents, and breathing results.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
  static let traceRecordings = Migration(
    "0004-trace-recordings",
    sql: """
      CREATE TABLE trace_recordings (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL UNIQUE REFERENCES imports (id),
        format TEXT NOT NULL,
        format_version INTEGER NOT NULL,
        started_ms INTEGER,
        started_offset_s INTEGER,
        samples INTEGER NOT NULL DEFAULT 0
      );
      """)

  /// What the apps' own recordings hold, beyond BiometricSample and MacOSContext: mood inputs,
  /// the DJ's decisions, and breathing sessions with their samples.
  static let traceContents = Migration(
    "0006-trace-contents",
    sql: """
      CREATE TABLE mood_inputs (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        time_ms INTEGER NOT NULL,
        offset_s INTEGER NOT NULL,
        device TEXT NOT NULL,
        tap INTEGER CHECK (tap IN (-1, 0, 1)),
        valence REAL,
        energy REAL
      );
      CREATE TABLE dj_decisions (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        decision INTEGER NOT NULL,
        session INTEGER,
        time_ms INTEGER NOT NULL,
        offset_s INTEGER NOT NULL,
        need TEXT,
        context TEXT,
        chosen TEXT,
        line TEXT NOT NULL
      );
      CREATE INDEX dj_decisions_time ON dj_decisions (time_ms);
      CREATE TABLE breathing_sessions (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL UNIQUE REFERENCES imports (id),
        session INTEGER,
        pattern TEXT NOT NULL,
        started_ms INTEGER,
        started_offset_s INTEGER,
        duration_s REAL,
        schedule TEXT
      );
      CREATE TABLE breathing_samples (
        session_id INTEGER NOT NULL REFERENCES breathing_sessions (id),
        t REAL NOT NULL,
        channel TEXT NOT NULL,
        value REAL,
        label TEXT
      );
      CREATE INDEX breathing_samples_session ON breathing_samples (session_id, channel, t);
      """)

  /// What `resonance breathing` measured in each stored session, for the reports.
  static let breathingResults = Migration(
    "0007-breathing-results",
    sql: """
      CREATE TABLE breathing_results (
        session_id INTEGER PRIMARY KEY REFERENCES breathing_sessions (id),
        resonance_score REAL,
        events INTEGER NOT NULL,
        matched INTEGER NOT NULL,
        breaths INTEGER NOT NULL,
        breaths_per_minute REAL,
        rate_variability REAL,
        pacer_breaths_per_minute REAL,
        phase_locking REAL,
        lag_s REAL,
        in_sync_share REAL,
        coherence REAL,
        coherence_peak_hz REAL,
        rsa_amplitude REAL,
        hrv_before REAL,
        hrv_after REAL,
        dominant_expression TEXT,
        notes TEXT,
        analysed_at_ms INTEGER NOT NULL
      );
      """)
}
