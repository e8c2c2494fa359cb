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

  static let healthRaw = Migration(
    "0002-health-raw",
    sql: """
      CREATE TABLE health_types (
        id INTEGER PRIMARY KEY,
        identifier TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('quantity', 'category', 'correlation', 'other'))
      );
      CREATE TABLE health_sources (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE
      );
      CREATE TABLE health_devices (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        manufacturer TEXT NOT NULL DEFAULT '',
        model TEXT NOT NULL DEFAULT '',
        hardware TEXT NOT NULL DEFAULT '',
        software TEXT NOT NULL DEFAULT '',
        UNIQUE (name, manufacturer, model, hardware, software)
      );
      CREATE TABLE health_correlations (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        type_id INTEGER NOT NULL REFERENCES health_types (id),
        source_id INTEGER NOT NULL REFERENCES health_sources (id),
        source_version TEXT,
        device_id INTEGER REFERENCES health_devices (id),
        creation_ms INTEGER,
        creation_offset_s INTEGER,
        start_ms INTEGER NOT NULL,
        start_offset_s INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        end_offset_s INTEGER NOT NULL,
        metadata TEXT,
        UNIQUE (type_id, source_id, start_ms, end_ms)
      );
      CREATE TABLE health_records (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        type_id INTEGER NOT NULL REFERENCES health_types (id),
        source_id INTEGER NOT NULL REFERENCES health_sources (id),
        source_version TEXT,
        device_id INTEGER REFERENCES health_devices (id),
        unit TEXT NOT NULL DEFAULT '',
        value_text TEXT NOT NULL DEFAULT '',
        value REAL,
        value_normalized REAL,
        unit_normalized TEXT,
        creation_ms INTEGER,
        creation_offset_s INTEGER,
        start_ms INTEGER NOT NULL,
        start_offset_s INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        end_offset_s INTEGER NOT NULL,
        correlation_id INTEGER REFERENCES health_correlations (id),
        metadata TEXT
      );
      CREATE UNIQUE INDEX health_records_identity
        ON health_records (type_id, source_id, start_ms, end_ms, value_text, unit);
      CREATE TABLE health_beats (
        record_id INTEGER NOT NULL REFERENCES health_records (id),
        beat_index INTEGER NOT NULL,
        time_ms INTEGER NOT NULL,
        bpm REAL NOT NULL,
        PRIMARY KEY (record_id, beat_index)
      ) WITHOUT ROWID;
      CREATE TABLE workouts (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        activity_type TEXT NOT NULL,
        source_id INTEGER NOT NULL REFERENCES health_sources (id),
        source_version TEXT,
        device_id INTEGER REFERENCES health_devices (id),
        duration REAL,
        duration_unit TEXT,
        total_distance REAL,
        total_distance_unit TEXT,
        total_energy_burned REAL,
        total_energy_burned_unit TEXT,
        time_zone TEXT,
        creation_ms INTEGER,
        creation_offset_s INTEGER,
        start_ms INTEGER NOT NULL,
        start_offset_s INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        end_offset_s INTEGER NOT NULL,
        metadata TEXT,
        UNIQUE (activity_type, source_id, start_ms, end_ms)
      );
      CREATE TABLE workout_statistics (
        workout_id INTEGER NOT NULL REFERENCES workouts (id),
        type TEXT NOT NULL,
        start_ms INTEGER,
        start_offset_s INTEGER,
        end_ms INTEGER,
        end_offset_s INTEGER,
        average REAL,
        minimum REAL,
        maximum REAL,
        sum REAL,
        unit TEXT,
        PRIMARY KEY (workout_id, type)
      ) WITHOUT ROWID;
      CREATE TABLE workout_events (
        id INTEGER PRIMARY KEY,
        workout_id INTEGER NOT NULL REFERENCES workouts (id),
        type TEXT NOT NULL,
        date_ms INTEGER NOT NULL,
        date_offset_s INTEGER NOT NULL,
        duration REAL,
        duration_unit TEXT
      );
      CREATE INDEX workout_events_workout ON workout_events (workout_id);
      CREATE TABLE workout_routes (
        id INTEGER PRIMARY KEY,
        workout_id INTEGER NOT NULL REFERENCES workouts (id),
        source_name TEXT NOT NULL,
        start_ms INTEGER,
        start_offset_s INTEGER,
        end_ms INTEGER,
        end_offset_s INTEGER,
        file_path TEXT,
        inline_locations INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX workout_routes_workout ON workout_routes (workout_id);
      CREATE TABLE activity_summaries (
        date TEXT PRIMARY KEY NOT NULL,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        active_energy_burned REAL,
        active_energy_burned_goal REAL,
        active_energy_burned_unit TEXT,
        apple_move_time REAL,
        apple_move_time_goal REAL,
        apple_exercise_time REAL,
        apple_exercise_time_goal REAL,
        apple_stand_hours REAL,
        apple_stand_hours_goal REAL,
        other TEXT
      ) WITHOUT ROWID;
      CREATE TABLE person (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        birth_year INTEGER,
        import_id INTEGER REFERENCES imports (id)
      );
      """)

  static let seedEntities = Migration(
    "0003-seed-entities",
    sql: """
      CREATE TABLE songs (
        id INTEGER PRIMARY KEY,
        identity_key TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        artist TEXT,
        album TEXT,
        genre TEXT,
        duration_ms INTEGER,
        apple_catalog_id TEXT,
        spotify_uri TEXT,
        library_persistent_id TEXT,
        bpm REAL,
        bpm_source TEXT,
        energy REAL,
        valence REAL,
        calm_score REAL,
        focus_score REAL,
        activation_score REAL,
        familiarity REAL,
        play_count INTEGER NOT NULL DEFAULT 0,
        skip_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE playlists (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        library_persistent_id TEXT UNIQUE,
        avg_calm_effect REAL,
        avg_focus_effect REAL,
        avg_energy_effect REAL,
        context_associations TEXT
      );
      CREATE TABLE playlist_songs (
        playlist_id INTEGER NOT NULL REFERENCES playlists (id),
        position INTEGER NOT NULL,
        song_id INTEGER NOT NULL REFERENCES songs (id),
        PRIMARY KEY (playlist_id, position)
      ) WITHOUT ROWID;
      CREATE TABLE historical_sessions (
        id INTEGER PRIMARY KEY,
        start_ms INTEGER NOT NULL,
        start_offset_s INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        end_offset_s INTEGER NOT NULL,
        context TEXT NOT NULL,
        play_count INTEGER NOT NULL,
        skip_rate REAL,
        engagement REAL,
        mean_hr REAL,
        mean_hrv REAL,
        hr_delta REAL,
        hrv_delta REAL,
        sleep_correlation_score REAL,
        quality_score REAL
      );
      CREATE TABLE playback_events (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        song_id INTEGER NOT NULL REFERENCES songs (id),
        session_id INTEGER REFERENCES historical_sessions (id) ON DELETE SET NULL,
        source TEXT NOT NULL,
        start_ms INTEGER NOT NULL,
        start_offset_s INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        end_offset_s INTEGER NOT NULL,
        played_ms INTEGER NOT NULL CHECK (played_ms >= 0),
        media_duration_ms INTEGER,
        listen_fraction REAL,
        was_skipped INTEGER NOT NULL CHECK (was_skipped IN (0, 1)),
        end_reason TEXT,
        hr_start REAL,
        hr_end REAL,
        hrv_start REAL,
        hrv_end REAL,
        hr_delta REAL,
        hrv_delta REAL
      );
      CREATE INDEX playback_events_start ON playback_events (start_ms);
      CREATE INDEX playback_events_song ON playback_events (song_id);
      CREATE TABLE song_effects (
        song_id INTEGER NOT NULL REFERENCES songs (id),
        context TEXT NOT NULL,
        calm_score REAL,
        energy_score REAL,
        focus_score REAL,
        mood_score REAL,
        sample_count INTEGER NOT NULL DEFAULT 0,
        updated_at_ms INTEGER,
        PRIMARY KEY (song_id, context)
      ) WITHOUT ROWID;
      CREATE TABLE biometric_samples (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        time_ms INTEGER NOT NULL,
        offset_s INTEGER NOT NULL,
        hr REAL,
        hrv REAL,
        is_stationary INTEGER CHECK (is_stationary IN (0, 1)),
        is_workout INTEGER CHECK (is_workout IN (0, 1))
      );
      CREATE INDEX biometric_samples_time ON biometric_samples (time_ms);
      CREATE TABLE macos_contexts (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        time_ms INTEGER NOT NULL,
        offset_s INTEGER NOT NULL,
        focus_mode TEXT,
        active_app_category TEXT,
        in_meeting INTEGER CHECK (in_meeting IN (0, 1))
      );
      CREATE INDEX macos_contexts_time ON macos_contexts (time_ms);
      """)

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

  /// Daily totals of the cumulative Health types, one documented rule for overlapping
  /// sources: a record from a source without a Watch device counts only where no Watch
  /// record of the same type overlaps it in time (the Watch is preferred, as the Health app
  /// does); every other record counts. Days are local: each record's start in its own offset.
  static let dailyTotals = Migration(
    "0005-health-daily-totals",
    sql: """
      CREATE VIEW health_watch_sources AS
        SELECT DISTINCT r.source_id FROM health_records r
        JOIN health_devices d ON d.id = r.device_id WHERE d.model = 'Watch';
      CREATE VIEW health_daily_totals AS
        SELECT date((r.start_ms / 1000) + r.start_offset_s, 'unixepoch') AS date,
               t.identifier AS type,
               SUM(r.value_normalized) AS total,
               r.unit_normalized AS unit,
               COUNT(*) AS records
        FROM health_records r
        JOIN health_types t ON t.id = r.type_id
        WHERE t.identifier IN ('HKQuantityTypeIdentifierStepCount',
                               'HKQuantityTypeIdentifierDistanceWalkingRunning',
                               'HKQuantityTypeIdentifierActiveEnergyBurned',
                               'HKQuantityTypeIdentifierBasalEnergyBurned',
                               'HKQuantityTypeIdentifierFlightsClimbed')
          AND (r.source_id IN (SELECT source_id FROM health_watch_sources)
               OR NOT EXISTS (
                 SELECT 1 FROM health_records w
                 WHERE w.type_id = r.type_id
                   AND w.source_id IN (SELECT source_id FROM health_watch_sources)
                   AND w.start_ms < r.end_ms AND w.end_ms > r.start_ms
                   AND w.start_ms > r.start_ms - 86400000))
        GROUP BY 1, 2, 4;
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

  /// Plays as the listening histories report them, merged across sources, and what song
  /// identity needs. No earlier version wrote `playback_events`, so it is recreated in its
  /// final shape: `played_ms` may be unknown (Last.fm), `sources` lists every source that
  /// reported the listen, `offset_source` says where the UTC offset came from. Per-play heart
  /// rate and HRV are derived by the analysis stage, not stored with the raw play.
  static let listening = Migration(
    "0008-listening",
    sql: """
      DROP TABLE playback_events;
      CREATE TABLE playback_events (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id),
        song_id INTEGER NOT NULL REFERENCES songs (id),
        session_id INTEGER REFERENCES historical_sessions (id) ON DELETE SET NULL,
        source TEXT NOT NULL,
        sources TEXT NOT NULL,
        start_ms INTEGER NOT NULL,
        start_offset_s INTEGER NOT NULL,
        offset_source TEXT NOT NULL CHECK (offset_source IN ('source', 'health', 'user', 'utc')),
        end_ms INTEGER NOT NULL,
        end_offset_s INTEGER NOT NULL,
        played_ms INTEGER CHECK (played_ms IS NULL OR played_ms >= 0),
        media_duration_ms INTEGER,
        listen_fraction REAL,
        was_skipped INTEGER NOT NULL CHECK (was_skipped IN (0, 1)),
        completed INTEGER CHECK (completed IN (0, 1)),
        end_reason TEXT,
        start_reason TEXT,
        shuffle INTEGER CHECK (shuffle IN (0, 1)),
        decision INTEGER
      );
      CREATE INDEX playback_events_start ON playback_events (start_ms);
      CREATE INDEX playback_events_song ON playback_events (song_id, start_ms);
      ALTER TABLE songs ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
      ALTER TABLE songs ADD COLUMN album_key TEXT NOT NULL DEFAULT '';
      ALTER TABLE songs ADD COLUMN first_import_id INTEGER REFERENCES imports (id);
      CREATE INDEX songs_catalog ON songs (apple_catalog_id);
      CREATE INDEX songs_spotify ON songs (spotify_uri);
      CREATE INDEX songs_library ON songs (library_persistent_id);
      """)

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

  /// The decision log as columns instead of whole JSON lines: each decision's moment, heart
  /// rate, adjuster state, outcome and (where the log states them) the preferences in force,
  /// and one row per candidate with its inputs, components, scores and propensity, so that
  /// replay and offline evaluation read numbers, not text. Lines stored by earlier versions
  /// are taken apart here (SQLite's JSON functions), then the line column goes: half the
  /// store's size was decision text.
  static let decisionCandidates = Migration(
    "0017-decision-candidates",
    sql: """
      ALTER TABLE dj_decisions ADD COLUMN log_version INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE dj_decisions ADD COLUMN preferences TEXT;
      ALTER TABLE dj_decisions ADD COLUMN local_hour REAL;
      ALTER TABLE dj_decisions ADD COLUMN stress REAL;
      ALTER TABLE dj_decisions ADD COLUMN max_play_count INTEGER;
      ALTER TABLE dj_decisions ADD COLUMN previous_bpm REAL;
      ALTER TABLE dj_decisions ADD COLUMN previous_energy REAL;
      ALTER TABLE dj_decisions ADD COLUMN previous_valence REAL;
      ALTER TABLE dj_decisions ADD COLUMN recent_artists TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE dj_decisions ADD COLUMN heart_rate REAL;
      ALTER TABLE dj_decisions ADD COLUMN baseline_heart_rate REAL;
      ALTER TABLE dj_decisions ADD COLUMN bpm_ceiling REAL;
      ALTER TABLE dj_decisions ADD COLUMN consecutive_skips INTEGER;
      ALTER TABLE dj_decisions ADD COLUMN familiarity_boost REAL;
      ALTER TABLE dj_decisions ADD COLUMN listened_ms INTEGER;
      ALTER TABLE dj_decisions ADD COLUMN duration_ms INTEGER;
      ALTER TABLE dj_decisions ADD COLUMN skipped INTEGER CHECK (skipped IN (0, 1));
      ALTER TABLE dj_decisions ADD COLUMN completed INTEGER CHECK (completed IN (0, 1));
      CREATE TABLE dj_candidates (
        decision_id INTEGER NOT NULL REFERENCES dj_decisions (id),
        position INTEGER NOT NULL,
        song TEXT NOT NULL,
        rejected TEXT,
        artist TEXT,
        bpm REAL,
        energy REAL,
        valence REAL,
        plays INTEGER,
        learned REAL,
        last_played_ms INTEGER,
        c_bpm REAL,
        c_energy REAL,
        c_familiarity REAL,
        c_historical REAL,
        c_context REAL,
        c_recency REAL,
        c_time_of_day REAL,
        base REAL,
        score REAL,
        p REAL,
        PRIMARY KEY (decision_id, position)
      ) WITHOUT ROWID;
      UPDATE dj_decisions SET
        local_hour = json_extract(line, '$.local_hour'),
        stress = json_extract(line, '$.stress'),
        max_play_count = json_extract(line, '$.max_play_count'),
        previous_bpm = json_extract(line, '$.previous.bpm'),
        previous_energy = json_extract(line, '$.previous.energy'),
        previous_valence = json_extract(line, '$.previous.valence'),
        recent_artists = COALESCE(json_extract(line, '$.recent_artists'), '[]'),
        listened_ms = json_extract(line, '$.outcome.listened_ms'),
        duration_ms = json_extract(line, '$.outcome.duration_ms'),
        skipped = json_extract(line, '$.outcome.skipped'),
        completed = json_extract(line, '$.outcome.completed');
      INSERT INTO dj_candidates
      SELECT d.id, j.key, COALESCE(json_extract(j.value, '$.song'), ''), NULL,
        json_extract(j.value, '$.artist'), json_extract(j.value, '$.bpm'),
        json_extract(j.value, '$.energy'), json_extract(j.value, '$.valence'),
        json_extract(j.value, '$.plays'), json_extract(j.value, '$.learned'),
        CAST(round((julianday(json_extract(j.value, '$.last_played')) - 2440587.5) * 86400000.0)
          AS INTEGER),
        json_extract(j.value, '$.c[0]'), json_extract(j.value, '$.c[1]'),
        json_extract(j.value, '$.c[2]'), json_extract(j.value, '$.c[3]'),
        json_extract(j.value, '$.c[4]'), json_extract(j.value, '$.c[5]'),
        json_extract(j.value, '$.c[6]'),
        json_extract(j.value, '$.base'), json_extract(j.value, '$.score'),
        json_extract(j.value, '$.p')
      FROM dj_decisions d, json_each(d.line, '$.candidates') j;
      INSERT INTO dj_candidates (decision_id, position, song, rejected)
      SELECT d.id, json_array_length(d.line, '$.candidates') + j.key,
        COALESCE(json_extract(j.value, '$.song'), ''),
        COALESCE(json_extract(j.value, '$.reason'), '')
      FROM dj_decisions d, json_each(d.line, '$.rejected') j;
      ALTER TABLE dj_decisions DROP COLUMN line;
      """)

  /// What `resonance sweep` estimated for every point of a design, and what `resonance tune`
  /// found and decided, so that reports read them from the store.
  static let tuning = Migration(
    "0018-tuning",
    sql: """
      CREATE TABLE sweep_runs (
        id INTEGER PRIMARY KEY,
        ran_at_ms INTEGER NOT NULL,
        design TEXT NOT NULL,
        reward TEXT NOT NULL,
        estimator TEXT NOT NULL,
        decisions INTEGER NOT NULL,
        from_day TEXT,
        to_day TEXT,
        kernel_seconds REAL NOT NULL,
        product TEXT NOT NULL
      );
      CREATE TABLE sweep_points (
        run_id INTEGER NOT NULL REFERENCES sweep_runs (id) ON DELETE CASCADE,
        point INTEGER NOT NULL,
        label TEXT,
        bpm_weight REAL NOT NULL,
        energy_weight REAL NOT NULL,
        familiarity_weight REAL NOT NULL,
        historical_weight REAL NOT NULL,
        context_weight REAL NOT NULL,
        recency_penalty_weight REAL NOT NULL,
        time_of_day_penalty_weight REAL NOT NULL,
        value REAL,
        value_low90 REAL,
        value_high90 REAL,
        keep_rate REAL,
        response REAL,
        effective_sample_size REAL NOT NULL,
        largest_weight REAL NOT NULL,
        agreement_share REAL NOT NULL,
        pareto INTEGER NOT NULL CHECK (pareto IN (0, 1)),
        PRIMARY KEY (run_id, point)
      ) WITHOUT ROWID;
      CREATE TABLE tuning_runs (
        id INTEGER PRIMARY KEY,
        ran_at_ms INTEGER NOT NULL,
        recommendation TEXT NOT NULL CHECK (recommendation IN ('change', 'keep')),
        reason TEXT NOT NULL,
        report TEXT NOT NULL
      );
      """)

  /// Views for the questions people bring to the store (`docs/schema.md`, "Views"): times as
  /// ISO 8601 in UTC and in the local time they were lived in, local dates and hours, units in
  /// the column names. `resonance report` writes their descriptions for Datasette.
  static let queryViews = Migration(
    "0019-query-views",
    sql: """
      CREATE VIEW v_plays AS
      SELECT p.id AS play_id, p.song_id, s.title, s.artist, s.genre, p.source,
        strftime('%Y-%m-%dT%H:%M:%SZ', p.start_ms / 1000, 'unixepoch') AS start_utc,
        strftime('%Y-%m-%dT%H:%M:%S', p.start_ms / 1000 + p.start_offset_s, 'unixepoch')
          || CASE WHEN p.start_offset_s < 0 THEN '-' ELSE '+' END
          || printf('%02d:%02d', abs(p.start_offset_s) / 3600, abs(p.start_offset_s) % 3600 / 60) AS start_local,
        date(p.start_ms / 1000 + p.start_offset_s, 'unixepoch') AS local_date,
        CAST(strftime('%H', p.start_ms / 1000 + p.start_offset_s, 'unixepoch') AS INTEGER) AS local_hour,
        p.played_ms / 1000.0 AS played_s, p.listen_fraction, p.was_skipped AS skipped,
        p.decision IS NOT NULL AS by_dj, p.session_id, h.context,
        b.hr_before AS hr_before_bpm, b.hr_during AS hr_during_bpm,
        b.hr_during - b.hr_before AS hr_delta_bpm,
        b.hrv_before AS sdnn_before_ms, b.hrv_during AS sdnn_during_ms,
        b.hrv_during - b.hrv_before AS sdnn_delta_ms
      FROM playback_events p
      JOIN songs s ON s.id = p.song_id
      LEFT JOIN historical_sessions h ON h.id = p.session_id
      LEFT JOIN play_biometrics b ON b.play_id = p.id;
      CREATE VIEW v_sessions AS
      SELECT id AS session_id,
        strftime('%Y-%m-%dT%H:%M:%SZ', start_ms / 1000, 'unixepoch') AS start_utc,
        strftime('%Y-%m-%dT%H:%M:%S', start_ms / 1000 + start_offset_s, 'unixepoch')
          || CASE WHEN start_offset_s < 0 THEN '-' ELSE '+' END
          || printf('%02d:%02d', abs(start_offset_s) / 3600, abs(start_offset_s) % 3600 / 60) AS start_local,
        date(start_ms / 1000 + start_offset_s, 'unixepoch') AS local_date,
        CAST(strftime('%H', start_ms / 1000 + start_offset_s, 'unixepoch') AS INTEGER) AS local_hour,
        strftime('%Y-%m-%dT%H:%M:%S', end_ms / 1000 + end_offset_s, 'unixepoch')
          || CASE WHEN end_offset_s < 0 THEN '-' ELSE '+' END
          || printf('%02d:%02d', abs(end_offset_s) / 3600, abs(end_offset_s) % 3600 / 60) AS end_local,
        (end_ms - start_ms) / 60000.0 AS length_min, context, play_count AS plays, skip_rate,
        engagement, mean_hr AS mean_hr_bpm, mean_hrv AS mean_sdnn_ms, hr_delta AS hr_delta_bpm,
        hrv_delta AS sdnn_delta_ms, next_night_id, sleep_correlation_score AS next_night_sleep_score,
        quality_score AS quality, quality_basis
      FROM historical_sessions;
      CREATE VIEW v_song_effects AS
      SELECT s.id AS song_id, s.title, s.artist, s.genre,
        (SELECT COUNT(*) FROM playback_events p WHERE p.song_id = s.id) AS plays,
        hr.estimate AS hr_effect_bpm, hr.low90 AS hr_low90_bpm, hr.high90 AS hr_high90_bpm,
        v.estimate AS sdnn_effect_ms, v.low90 AS sdnn_low90_ms, v.high90 AS sdnn_high90_ms,
        f.bpm, f.bpm_source, f.energy, f.valence
      FROM songs s
      LEFT JOIN song_effect_estimates hr ON hr.song_id = s.id AND hr.signal = 'hr'
      LEFT JOIN song_effect_estimates v ON v.song_id = s.id AND v.signal = 'hrv'
      LEFT JOIN song_features f ON f.song_id = s.id;
      CREATE VIEW v_song_context_effects AS
      SELECT e.song_id, s.title, s.artist, e.context, e.calm_score, e.energy_score,
        e.focus_score, e.mood_score, e.sample_count AS plays_in_context
      FROM song_effects e JOIN songs s ON s.id = e.song_id;
      CREATE VIEW v_nights AS
      SELECT id AS night_id, evening,
        strftime('%Y-%m-%dT%H:%M:%S', bedtime_ms / 1000 + bedtime_offset_s, 'unixepoch')
          || CASE WHEN bedtime_offset_s < 0 THEN '-' ELSE '+' END
          || printf('%02d:%02d', abs(bedtime_offset_s) / 3600, abs(bedtime_offset_s) % 3600 / 60) AS bedtime_local,
        strftime('%Y-%m-%dT%H:%M:%S', wake_ms / 1000 + wake_offset_s, 'unixepoch')
          || CASE WHEN wake_offset_s < 0 THEN '-' ELSE '+' END
          || printf('%02d:%02d', abs(wake_offset_s) / 3600, abs(wake_offset_s) % 3600 / 60) AS wake_local,
        time_in_bed_ms / 3600000.0 AS in_bed_h, asleep_ms / 3600000.0 AS asleep_h, efficiency,
        deep_share, rem_share, awake_minutes AS awake_min, primary_source AS source
      FROM sleep_nights;
      CREATE VIEW v_breathing AS
      SELECT b.id AS breathing_id, b.session, b.pattern,
        strftime('%Y-%m-%dT%H:%M:%S', b.started_ms / 1000 + b.started_offset_s, 'unixepoch')
          || CASE WHEN b.started_offset_s < 0 THEN '-' ELSE '+' END
          || printf('%02d:%02d', abs(b.started_offset_s) / 3600, abs(b.started_offset_s) % 3600 / 60) AS started_local,
        date(b.started_ms / 1000 + b.started_offset_s, 'unixepoch') AS local_date,
        b.duration_s / 60.0 AS duration_min, r.resonance_score,
        r.breaths_per_minute AS breaths_per_min, r.pacer_breaths_per_minute AS pacer_breaths_per_min,
        r.phase_locking, r.coherence, r.hrv_before AS sdnn_before_ms, r.hrv_after AS sdnn_after_ms
      FROM breathing_sessions b LEFT JOIN breathing_results r ON r.session_id = b.id;
      """)
}
