/// The decision log's candidates and what `sweep` and `tune` store.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
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

  /// Experiments the DJ carries out. Version 3 of the decision log names each decision's arm
  /// on the plan's days and the log's header the plan's seed, which `experiment analyze`
  /// checks against the plan and reads for what ran; each analysis is kept, as JSON like a
  /// tuning report, for the report's experiment page.
  static let experiments = Migration(
    "0024-experiments",
    sql: """
      ALTER TABLE dj_decisions ADD COLUMN arm TEXT;
      ALTER TABLE dj_decisions ADD COLUMN experiment_seed INTEGER;
      CREATE TABLE experiment_runs (
        id INTEGER PRIMARY KEY,
        ran_at_ms INTEGER NOT NULL,
        plan_seed INTEGER NOT NULL,
        as_of TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('adopt', 'keep', 'continue')),
        family TEXT NOT NULL,
        plan_start TEXT NOT NULL,
        alpha REAL NOT NULL,
        report TEXT NOT NULL
      );
      """)
}
