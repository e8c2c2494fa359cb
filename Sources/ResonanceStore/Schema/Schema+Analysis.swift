/// What `analyze` derives: sessions, biometrics, effects, nights, states, features, and the runs.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
  /// What `resonance analyze` derives: heart rate and HRV around each play, and a record of
  /// each run with the last import it saw. Sessions go to `historical_sessions`.
  static let analysis = Migration(
    "0009-analysis",
    sql: """
      CREATE TABLE play_biometrics (
        play_id INTEGER PRIMARY KEY REFERENCES playback_events (id) ON DELETE CASCADE,
        hr_before REAL,
        hr_during REAL,
        hr_samples_before INTEGER NOT NULL,
        hr_samples_during INTEGER NOT NULL,
        hrv_before REAL,
        hrv_during REAL,
        hrv_samples_before INTEGER NOT NULL,
        hrv_samples_during INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE analysis_runs (
        id INTEGER PRIMARY KEY,
        started_at_ms INTEGER NOT NULL,
        finished_at_ms INTEGER NOT NULL,
        last_import_id INTEGER,
        plays INTEGER NOT NULL,
        sessions INTEGER NOT NULL
      );
      """)

  /// Beyond the seed: each song's heart-rate and HRV effect as a partially pooled estimate with
  /// a 90% interval, by `resonance analyze` (`SongResponseModel` since 0011).
  static let effectEstimates = Migration(
    "0010-effect-estimates",
    sql: """
      CREATE TABLE song_effect_estimates (
        song_id INTEGER NOT NULL REFERENCES songs (id),
        signal TEXT NOT NULL CHECK (signal IN ('hr', 'hrv')),
        plays INTEGER NOT NULL,
        raw_mean REAL NOT NULL,
        prior_mean REAL NOT NULL,
        estimate REAL NOT NULL,
        sd REAL NOT NULL,
        low90 REAL NOT NULL,
        high90 REAL NOT NULL,
        PRIMARY KEY (song_id, signal)
      ) WITHOUT ROWID;
      """)

  /// What `resonance analyze` derives beyond sessions: the nights from the sleep records, each
  /// session's next night and quality, and the state engine's 30-second timeline per session.
  ///
  /// Also indexes `playback_events.session_id`: without it, replacing the sessions made SQLite
  /// scan every play once per deleted session (the foreign key's `ON DELETE SET NULL`), 1.1 s of
  /// a 12-month rerun. The index is partial (assigned plays only), so imports, which write
  /// NULL, never touch it.
  ///
  /// `state_ticks` takes ~200k rows a year per rerun: its checks are `=`/`OR` chains, because
  /// `x IN ('a', 'b', 'c')` (three or more values) makes SQLite build a temporary index on every
  /// execution of the `INSERT`, which made the inserts three times slower (measured).
  static let nightsAndStates = Migration(
    "0011-nights-and-states",
    sql: """
      CREATE TABLE sleep_nights (
        id INTEGER PRIMARY KEY,
        evening TEXT NOT NULL UNIQUE,
        bedtime_ms INTEGER NOT NULL,
        bedtime_offset_s INTEGER NOT NULL,
        wake_ms INTEGER NOT NULL,
        wake_offset_s INTEGER NOT NULL,
        sleep_onset_ms INTEGER,
        sleep_onset_offset_s INTEGER,
        time_in_bed_ms INTEGER NOT NULL CHECK (time_in_bed_ms > 0),
        asleep_ms INTEGER CHECK (asleep_ms >= 0),
        efficiency REAL CHECK (efficiency BETWEEN 0 AND 1),
        deep_share REAL CHECK (deep_share BETWEEN 0 AND 1),
        rem_share REAL CHECK (rem_share BETWEEN 0 AND 1),
        awake_minutes REAL,
        primary_source TEXT NOT NULL
      );
      CREATE INDEX sleep_nights_bedtime ON sleep_nights (bedtime_ms);
      ALTER TABLE historical_sessions ADD COLUMN
        next_night_id INTEGER REFERENCES sleep_nights (id) ON DELETE SET NULL;
      ALTER TABLE historical_sessions ADD COLUMN quality_basis TEXT;
      CREATE INDEX historical_sessions_next_night ON historical_sessions (next_night_id);
      CREATE INDEX playback_events_session ON playback_events (session_id)
        WHERE session_id IS NOT NULL;
      CREATE TABLE state_ticks (
        session_id INTEGER NOT NULL REFERENCES historical_sessions (id) ON DELETE CASCADE,
        time_ms INTEGER NOT NULL,
        arousal REAL,
        stress REAL,
        energy REAL,
        focus REAL,
        valence REAL,
        need TEXT NOT NULL,
        resting_source TEXT NOT NULL
          CHECK (resting_source = 'record' OR resting_source = 'percentile'
            OR resting_source = 'none'),
        hrv_freshness TEXT NOT NULL
          CHECK (hrv_freshness = 'fresh' OR hrv_freshness = 'carried'
            OR hrv_freshness = 'missing'),
        mood_weight REAL NOT NULL,
        PRIMARY KEY (session_id, time_ms)
      ) WITHOUT ROWID;
      """)

  /// The song-response model's estimates are relative to the exposure-weighted mean song: each
  /// row keeps its weight (summed exposure, about minutes at full effect).
  static let songResponses = Migration(
    "0012-song-responses",
    sql: """
      DELETE FROM song_effect_estimates;
      ALTER TABLE song_effect_estimates ADD COLUMN minutes REAL NOT NULL DEFAULT 0;
      """)

  /// Each song's estimated tempo, energy and valence with SD and source, and its familiarity,
  /// by `resonance analyze` (`SongFeatureEstimator`). Kept apart from `songs`, whose `bpm` and
  /// `bpm_source` stay exactly as the library files gave them, so a re-run never reads its own
  /// estimate back as library data.
  static let songFeatures = Migration(
    "0013-song-features",
    sql: """
      CREATE TABLE song_features (
        song_id INTEGER PRIMARY KEY REFERENCES songs (id) ON DELETE CASCADE,
        bpm REAL NOT NULL,
        bpm_sd REAL NOT NULL CHECK (bpm_sd >= 0),
        bpm_source TEXT NOT NULL
          CHECK (bpm_source IN ('library', 'genre-ridge', 'genre-prior', 'fallback')),
        energy REAL NOT NULL,
        energy_sd REAL NOT NULL CHECK (energy_sd >= 0),
        energy_source TEXT NOT NULL
          CHECK (energy_source IN ('library', 'genre-ridge', 'genre-prior', 'fallback')),
        valence REAL NOT NULL,
        valence_sd REAL NOT NULL CHECK (valence_sd >= 0),
        valence_source TEXT NOT NULL
          CHECK (valence_source IN ('library', 'genre-ridge', 'genre-prior', 'fallback')),
        familiarity REAL NOT NULL CHECK (familiarity BETWEEN 0 AND 1)
      ) WITHOUT ROWID;
      """)

  /// What each analysis covered, so a run can tell that nothing changed since the last one.
  static let analysisScope = Migration(
    "0014-analysis-scope",
    sql: """
      ALTER TABLE analysis_runs ADD COLUMN gap_minutes INTEGER;
      ALTER TABLE analysis_runs ADD COLUMN from_ms INTEGER;
      ALTER TABLE analysis_runs ADD COLUMN to_ms INTEGER;
      """)

  /// What lets a run keep the sessions whose inputs did not change: each session's digest of
  /// its plays and the run that computed it, and each run's high-water marks of the raw tables
  /// a session reads (their largest row id), so the next run finds the rows added since.
  static let incrementalAnalysis = Migration(
    "0015-incremental-analysis",
    sql: """
      ALTER TABLE historical_sessions ADD COLUMN inputs_digest TEXT;
      ALTER TABLE historical_sessions ADD COLUMN analysis_run_id INTEGER
        REFERENCES analysis_runs (id);
      ALTER TABLE analysis_runs ADD COLUMN raw_marks TEXT;
      ALTER TABLE analysis_runs ADD COLUMN sessions_kept INTEGER;
      """)

  /// What each analysis found (`HistorySummary` as JSON, without the per-song estimates,
  /// which have a table of their own), so that a run with nothing new to do can still say
  /// what the tables in force hold.
  static let analysisSummary = Migration(
    "0016-analysis-summary",
    sql: """
      ALTER TABLE analysis_runs ADD COLUMN summary TEXT;
      """)

  /// Each song's effect per context from the same song-response model, shrunk toward the
  /// song's overall effect (`SongResponseModel.contextEffects`). Cleared with the songs' own
  /// estimates on every analyze. An analysis made before has none, so it no longer counts as
  /// current: its `last_import_id` is set to −1, which names no import, and the next
  /// `resonance analyze` runs (keeping the sessions whose inputs did not change).
  static let contextEstimates = Migration(
    "0023-song-context-estimates",
    sql: """
      UPDATE analysis_runs SET last_import_id = -1;
      CREATE TABLE song_context_effect_estimates (
        song_id INTEGER NOT NULL REFERENCES songs (id) ON DELETE CASCADE,
        signal TEXT NOT NULL CHECK (signal = 'hr' OR signal = 'hrv'),
        context TEXT NOT NULL,
        plays INTEGER NOT NULL,
        minutes REAL NOT NULL,
        raw_mean REAL NOT NULL,
        overall REAL NOT NULL,
        estimate REAL NOT NULL,
        sd REAL NOT NULL,
        low90 REAL NOT NULL,
        high90 REAL NOT NULL,
        PRIMARY KEY (song_id, signal, context)
      ) WITHOUT ROWID;
      """)
}
