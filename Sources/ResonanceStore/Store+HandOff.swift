import ResonanceModel

/// What `resonance export` hands on: the person's derived tables, each one query over what
/// `analyze`, `breathing` and `tune` stored, read into typed columns. No raw sample is among
/// them (no heart-rate reading, beat, breathing sample or decision), nor any name a source or
/// device gave itself. docs/cohort.md lists every column.
extension Store {
  /// One column of a hand-off table: its name, type, nullability and the SQL that gives it.
  struct HandOffColumn {
    enum Kind { case boolean, int32, int64, double, string, timestamp, date }
    var name: String
    var kind: Kind
    var nullable: Bool
    var sql: String

    init(_ name: String, _ kind: Kind, nullable: Bool = true, _ sql: String? = nil) {
      self.name = name
      self.kind = kind
      self.nullable = nullable
      self.sql = sql ?? name
    }
  }

  /// Runs `body` with every read of the store in it seeing one snapshot, so that the tables
  /// of one hand-off come from one state of the store even while `analyze` writes beside it.
  ///
  /// - Throws: what `body` throws; `StoreError` when the snapshot cannot be begun or ended.
  package func snapshot<T>(_ body: () throws -> T) throws -> T {
    try connection.readTransaction(body)
  }

  /// The table as the hand-off writes it.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func handOffTable(_ table: HandOffTable) throws(StoreError) -> ColumnTable {
    let (columns, from) = Self.handOffQuery(table)
    let sql =
      "SELECT " + columns.map { "\($0.sql) AS \"\($0.name)\"" }.joined(separator: ", ") + " "
      + from
    let rows = try connection.rows(sql)
    var built: [ColumnTable.Column] = []
    for column in columns {
      let values = values(column, rows)
      // A store edited by hand (or an offset beyond 32 bits) can leave a required value
      // missing: a named error, not a table that breaks its own schema.
      if !column.nullable, let row = (0..<values.count).first(where: { values.isNull($0) }) {
        throw StoreError(
          .sqlite(code: 20),
          message: "\(table.rawValue).\(column.name) has no value in row \(row + 1), "
            + "or one out of its type's range: the store is not one this build writes")
      }
      built.append(ColumnTable.Column(column.name, nullable: column.nullable, values))
    }
    return ColumnTable(name: table.rawValue, columns: built)
  }

  /// The first and last local day with a play, `YYYY-MM-DD`; nil without plays.
  package func handOffRange() throws(StoreError) -> (from: String, to: String)? {
    guard
      let row = try connection.row(
        """
        SELECT min(date(start_ms / 1000 + start_offset_s, 'unixepoch')) AS first,
          max(date(start_ms / 1000 + start_offset_s, 'unixepoch')) AS last
        FROM playback_events
        """), let first = row.text("first"), let last = row.text("last")
    else { return nil }
    return (first, last)
  }

  /// The digest of the first file imported into the store: what tells one person's store from
  /// another's when a hand-off is written over (the first import never changes as the store
  /// grows); nil for a store with no import.
  package func firstImportDigest() throws(StoreError) -> String? {
    try connection.row("SELECT sha256 FROM imports ORDER BY id LIMIT 1")?.text("sha256")
  }

  private func values(_ column: HandOffColumn, _ rows: [Row]) -> ColumnTable.Values {
    let at = rows.first.map { $0.columns.column(column.name) }
    func each<T>(_ read: (Row, Column) -> T?) -> [T?] {
      guard let at else { return [] }
      return rows.map { read($0, at) }
    }
    switch column.kind {
    case .boolean: return .boolean(each { row, c in row.int64(c).map { $0 != 0 } })
    case .int32: return .int32(each { row, c in row.int64(c).flatMap { Int32(exactly: $0) } })
    case .int64: return .int64(each { row, c in row.int64(c) })
    case .double: return .double(each { row, c in row.double(c) })
    case .string: return .string(each { row, c in row.text(c) })
    case .timestamp: return .timestampMillis(each { row, c in row.int64(c) })
    case .date: return .date(each { row, c in row.int64(c).flatMap { Int32(exactly: $0) } })
    }
  }

  /// Each table's columns and the rest of its query (`FROM … ORDER BY …`).
  static func handOffQuery(_ table: HandOffTable) -> ([HandOffColumn], String) {
    switch table {
    case .songs:
      return (
        [
          .init("song_id", .int64, nullable: false, "s.id"),
          .init("title", .string, nullable: false, "s.title"),
          .init("artist", .string, "s.artist"),
          .init("genre", .string, "s.genre"),
          .init(
            "plays", .int64, nullable: false,
            "(SELECT count(*) FROM playback_events p WHERE p.song_id = s.id)"),
          .init(
            "skips", .int64, nullable: false,
            "(SELECT coalesce(sum(p.was_skipped), 0) FROM playback_events p WHERE p.song_id = s.id)"
          ),
          .init("bpm", .double, "f.bpm"), .init("bpm_sd", .double, "f.bpm_sd"),
          .init("bpm_source", .string, "f.bpm_source"),
          .init("energy", .double, "f.energy"), .init("valence", .double, "f.valence"),
          .init("familiarity", .double, "f.familiarity"),
        ]
          + ["hr", "hrv"].flatMap { signal in
            [
              HandOffColumn("\(signal)_effect", .double, "\(signal).estimate"),
              HandOffColumn("\(signal)_effect_se", .double, "\(signal).sd"),
              HandOffColumn("\(signal)_effect_low90", .double, "\(signal).low90"),
              HandOffColumn("\(signal)_effect_high90", .double, "\(signal).high90"),
              HandOffColumn("\(signal)_plays", .int64, "\(signal).plays"),
              HandOffColumn("\(signal)_minutes", .double, "\(signal).minutes"),
            ]
          },
        """
        FROM songs s LEFT JOIN song_features f ON f.song_id = s.id
          LEFT JOIN song_effect_estimates hr ON hr.song_id = s.id AND hr.signal = 'hr'
          LEFT JOIN song_effect_estimates hrv ON hrv.song_id = s.id AND hrv.signal = 'hrv'
        WHERE EXISTS (SELECT 1 FROM playback_events p WHERE p.song_id = s.id)
        ORDER BY s.id
        """
      )
    case .songContexts:
      return (
        [
          .init("song_id", .int64, nullable: false), .init("signal", .string, nullable: false),
          .init("context", .string, nullable: false), .init("plays", .int64, nullable: false),
          .init("minutes", .double, nullable: false), .init("overall", .double, nullable: false),
          .init("effect", .double, nullable: false, "estimate"),
          .init("effect_se", .double, nullable: false, "sd"),
          .init("effect_low90", .double, nullable: false, "low90"),
          .init("effect_high90", .double, nullable: false, "high90"),
        ],
        "FROM song_context_effect_estimates ORDER BY song_id, signal, context"
      )
    case .sessions:
      return (
        [
          .init("session_id", .int64, nullable: false, "id"),
          .init("start", .timestamp, nullable: false, "start_ms"),
          .init("start_offset_s", .int32, nullable: false),
          .init("end", .timestamp, nullable: false, "end_ms"),
          .init("end_offset_s", .int32, nullable: false),
          .init("context", .string, nullable: false),
          .init("plays", .int64, nullable: false, "play_count"),
          .init("skip_rate", .double), .init("engagement", .double), .init("mean_hr", .double),
          .init("mean_hrv", .double), .init("hr_delta", .double), .init("hrv_delta", .double),
          .init("sleep_correlation_score", .double), .init("quality_score", .double),
          .init("quality_basis", .string), .init("next_night_id", .int64),
        ],
        "FROM historical_sessions ORDER BY start_ms, id"
      )
    case .nights:
      return (
        [
          .init("night_id", .int64, nullable: false, "id"),
          .init(
            "evening", .date, nullable: false, "CAST(julianday(evening) - 2440587.5 AS INTEGER)"),
          .init("bedtime", .timestamp, nullable: false, "bedtime_ms"),
          .init("bedtime_offset_s", .int32, nullable: false),
          .init("wake", .timestamp, nullable: false, "wake_ms"),
          .init("wake_offset_s", .int32, nullable: false),
          .init("sleep_onset", .timestamp, "sleep_onset_ms"),
          .init("time_in_bed_min", .double, nullable: false, "time_in_bed_ms / 60000.0"),
          .init("asleep_min", .double, "asleep_ms / 60000.0"),
          .init("efficiency", .double), .init("deep_share", .double), .init("rem_share", .double),
          .init("awake_min", .double, "awake_minutes"),
        ],
        "FROM sleep_nights WHERE julianday(evening) IS NOT NULL ORDER BY bedtime_ms, id"
      )
    case .playBiometrics:
      return (
        [
          .init("play_id", .int64, nullable: false, "p.id"),
          .init("song_id", .int64, nullable: false, "p.song_id"),
          .init("session_id", .int64, "p.session_id"),
          .init("start", .timestamp, nullable: false, "p.start_ms"),
          .init("start_offset_s", .int32, nullable: false, "p.start_offset_s"),
          .init("skipped", .boolean, "p.was_skipped"),
          .init("hr_before", .double, "b.hr_before"), .init("hr_during", .double, "b.hr_during"),
          .init("hr_samples_before", .int64, nullable: false, "b.hr_samples_before"),
          .init("hr_samples_during", .int64, nullable: false, "b.hr_samples_during"),
          .init("hrv_before", .double, "b.hrv_before"),
          .init("hrv_during", .double, "b.hrv_during"),
          .init("hrv_samples_before", .int64, nullable: false, "b.hrv_samples_before"),
          .init("hrv_samples_during", .int64, nullable: false, "b.hrv_samples_during"),
        ],
        """
        FROM play_biometrics b JOIN playback_events p ON p.id = b.play_id
        ORDER BY p.start_ms, p.id
        """
      )
    case .breathing:
      return (
        [
          .init("session_id", .int64, nullable: false, "s.id"),
          .init("pattern", .string, nullable: false, "s.pattern"),
          .init("started", .timestamp, "s.started_ms"),
          .init("started_offset_s", .int32, "s.started_offset_s"),
          .init("duration_s", .double, "s.duration_s"),
        ]
          + [
            "resonance_score", "breaths_per_minute", "rate_variability",
            "pacer_breaths_per_minute", "phase_locking", "lag_s", "in_sync_share", "coherence",
            "coherence_peak_hz", "rsa_amplitude", "hrv_before", "hrv_after",
          ].map { HandOffColumn($0, .double, "r.\($0)") },
        """
        FROM breathing_sessions s JOIN breathing_results r ON r.session_id = s.id
        ORDER BY s.started_ms, s.id
        """
      )
    case .tuning:
      return (
        [
          .init("run_id", .int64, nullable: false, "id"),
          .init("ran_at", .timestamp, nullable: false, "ran_at_ms"),
          .init("recommendation", .string, nullable: false),
          .init("reward", .string, "json_extract(report, '$.reward')"),
          .init("estimator", .string, "json_extract(report, '$.estimator')"),
          .init("decisions", .int64, "json_extract(report, '$.decisions')"),
          .init("margin", .double, "json_extract(report, '$.margin')"),
          .init("forward_gain", .double, "json_extract(report, '$.forwardGain.estimate')"),
          .init("forward_gain_lower", .double, "json_extract(report, '$.forwardGain.lower')"),
          .init("forward_gain_upper", .double, "json_extract(report, '$.forwardGain.upper')"),
          .init("held_out_month", .string, "json_extract(report, '$.heldOut.month')"),
          .init("held_out_decisions", .int64, "json_extract(report, '$.heldOut.decisions')"),
          .init("held_out_gain", .double, "json_extract(report, '$.heldOut.gain.estimate')"),
          .init("held_out_gain_lower", .double, "json_extract(report, '$.heldOut.gain.lower')"),
          .init("held_out_gain_upper", .double, "json_extract(report, '$.heldOut.gain.upper')"),
          .init("held_out_gain_level", .double, "json_extract(report, '$.heldOut.gain.level')"),
        ],
        "FROM tuning_runs ORDER BY id"
      )
    }
  }
}
