/// The views the notebooks and Datasette read.
///
/// Part of `Schema`: the list of migrations, in order, is in `Schema.swift`.
extension Schema {
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
