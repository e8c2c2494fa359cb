import ResonanceModel

/// What `resonance report` reads: the analysis's stored results as Model values.
extension Store {
  /// The stored listening sessions whose first play falls in `days` (its own local day), in
  /// time order; a session whose context this build does not know is left out (the analysis
  /// writes only `ActivityContext` values).
  ///
  /// - Throws: `StoreError` when a query fails.
  package func sessionRecords(in days: DayRange = DayRange()) throws(StoreError)
    -> [SessionRecord]
  {
    try connection.rows(
      """
      SELECT id, start_ms, start_offset_s, end_ms, end_offset_s, context, play_count, skip_rate,
        engagement, mean_hr, mean_hrv, hr_delta, hrv_delta, sleep_correlation_score,
        quality_score, quality_basis, next_night_id
      FROM historical_sessions ORDER BY start_ms, id
      """
    ).compactMap { try? SessionRecord(row: $0) }.filter { days.contains($0.start) }
  }

  /// The stored nights whose evening falls in `days`, in time order (the heart's overnight
  /// figures left for the Brain to fill).
  ///
  /// - Throws: `StoreError` when a query fails.
  package func nightRecords(in days: DayRange = DayRange()) throws(StoreError) -> [NightRecord] {
    try connection.rows(
      """
      SELECT id, evening, bedtime_ms, bedtime_offset_s, wake_ms, wake_offset_s, asleep_ms,
        deep_share, efficiency
      FROM sleep_nights ORDER BY bedtime_ms, id
      """
    ).compactMap { row -> NightRecord? in
      // A night whose evening is not a date (a store edited by hand) is left out.
      guard let night = try? NightRecord(row: row) else { return nil }
      if let from = days.from, night.evening < from { return nil }
      if let to = days.to, to < night.evening { return nil }
      return night
    }
  }

  /// Every song with its plays and skips over the whole history, by id.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func songRecords() throws(StoreError) -> [SongRecord] {
    try connection.fetch(
      SongRecord.self,
      """
      SELECT s.id, s.title, s.artist, COALESCE(s.genre, '') AS genre, COUNT(p.id) AS plays,
        COALESCE(SUM(p.was_skipped), 0) AS skips
      FROM songs s LEFT JOIN playback_events p ON p.song_id = s.id
      GROUP BY s.id ORDER BY s.id
      """)
  }

  /// The learning loop's per-song, per-context effects (`song_effects`).
  ///
  /// - Throws: `StoreError` when a query fails.
  package func songEffects() throws(StoreError) -> [SongEffect] {
    // An effect in a context this build does not know is left out.
    try connection.rows(
      """
      SELECT song_id, context, calm_score, energy_score, focus_score, mood_score, sample_count,
        updated_at_ms
      FROM song_effects ORDER BY song_id, context
      """
    ).compactMap { try? SongEffect(row: $0) }
  }

  /// The newest stored sweep with its points, if any.
  ///
  /// - Throws: `StoreError` when a query fails, or when the run's design, reward, estimator
  ///   or product is not one this build writes.
  package func latestSweep() throws(StoreError) -> SweepResult? {
    guard
      let run = try connection.row(
        """
        SELECT id, design, reward, estimator, decisions, from_day, to_day, kernel_seconds,
          product
        FROM sweep_runs ORDER BY id DESC LIMIT 1
        """)
    else { return nil }
    guard let design = SweepDesign(description: run.string("design")),
      let reward = Reward(rawValue: run.string("reward")),
      let estimator = Estimator(rawValue: run.string("estimator")),
      let product = SweepProduct(rawValue: run.string("product"))
    else {
      throw StoreError(
        .sqlite(code: 20),
        message: "the stored sweep run \(run.int64("id") ?? 0) is not one this build writes")
    }
    let points = try connection.fetch(
      SweepPoint.self,
      """
      SELECT point, label, bpm_weight, energy_weight, familiarity_weight, historical_weight,
        context_weight, recency_penalty_weight, time_of_day_penalty_weight, value,
        value_low90, value_high90, keep_rate, response, effective_sample_size, largest_weight,
        agreement_share, pareto
      FROM sweep_points WHERE run_id = ? ORDER BY point
      """, [run.int64("id") ?? 0])
    return SweepResult(
      design: design, reward: reward, estimator: estimator, decisions: run.int("decisions"),
      from: run.text("from_day"), to: run.text("to_day"), points: points,
      kernelSeconds: run.double("kernel_seconds") ?? 0, product: product)
  }
}

extension SessionRecord: RowDecodable {
  /// A `historical_sessions` row as `sessionRecords(in:)` selects it.
  ///
  /// - Throws: `StoreError` when the context is not an `ActivityContext`.
  package init(row: Row) throws(StoreError) {
    self.init(
      id: row.int64("id") ?? 0, start: row.timestamp("start_ms", offset: "start_offset_s"),
      end: row.timestamp("end_ms", offset: "end_offset_s"),
      context: try row.decoded(ActivityContext.self, "context"),
      plays: row.int("play_count"), skipRate: row.double("skip_rate") ?? 0,
      engagement: row.double("engagement"), meanHeartRate: row.double("mean_hr"),
      meanHRV: row.double("mean_hrv"), heartRateChange: row.double("hr_delta"),
      hrvChange: row.double("hrv_delta"), sleepScore: row.double("sleep_correlation_score"),
      quality: row.double("quality_score"),
      qualityBasis: row.string("quality_basis").split(separator: ",").compactMap {
        QualityComponent(rawValue: String($0))
      },
      nextNightID: row.int64("next_night_id"))
  }
}

extension NightRecord: RowDecodable {
  /// A `sleep_nights` row as `nightRecords(in:)` selects it.
  ///
  /// - Throws: `StoreError` when the evening is not a `YYYY-MM-DD` date.
  package init(row: Row) throws(StoreError) {
    guard let evening = CalendarDay(row.string("evening")) else {
      throw StoreError(.sqlite(code: 19), message: "unexpected evening '\(row.string("evening"))'")
    }
    self.init(
      id: row.int64("id") ?? 0, evening: evening,
      bedtime: row.timestamp("bedtime_ms", offset: "bedtime_offset_s"),
      wake: row.timestamp("wake_ms", offset: "wake_offset_s"), asleepMs: row.int64("asleep_ms"),
      deepShare: row.double("deep_share"), efficiency: row.double("efficiency"))
  }
}

extension SongRecord: RowDecodable {
  /// A song with its counts as `songRecords()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      id: row.int64("id") ?? 0, title: row.string("title"), artist: row.string("artist"),
      genre: row.string("genre"), plays: row.int("plays"), skips: row.int("skips"))
  }
}

extension SongEffect: RowDecodable {
  /// A `song_effects` row as `songEffects()` selects it.
  ///
  /// - Throws: `StoreError` when the context is not an `ActivityContext`.
  package init(row: Row) throws(StoreError) {
    self.init(
      songID: row.int64("song_id") ?? 0,
      context: try row.decoded(ActivityContext.self, "context"),
      effect: LearnedSongEffect(
        calm: row.double("calm_score") ?? 0, energy: row.double("energy_score") ?? 0,
        focus: row.double("focus_score") ?? 0, mood: row.double("mood_score") ?? 0,
        sampleCount: row.int("sample_count")),
      updatedAtMs: row.int64("updated_at_ms") ?? 0)
  }
}

extension SweepPoint: RowDecodable {
  /// The `sweep_points` columns of `ScoringWeights.vector`, in its order.
  static let weightColumns = [
    "bpm_weight", "energy_weight", "familiarity_weight", "historical_weight", "context_weight",
    "recency_penalty_weight", "time_of_day_penalty_weight",
  ]

  /// A `sweep_points` row as `latestSweep()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      index: row.int("point"), label: row.text("label"),
      weights: ScoringWeights(vector: Self.weightColumns.map { row.double($0) ?? 0 }),
      value: row.double("value"), keepRate: row.double("keep_rate"),
      response: row.double("response"),
      effectiveSampleSize: row.double("effective_sample_size") ?? 0,
      largestWeight: row.double("largest_weight") ?? 0,
      agreementShare: row.double("agreement_share") ?? 0, isPareto: row.int("pareto") != 0)
    lower = row.double("value_low90")
    upper = row.double("value_high90")
  }
}
