/// The Apple Health tables: raw records, beats, workouts, correlations, and the daily totals.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
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
}
