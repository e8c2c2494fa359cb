/// The seed app's entities and the listening tables: songs, playlists, plays.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
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
}
