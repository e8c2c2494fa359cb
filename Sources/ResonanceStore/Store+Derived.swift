import Foundation
import ResonanceModel

/// Where the history stage's results go: one unit of work that replaces the derived tables.
extension Store {
  /// Brings every derived table up to date in one transaction, and records the run: a failure
  /// leaves the store as it was.
  ///
  /// Sessions with a `keptID` stay as stored — their row, their plays' biometrics and their
  /// state ticks; every other stored session goes (its ticks with it) and the rest are
  /// inserted, recording this run as theirs. `results.biometrics` and `results.ticks` are for
  /// the inserted sessions' plays only; nights, outcomes (one per session), song effects,
  /// estimates and features are replaced whole.
  ///
  /// - Parameters:
  ///   - summary: what the run found, kept with it (`lastAnalysis().summary`).
  ///   - startedAt: when the run began, UTC milliseconds.
  ///   - finishedAt: when it ended.
  /// - Throws: `StoreError` when a statement fails (a constraint, the disk).
  package func replaceAnalysis(
    _ results: AnalysisResults, summary: HistorySummary? = nil, startedAt: Int64,
    finishedAt: Int64
  ) throws {
    try connection.transaction {
      let lastImport = try lastImportID()
      let sessions = results.sessions
      let kept = sessions.compactMap(\.keptID)
      // A JSON object of table names (identifiers, nothing to escape) to row ids.
      let marksText = results.marks.map { marks in
        "{"
          + marks.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
          .joined(separator: ",") + "}"
      }
      let scope = results.scope
      try connection.execute(
        """
        INSERT INTO analysis_runs (started_at_ms, finished_at_ms, last_import_id, plays, sessions,
          gap_minutes, from_ms, to_ms, raw_marks, sessions_kept, summary)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          startedAt, finishedAt, lastImport,
          sessions.reduce(0) { $0 + $1.session.playIDs.count }, sessions.count,
          scope.gapMinutes, scope.days.from.map(Self.dayMs), scope.days.to.map(Self.dayMs),
          marksText, kept.count, try summary.map(Self.json),
        ])
      let run = connection.lastInsertRowID

      // Everything but the kept sessions goes: their plays are unassigned and lose their
      // biometrics, their ticks follow them (ON DELETE CASCADE).
      try connection.execute("CREATE TEMP TABLE kept_sessions (id INTEGER PRIMARY KEY)")
      defer { try? connection.execute("DROP TABLE temp.kept_sessions") }
      let keep = try connection.prepare("INSERT INTO temp.kept_sessions (id) VALUES (?)")
      for id in kept { try keep.execute([id]) }
      try connection.execute(
        """
        DELETE FROM play_biometrics WHERE play_id NOT IN (
          SELECT id FROM playback_events WHERE session_id IN (SELECT id FROM temp.kept_sessions))
        """)
      try connection.execute(
        """
        UPDATE playback_events SET session_id = NULL
        WHERE session_id IS NOT NULL AND session_id NOT IN (SELECT id FROM temp.kept_sessions)
        """)
      try connection.execute(
        "DELETE FROM historical_sessions WHERE id NOT IN (SELECT id FROM temp.kept_sessions)")

      let insertSession = try connection.prepare(
        """
        INSERT INTO historical_sessions (start_ms, start_offset_s, end_ms, end_offset_s, context,
          play_count, skip_rate, engagement, mean_hr, mean_hrv, hr_delta, hrv_delta,
          inputs_digest, analysis_run_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      let assign = try connection.prepare("UPDATE playback_events SET session_id = ? WHERE id = ?")
      var sessionIDs: [Int64] = []
      for analysed in sessions {
        if let id = analysed.keptID {
          sessionIDs.append(id)
          continue
        }
        let s = analysed.session
        let b = analysed.biometrics
        try insertSession.execute([
          s.start.millisecondsSinceEpoch, Int64(s.start.utcOffsetSeconds),
          s.end.millisecondsSinceEpoch, Int64(s.end.utcOffsetSeconds), s.context.rawValue,
          s.playIDs.count, s.skipRate, s.engagement, b.heartRate.during, b.hrv.during,
          b.heartRate.delta, b.hrv.delta, analysed.inputsDigest, run,
        ])
        let id = connection.lastInsertRowID
        sessionIDs.append(id)
        for play in s.playIDs { try assign.execute([id, play]) }
      }
      try replaceSleepAndState(results, sessionIDs: sessionIDs)
      let insert = try connection.prepare(
        """
        INSERT OR REPLACE INTO play_biometrics (play_id, hr_before, hr_during, hr_samples_before,
          hr_samples_during, hrv_before, hrv_during, hrv_samples_before, hrv_samples_during)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for b in results.biometrics {
        try insert.execute([
          b.playID, b.heartRate.before, b.heartRate.during, b.heartRate.samplesBefore,
          b.heartRate.samplesDuring, b.hrv.before, b.hrv.during, b.hrv.samplesBefore,
          b.hrv.samplesDuring,
        ])
      }
      try connection.execute("DELETE FROM song_effects")
      let insertEffect = try connection.prepare(
        """
        INSERT INTO song_effects (song_id, context, calm_score, energy_score, focus_score,
          mood_score, sample_count, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for e in results.effects {
        try insertEffect.execute([
          e.songID, e.context.rawValue, e.effect.calm, e.effect.energy, e.effect.focus,
          e.effect.mood, e.effect.sampleCount, e.updatedAtMs,
        ])
      }
      try connection.execute("DELETE FROM song_effect_estimates")
      let insertEstimate = try connection.prepare(
        """
        INSERT INTO song_effect_estimates (song_id, signal, plays, minutes, raw_mean, prior_mean,
          estimate, sd, low90, high90)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for e in results.estimates {
        try insertEstimate.execute([
          e.songID, e.signal.rawValue, e.plays, e.minutes, e.unpooled, e.genreMean, e.estimate,
          e.sd, e.low90, e.high90,
        ])
      }
      try connection.execute("DELETE FROM song_context_effect_estimates")
      let insertContext = try connection.prepare(
        """
        INSERT INTO song_context_effect_estimates (song_id, signal, context, plays, minutes,
          raw_mean, overall, estimate, sd, low90, high90)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for e in results.contextEstimates {
        try insertContext.execute([
          e.songID, e.signal.rawValue, e.context.rawValue, e.plays, e.minutes, e.unpooled,
          e.overall, e.estimate, e.sd, e.low90, e.high90,
        ])
      }
      try replaceSongFeatures(results.features)
      try replaceEntityScores(results)
    }
  }

  /// The seed's Song and Playlist aggregate fields, rewritten whole: a song or playlist the
  /// run has no figure for gets NULL.
  func replaceEntityScores(_ results: AnalysisResults) throws(StoreError) {
    try connection.execute(
      """
      UPDATE songs SET calm_score = NULL, focus_score = NULL, activation_score = NULL,
        energy = NULL, valence = NULL, familiarity = NULL
      """)
    let song = try connection.prepare(
      """
      UPDATE songs SET calm_score = ?, focus_score = ?, activation_score = ?, energy = ?,
        valence = ?, familiarity = ?
      WHERE id = ?
      """)
    for s in results.songScores {
      try song.execute([
        s.calm, s.focus, s.activation, s.energy, s.valence, s.familiarity, s.songID,
      ])
    }
    try connection.execute(
      """
      UPDATE playlists SET avg_calm_effect = NULL, avg_focus_effect = NULL,
        avg_energy_effect = NULL, context_associations = NULL
      """)
    let playlist = try connection.prepare(
      """
      UPDATE playlists SET avg_calm_effect = ?, avg_focus_effect = ?, avg_energy_effect = ?,
        context_associations = ?
      WHERE id = ?
      """)
    for p in results.playlistScores {
      // A JSON object with sorted keys: the same figures give the same text.
      let contexts =
        "{"
        + p.contexts.sorted { $0.key.rawValue < $1.key.rawValue }.map {
          "\"\($0.key.rawValue)\":\($0.value)"
        }
        .joined(separator: ",") + "}"
      try playlist.execute([p.calm, p.focus, p.energy, contexts, p.playlistID])
    }
  }

  /// Replaces the nights, sets each session's outcome and adds the ticks (of the sessions just
  /// inserted: a kept session keeps its own, a removed one's went with it), inside
  /// `replaceAnalysis`'s transaction.
  ///
  /// - Parameter sessionIDs: the row ids of the sessions, kept or just inserted, in the order
  ///   of `results.sessions`.
  /// - Precondition: `results.outcomes` is empty or one per session; every index is in range.
  /// - Complexity: O(nights + sessions + ticks) statements, all prepared once.
  func replaceSleepAndState(_ results: AnalysisResults, sessionIDs: [Int64]) throws(StoreError) {
    precondition(results.outcomes.isEmpty || results.outcomes.count == sessionIDs.count)
    try connection.execute("UPDATE historical_sessions SET next_night_id = NULL")
    try connection.execute("DELETE FROM sleep_nights")

    let insertNight = try connection.prepare(
      """
      INSERT INTO sleep_nights (evening, bedtime_ms, bedtime_offset_s, wake_ms, wake_offset_s,
        sleep_onset_ms, sleep_onset_offset_s, time_in_bed_ms, asleep_ms, efficiency, deep_share,
        rem_share, awake_minutes, primary_source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    var nightIDs: [Int64] = []
    nightIDs.reserveCapacity(results.nights.count)
    for n in results.nights {
      try insertNight.execute([
        n.evening, n.bedtime.millisecondsSinceEpoch, Int64(n.bedtime.utcOffsetSeconds),
        n.wake.millisecondsSinceEpoch, Int64(n.wake.utcOffsetSeconds),
        n.sleepOnset?.millisecondsSinceEpoch, n.sleepOnset.map { Int64($0.utcOffsetSeconds) },
        n.timeInBedMs, n.asleepMs, n.efficiency, n.deepShare, n.remShare, n.awakeMinutes,
        n.primarySource,
      ])
      nightIDs.append(connection.lastInsertRowID)
    }

    let setOutcome = try connection.prepare(
      """
      UPDATE historical_sessions
      SET next_night_id = ?, sleep_correlation_score = ?, quality_score = ?, quality_basis = ?
      WHERE id = ?
      """)
    for (id, o) in zip(sessionIDs, results.outcomes) {
      try setOutcome.execute([
        o.nextNight.map { nightIDs[$0] }, o.sleepScore, o.quality,
        o.basis.isEmpty ? nil : o.basis.map(\.rawValue).joined(separator: ","), id,
      ])
    }

    // The bulk path: bind by index, no argument array per row.
    let insertTick = try connection.prepare(
      """
      INSERT INTO state_ticks (session_id, time_ms, arousal, stress, energy, focus, valence,
        need, resting_source, hrv_freshness, mood_weight)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    for t in results.ticks {
      insertTick.bind(sessionIDs[t.period], at: 1)
      insertTick.bind(t.timeMs, at: 2)
      insertTick.bind(t.state.arousal, at: 3)
      insertTick.bind(t.state.stress, at: 4)
      insertTick.bind(t.state.energy, at: 5)
      insertTick.bind(t.state.focus, at: 6)
      insertTick.bind(t.state.valence, at: 7)
      insertTick.bind(t.need.rawValue, at: 8)
      insertTick.bind(t.evidence.restingSource.rawValue, at: 9)
      insertTick.bind(t.evidence.hrvFreshness.rawValue, at: 10)
      insertTick.bind(t.evidence.moodWeight, at: 11)
      try insertTick.run()
    }
  }

  /// A value as the store keeps JSON: keys sorted, so the same value gives the same text.
  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// A local calendar day as `analysis_runs.from_ms`/`to_ms` keep it: the day's midnight on
  /// the local clock, in milliseconds since 1970-01-01T00:00 on that clock.
  static func dayMs(_ day: CalendarDay) -> Int64 { day.daysSinceEpoch * 86_400_000 }

  /// Counts over `sleep_nights`, `historical_sessions` and `state_ticks`.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func derivedSummary() throws(StoreError) -> DerivedSummary {
    let sessions = try connection.row(
      """
      SELECT COUNT(next_night_id) AS with_next_night, COUNT(quality_score) AS with_quality,
        AVG(quality_score) AS mean_quality
      FROM historical_sessions
      """)
    return DerivedSummary(
      nights: try connection.row("SELECT COUNT(*) AS nights FROM sleep_nights")?.int("nights")
        ?? 0,
      sessionsWithNextNight: sessions?.int("with_next_night") ?? 0,
      sessionsWithQuality: sessions?.int("with_quality") ?? 0,
      meanQuality: sessions?.double("mean_quality"),
      ticks: try connection.row("SELECT COUNT(*) AS ticks FROM state_ticks")?.int("ticks") ?? 0)
  }
}
