import ResonanceModel

/// `metadata.json` beside the report: a Datasette metadata file, so that
/// `datasette resonance.sqlite -m Reports/metadata.json` explains the store itself — every
/// query view with its columns' meanings and units, and every table with what it holds and
/// each column's meaning from `docs/schema.md` (`SchemaColumns.swift`, generated from it by
/// `scripts/schema_metadata.py`).
package enum DatasetteMetadata {
  struct Column {
    var name: String
    var unit: String?
    var description: String
  }

  struct View {
    var name: String
    var title: String
    var description: String
    var columns: [Column]
  }

  static func c(_ name: String, _ description: String, unit: String? = nil) -> Column {
    Column(name: name, unit: unit, description: description)
  }

  /// The listening sources' names, as plays' `source` holds them (`apple-music, spotify, …`).
  static let listeningSources = ListeningSource.allCases.map(\.rawValue).joined(separator: ", ")

  /// `docs/schema.md`'s column meanings, with the listening sources named where a column holds
  /// one (the docs list them beside the table, the Model's `ListeningSource` here).
  static var columnMeanings: [String: [String: String]] {
    var columns = schemaColumns
    if let source = columns["playback_events"]?["source"] {
      columns["playback_events"]?["source"] = source + ": " + listeningSources
    }
    return columns
  }

  static let isoUTC = "ISO 8601 in UTC"
  static let isoLocal = "ISO 8601 in the local time it was lived in, with its UTC offset"

  /// The views, in `docs/schema.md`'s order; their columns as the migration defines them.
  static let views: [View] = [
    View(
      name: "v_plays", title: "Plays",
      description:
        "Every play of a song, from every listening history, with its session and the heart rate and HRV before and during it.",
      columns: [
        c("play_id", "the play (playback_events.id)"), c("song_id", "the song (songs.id)"),
        c("title", "the song's title"), c("artist", "the song's artist, empty when unknown"),
        c("genre", "the song's genre"),
        c("source", "the history that reported the play: \(listeningSources)"),
        c("start_utc", "when the play started, \(isoUTC)"),
        c("start_local", "when the play started, \(isoLocal)"),
        c("local_date", "the local date it started"),
        c("local_hour", "the local hour it started, 0–23"),
        c("played_s", "time listened", unit: "s"),
        c("listen_fraction", "share of the song listened to, 0–1"),
        c("skipped", "1 when the play was skipped"),
        c("by_dj", "1 when the Resonance DJ chose the song (a logged decision)"),
        c("session_id", "its listening session (v_sessions.session_id)"),
        c("context", "the session's context: workout, deep-work, commute, …"),
        c("hr_before_bpm", "mean heart rate before the play, beats per minute"),
        c("hr_during_bpm", "mean heart rate during the play, beats per minute"),
        c("hr_delta_bpm", "during less before, beats per minute"),
        c("sdnn_before_ms", "mean SDNN before the play", unit: "ms"),
        c("sdnn_during_ms", "mean SDNN during the play", unit: "ms"),
        c("sdnn_delta_ms", "during less before", unit: "ms"),
      ]),
    View(
      name: "v_sessions", title: "Listening sessions",
      description:
        "Listening sessions as resonance analyze reconstructed them, with the seed's session quality and its parts.",
      columns: [
        c("session_id", "the session (historical_sessions.id)"),
        c("start_utc", "the first play's start, \(isoUTC)"),
        c("start_local", "the first play's start, \(isoLocal)"),
        c("local_date", "the local date it started"),
        c("local_hour", "the local hour it started, 0–23"),
        c("end_local", "the last play's end, \(isoLocal)"),
        c("length_min", "from the first start to the last end", unit: "min"),
        c("context", "the session's context"), c("plays", "plays in the session"),
        c("skip_rate", "skipped plays over plays, 0–1"),
        c("engagement", "mean share of each song listened to, 0–1"),
        c("mean_hr_bpm", "mean heart rate during the plays, beats per minute"),
        c("mean_sdnn_ms", "mean SDNN during the plays", unit: "ms"),
        c("hr_delta_bpm", "heart rate during less before, beats per minute"),
        c("sdnn_delta_ms", "SDNN during less before", unit: "ms"),
        c("next_night_id", "the night after (v_nights.night_id)"),
        c("next_night_sleep_score", "the next night's sleep score, 0–1"),
        c("quality", "the seed's session quality, 0–1"),
        c("quality_basis", "the parts the quality stood on"),
      ]),
    View(
      name: "v_song_effects", title: "What each song does",
      description:
        "Each song's effect on heart rate and HRV from the song-response model (90% intervals), with its tempo, energy and valence estimates.",
      columns: [
        c("song_id", "the song (songs.id)"), c("title", "the song's title"),
        c("artist", "the song's artist"), c("genre", "the song's genre"),
        c("plays", "plays over the whole history"),
        c("hr_effect_bpm", "change in heart rate while it plays, beats per minute"),
        c("hr_low90_bpm", "the 90% interval's lower end, beats per minute"),
        c("hr_high90_bpm", "the 90% interval's upper end, beats per minute"),
        c("sdnn_effect_ms", "change in SDNN while it plays", unit: "ms"),
        c("sdnn_low90_ms", "the 90% interval's lower end", unit: "ms"),
        c("sdnn_high90_ms", "the 90% interval's upper end", unit: "ms"),
        c("bpm", "tempo estimate, beats per minute"),
        c("bpm_source", "where the tempo comes from: library, genre-ridge, genre-prior, fallback"),
        c("energy", "energy estimate, 0–1"), c("valence", "valence estimate, 0–1"),
      ]),
    View(
      name: "v_song_context_effects", title: "The app's learned scores per context",
      description:
        "The seed's learning loop replayed over the history: each song's calm, energy, focus and mood scores in each context (−1 to 1), what the DJ ranks by.",
      columns: [
        c("song_id", "the song (songs.id)"), c("title", "the song's title"),
        c("artist", "the song's artist"), c("context", "the context"),
        c("calm_score", "calm score, −1 to 1"), c("energy_score", "energy score, −1 to 1"),
        c("focus_score", "focus score, −1 to 1"), c("mood_score", "mood score, −1 to 1"),
        c("plays_in_context", "plays behind the scores"),
      ]),
    View(
      name: "v_nights", title: "Nights",
      description: "The nights in Health's sleep analysis, as resonance analyze read them.",
      columns: [
        c("night_id", "the night (sleep_nights.id)"),
        c("evening", "the local date the night began"),
        c("bedtime_local", "in bed, \(isoLocal)"), c("wake_local", "up, \(isoLocal)"),
        c("in_bed_h", "time in bed", unit: "h"), c("asleep_h", "time asleep", unit: "h"),
        c("efficiency", "asleep over in bed, 0–1"),
        c("deep_share", "deep sleep over staged sleep, 0–1"),
        c("rem_share", "REM sleep over staged sleep, 0–1"),
        c("awake_min", "minutes awake in bed", unit: "min"),
        c("source", "the device or app the night came from"),
      ]),
    View(
      name: "v_breathing", title: "Breathing sessions",
      description:
        "The breathing pacer's sessions, with the figures resonance breathing stored for them (empty until it has run).",
      columns: [
        c("breathing_id", "the session (breathing_sessions.id)"),
        c("session", "the app's session number"), c("pattern", "the pacer pattern"),
        c("started_local", "when it started, \(isoLocal)"),
        c("local_date", "the local date it started"),
        c("duration_min", "its length", unit: "min"),
        c("resonance_score", "the app's Resonance Score, 0–100"),
        c("breaths_per_min", "measured breathing rate, breaths per minute"),
        c("pacer_breaths_per_min", "the pacer's rate, breaths per minute"),
        c("phase_locking", "phase locking to the pacer, 0–1"),
        c("coherence", "heart-rhythm coherence"),
        c("sdnn_before_ms", "SDNN before the session", unit: "ms"),
        c("sdnn_after_ms", "SDNN after the session", unit: "ms"),
      ]),
  ]

  /// Every table, in one line (`docs/schema.md` documents each column).
  static let tables: [(String, String)] = [
    ("activity_summaries", "Health's daily activity rings"),
    ("analysis_runs", "each resonance analyze run: its scope, marks and summary"),
    ("biometric_samples", "raw Watch sensor readings from trace recordings"),
    ("breathing_results", "what resonance breathing measured in each pacer session"),
    ("breathing_samples", "the pacer app's recorded chest motion and heart readings"),
    ("breathing_sessions", "the breathing pacer's sessions"),
    ("dj_candidates", "each logged DJ decision's candidates with their seven components"),
    ("dj_decisions", "the DJ's logged decisions"),
    ("health_beats", "beat-to-beat times from Health's HRV records"),
    ("health_correlations", "Health's correlations (blood pressure and the like)"),
    ("health_devices", "the devices Health records name"),
    ("health_records", "every Apple Health record, typed"),
    ("health_sources", "the apps and devices Health records come from"),
    ("health_types", "Health's record type identifiers"),
    ("historical_sessions", "listening sessions (the seed's HistoricalSession)"),
    ("import_source_members", "the imports each file on disk held"),
    ("import_sources", "the files on disk imported whole, by the SHA-256 of their own bytes"),
    ("imports", "the ingest ledger: every imported file with its SHA-256"),
    ("macos_contexts", "the Mac context stream (the seed's MacOSContext)"),
    ("mood_inputs", "the moods the person logged"),
    ("person", "the few facts about the person a Health export gives"),
    ("play_biometrics", "heart rate and HRV before and during each play"),
    ("playback_events", "every play (the seed's PlaybackEvent)"),
    ("playlist_songs", "the songs of each playlist"),
    ("playlists", "playlists (the seed's Playlist)"),
    ("schema_migrations", "the migrations applied to this store"),
    ("sleep_nights", "the nights in Health's sleep analysis"),
    ("song_effect_estimates", "each song's measured effect on heart rate and HRV"),
    ("song_context_effect_estimates", "each song's measured effect per context"),
    ("song_effects", "the learning loop's per-song, per-context scores (the seed's SongEffect)"),
    ("song_features", "each song's tempo, energy and valence estimates with their sources"),
    ("songs", "one row per real song across every source (the seed's Song)"),
    ("state_ticks", "the state engine's 30-second timeline over every session"),
    ("sweep_points", "every point of each resonance sweep with its estimates"),
    ("sweep_runs", "each resonance sweep"),
    ("trace_recordings", "each imported trace recording"),
    ("tuning_ledger", "what each resonance tune spent of its preferences' error rate"),
    ("tuning_runs", "each resonance tune, its recommendation and whole report"),
    (
      "experiment_runs",
      "each resonance experiment analyze: the plan, its decision, its days, its share of the error budget"
    ),
    ("workout_events", "events within workouts"),
    ("workout_routes", "the route files workouts name"),
    ("workout_statistics", "each workout's statistics"),
    ("workouts", "Health's workouts"),
  ]

  /// The metadata for the store whose file stem is `database` (Datasette names a database by
  /// its file's stem: `demo` for `demo.sqlite`).
  package static func json(database: String) -> JSONValue {
    var tables: [String: JSONValue] = [:]
    let meanings = columnMeanings
    for (name, description) in Self.tables {
      let columns = (meanings[name] ?? [:]).mapValues { JSONValue.string($0) }
      tables[name] = .object([
        "description": .string(description.prefix(1).uppercased() + description.dropFirst() + "."),
        "columns": .object(columns),
      ])
    }
    for view in views {
      var units: [String: JSONValue] = [:]
      for column in view.columns {
        if let unit = column.unit { units[column.name] = .string(unit) }
      }
      tables[view.name] = .object([
        "title": .string(view.title), "description": .string(view.description),
        "columns": .object(
          Dictionary(uniqueKeysWithValues: view.columns.map { ($0.name, .string($0.description)) })),
        "units": .object(units),
      ])
    }
    return .object([
      "title": "Resonance",
      "description": .string(
        "What music does to the body: Apple Health, listening histories and the Resonance apps' recordings, analysed offline by resonance. Start with the v_ views."
      ),
      "databases": .object([database: .object(["tables": .object(tables)])]),
    ])
  }

  /// The view names, for checks.
  package static var viewNames: [String] { views.map(\.name) }
  /// Each view's columns in order, for checks.
  package static func columns(of view: String) -> [String] {
    views.first { $0.name == view }?.columns.map(\.name) ?? []
  }
}
