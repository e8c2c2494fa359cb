import ResonanceModel

/// What `resonance report` reads: the analysis's stored results as Model values.
extension Store {
  /// The stored listening sessions whose first play falls in `days` (its own local day), in
  /// time order.
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
    ).map { row in
      SessionRecord(
        id: row.optionalInt64(0) ?? 0,
        start: Timestamp(
          millisecondsSinceEpoch: row.optionalInt64(1) ?? 0,
          utcOffsetSeconds: Int32(row.int(2))),
        end: Timestamp(
          millisecondsSinceEpoch: row.optionalInt64(3) ?? 0,
          utcOffsetSeconds: Int32(row.int(4))),
        context: row.string(5), plays: row.int(6), skipRate: row[7].double ?? 0,
        engagement: row[8].double, meanHeartRate: row[9].double, meanHRV: row[10].double,
        heartRateChange: row[11].double, hrvChange: row[12].double, sleepScore: row[13].double,
        quality: row[14].double,
        qualityBasis: row.string(15).split(separator: ",").map(String.init),
        nextNightID: row.optionalInt64(16))
    }.filter { days.contains($0.start) }
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
      guard let evening = CalendarDay(row.string(1)) else { return nil }
      if let from = days.from, evening < from { return nil }
      if let to = days.to, to < evening { return nil }
      return NightRecord(
        id: row.optionalInt64(0) ?? 0, evening: evening,
        bedtime: Timestamp(
          millisecondsSinceEpoch: row.optionalInt64(2) ?? 0,
          utcOffsetSeconds: Int32(row.int(3))),
        wake: Timestamp(
          millisecondsSinceEpoch: row.optionalInt64(4) ?? 0,
          utcOffsetSeconds: Int32(row.int(5))),
        asleepMs: row.optionalInt64(6), deepShare: row[7].double, efficiency: row[8].double)
    }
  }

  /// Every song with its plays and skips over the whole history, by id.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func songRecords() throws(StoreError) -> [SongRecord] {
    try connection.rows(
      """
      SELECT s.id, s.title, s.artist, COALESCE(s.genre, ''), COUNT(p.id),
        COALESCE(SUM(p.was_skipped), 0)
      FROM songs s LEFT JOIN playback_events p ON p.song_id = s.id
      GROUP BY s.id ORDER BY s.id
      """
    ).map {
      SongRecord(
        id: $0.optionalInt64(0) ?? 0, title: $0.string(1), artist: $0.string(2),
        genre: $0.string(3), plays: $0.int(4), skips: $0.int(5))
    }
  }

  /// The learning loop's per-song, per-context effects (`song_effects`).
  ///
  /// - Throws: `StoreError` when a query fails.
  package func songEffects() throws(StoreError) -> [SongEffect] {
    try connection.rows(
      """
      SELECT song_id, context, calm_score, energy_score, focus_score, mood_score, sample_count,
        updated_at_ms
      FROM song_effects ORDER BY song_id, context
      """
    ).compactMap { row in
      guard let context = ActivityContext(rawValue: row.string(1)) else { return nil }
      return SongEffect(
        songID: row.optionalInt64(0) ?? 0, context: context,
        effect: LearnedSongEffect(
          calm: row[2].double ?? 0, energy: row[3].double ?? 0, focus: row[4].double ?? 0,
          mood: row[5].double ?? 0, sampleCount: row.int(6)),
        updatedAtMs: row.optionalInt64(7) ?? 0)
    }
  }

  /// The newest stored sweep with its points, if any.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func latestSweep() throws(StoreError) -> SweepResult? {
    guard
      let run = try connection.row(
        """
        SELECT id, design, reward, estimator, decisions, from_day, to_day, kernel_seconds,
          product
        FROM sweep_runs ORDER BY id DESC LIMIT 1
        """)
    else { return nil }
    let points = try connection.rows(
      """
      SELECT point, label, bpm_weight, energy_weight, familiarity_weight, historical_weight,
        context_weight, recency_penalty_weight, time_of_day_penalty_weight, value,
        value_low90, value_high90, keep_rate, response, effective_sample_size, largest_weight,
        agreement_share, pareto
      FROM sweep_points WHERE run_id = ? ORDER BY point
      """, [run.optionalInt64(0) ?? 0]
    ).map { row in
      var point = SweepPoint(
        index: row.int(0), label: row[1].string,
        weights: ScoringWeights(vector: (2..<9).map { row[$0].double ?? 0 }),
        value: row[9].double, keepRate: row[12].double, response: row[13].double,
        effectiveSampleSize: row[14].double ?? 0, largestWeight: row[15].double ?? 0,
        agreementShare: row[16].double ?? 0, isPareto: row.int(17) != 0)
      point.lower = row[10].double
      point.upper = row[11].double
      return point
    }
    return SweepResult(
      design: run.string(1), reward: run.string(2), estimator: run.string(3),
      decisions: run.int(4), from: run[5].string, to: run[6].string, points: points,
      kernelSeconds: run[7].double ?? 0, product: run.string(8))
  }
}
