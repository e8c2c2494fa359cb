import ResonanceModel

extension Store {
  /// Writes one recording of our formats, or one part of it, inside the caller's transaction:
  /// its `trace_recordings` row (a later part, `continues`, adds its samples to the import's
  /// last row) and its content (BiometricSample, MacOSContext, mood inputs, decisions, or a
  /// breathing session with its samples).
  ///
  /// A recording the app appends to while a month lasts (the Watch and Mac traces, the mood
  /// inputs, the decision log) may be imported again as it grew: what an earlier copy of it
  /// stored (a sample at the same instant from another import; a decision at the same instant
  /// with the same number) is not stored again.
  ///
  /// - Returns: the domain records added: the lines after the header that were read, less
  ///   those an earlier copy stored.
  @discardableResult
  package func insertTrace(_ file: TraceFile, importID: Int64) throws(StoreError) -> Int {
    let db = connection
    if file.continues {
      try db.execute(
        """
        UPDATE trace_recordings SET samples = samples + ?
        WHERE id = (SELECT MAX(id) FROM trace_recordings WHERE import_id = ?)
        """, [file.samples, importID])
    } else {
      try db.execute(
        """
        INSERT INTO trace_recordings (import_id, format, format_version, started_ms, started_offset_s, samples)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          importID, file.format, file.version, file.started?.millisecondsSinceEpoch,
          file.started.map { Int64($0.utcOffsetSeconds) }, file.samples,
        ])
    }
    func flag(_ value: Bool?) -> Int64? { value.map { $0 ? 1 : 0 } }
    var added = file.samples
    switch file.content {
    case .watch(let readings):
      let stored = try instantsStored(
        in: "biometric_samples", at: readings.map(\.time.millisecondsSinceEpoch),
        except: importID)
      let insert = try db.prepare(
        "INSERT INTO biometric_samples (import_id, time_ms, offset_s, hr, hrv, is_stationary, is_workout) VALUES (?, ?, ?, ?, ?, ?, ?)"
      )
      added = 0
      for r in readings where !stored.contains(r.time.millisecondsSinceEpoch) {
        added += 1
        insert.bind(importID, at: 1)
        insert.bind(r.time.millisecondsSinceEpoch, at: 2)
        insert.bind(Int64(r.time.utcOffsetSeconds), at: 3)
        insert.bind(r.heartRate, at: 4)
        insert.bind(r.hrv, at: 5)
        insert.bind(flag(r.isStationary), at: 6)
        insert.bind(flag(r.isWorkout), at: 7)
        try insert.run()
      }
    case .mac(let snapshots):
      let stored = try instantsStored(
        in: "macos_contexts", at: snapshots.map(\.time.millisecondsSinceEpoch), except: importID)
      let insert = try db.prepare(
        "INSERT INTO macos_contexts (import_id, time_ms, offset_s, focus_mode, active_app_category, in_meeting) VALUES (?, ?, ?, ?, ?, ?)"
      )
      added = 0
      for s in snapshots where !stored.contains(s.time.millisecondsSinceEpoch) {
        added += 1
        insert.bind(importID, at: 1)
        insert.bind(s.time.millisecondsSinceEpoch, at: 2)
        insert.bind(Int64(s.time.utcOffsetSeconds), at: 3)
        insert.bind(s.focusMode, at: 4)
        insert.bind(s.appCategory, at: 5)
        insert.bind(flag(s.inMeeting), at: 6)
        try insert.run()
      }
    case .mood(let inputs):
      // The app appends to one mood file: an input stored from an earlier copy of it (the
      // same instant and device) is not stored again.
      added = 0
      for m in inputs {
        try db.execute(
          """
          INSERT INTO mood_inputs (import_id, time_ms, offset_s, device, tap, valence, energy)
          SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
          WHERE NOT EXISTS (SELECT 1 FROM mood_inputs WHERE time_ms = ?2 AND device = ?4)
          """,
          [
            importID, m.time.millisecondsSinceEpoch, Int64(m.time.utcOffsetSeconds), m.device,
            m.tap, m.valence, m.energy,
          ])
        added += db.changes
      }
    case .decisions(let records):
      added = try insertDecisions(records, importID: importID)
    case .breathing(let recording):
      let schedule = recording.schedule.map { "\($0.phase.rawValue):\($0.seconds)" }.joined(
        separator: ",")
      try db.execute(
        """
        INSERT INTO breathing_sessions (import_id, session, pattern, started_ms, started_offset_s, duration_s, schedule)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
          importID, recording.session, recording.pattern, recording.started?.millisecondsSinceEpoch,
          recording.started.map { Int64($0.utcOffsetSeconds) }, recording.durationSeconds, schedule,
        ])
      let session = db.lastInsertRowID
      let insert = try db.prepare(
        "INSERT INTO breathing_samples (session_id, t, channel, value, label) VALUES (?, ?, ?, ?, ?)"
      )
      func add(_ t: Double, _ channel: String, _ value: Double?, _ label: String?)
        throws(StoreError)
      {
        insert.bind(session, at: 1)
        insert.bind(t, at: 2)
        insert.bind(channel, at: 3)
        insert.bind(value, at: 4)
        insert.bind(label, at: 5)
        try insert.run()
      }
      for p in recording.pacer { try add(p.t, "pacer", nil, p.phase.rawValue) }
      for s in recording.trace { try add(s.t, "trace", s.value, nil) }
      for s in recording.pulse { try add(s.t, "pulse", s.value, nil) }
      for s in recording.sdkRate { try add(s.t, "rate", s.value, nil) }
      for s in recording.hrv { try add(s.t, "hrv", s.value, nil) }
      for e in recording.expressions { try add(e.t, "expression", nil, e.label) }
    }
    return added
  }

  /// The instants (UTC milliseconds) from the first of `times` to the last at which `table`
  /// holds a row from an import other than `importID`. A recording of a month not imported
  /// before finds none, at the cost of one indexed range query; a grown copy finds what its
  /// earlier copy stored.
  private func instantsStored(in table: String, at times: [Int64], except importID: Int64)
    throws(StoreError) -> Set<Int64>
  {
    guard let first = times.min(), let last = times.max() else { return [] }
    let statement = try connection.prepare(
      "SELECT time_ms FROM \(table) WHERE time_ms BETWEEN ? AND ? AND import_id != ?")
    try statement.bind([first, last, importID])
    var stored: Set<Int64> = []
    while try statement.step() {
      if let ms = statement.currentRow().int64("time_ms") { stored.insert(ms) }
    }
    return stored
  }

  /// The breathing sessions in the store, rebuilt as recordings, in the order they were
  /// imported (only `session`, when given).
  package func breathingRecordings(session: Int? = nil) throws(StoreError)
    -> [StoredBreathingSession]
  {
    let db = connection
    var result: [StoredBreathingSession] = []
    let sessions = try db.rows(
      """
      SELECT b.id, b.session, b.pattern, b.started_ms, b.started_offset_s, b.duration_s, b.schedule, i.file
      FROM breathing_sessions b JOIN imports i ON i.id = b.import_id
      WHERE (? IS NULL OR b.session = ?) ORDER BY b.id
      """, [session, session])
    for row in sessions {
      var recording = BreathingRecording(
        session: row.int("session"), pattern: row.string("pattern"))
      if row.int64("started_ms") != nil {
        recording.started = row.timestamp("started_ms", offset: "started_offset_s")
      }
      recording.durationSeconds = row.double("duration_s")
      for part in row.string("schedule").split(separator: ",") {
        let pieces = part.split(separator: ":")
        if pieces.count == 2, let phase = BreathingRecording.Phase(rawValue: String(pieces[0])),
          let seconds = Double(pieces[1])
        {
          recording.schedule.append(.init(phase, seconds))
        }
      }
      for sample in try db.rows(
        "SELECT t, channel, value, label FROM breathing_samples WHERE session_id = ? ORDER BY channel, t",
        [row.int64("id")])
      {
        let t = sample.double("t") ?? 0
        let value = sample.double("value")
        switch sample.string("channel") {
        case "pacer":
          if let phase = BreathingRecording.Phase(rawValue: sample.string("label")) {
            recording.pacer.append(.init(t, phase))
          }
        case "trace": if let value { recording.trace.append(.init(t, value)) }
        case "pulse": if let value { recording.pulse.append(.init(t, value)) }
        case "rate": if let value { recording.sdkRate.append(.init(t, value)) }
        case "hrv": if let value { recording.hrv.append(.init(t, value)) }
        case "expression": recording.expressions.append(.init(t, sample.string("label")))
        default: break
        }
      }
      result.append(
        StoredBreathingSession(
          id: row.int64("id") ?? 0, file: row.string("file"), recording: recording))
    }
    return result
  }
}

extension Store {
  /// Stores (replacing) what the breathing analysis measured in stored sessions, in one
  /// transaction: all of them, or none when one fails.
  ///
  /// - Parameters:
  ///   - results: the figures, by the session's `breathing_sessions` row id.
  ///   - now: when they were analysed, UTC milliseconds.
  package func saveBreathingResults(_ results: [Int64: BreathingResult], now: Int64) throws {
    try connection.transaction {
      for id in results.keys.sorted() {
        try saveBreathingResult(results[id]!, forSessionRow: id, now: now)
      }
    }
  }

  /// Stores (replacing) what the breathing analysis measured in the stored session `id` (a
  /// `breathing_sessions` row), inside the caller's transaction.
  func saveBreathingResult(_ r: BreathingResult, forSessionRow id: Int64, now: Int64)
    throws(StoreError)
  {
    try connection.execute(
      """
      INSERT OR REPLACE INTO breathing_results (session_id, resonance_score, events, matched,
        breaths, breaths_per_minute, rate_variability, pacer_breaths_per_minute, phase_locking,
        lag_s, in_sync_share, coherence, coherence_peak_hz, rsa_amplitude, hrv_before, hrv_after,
        dominant_expression, notes, analysed_at_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        id, r.resonanceScore, r.events, r.matched, r.breaths, r.breathsPerMinute, r.rateVariability,
        r.pacerBreathsPerMinute, r.phaseLocking, r.lagSeconds, r.inSyncShare, r.coherence,
        r.coherencePeakHz, r.rsaAmplitude, r.hrvBefore, r.hrvAfter, r.dominantExpression,
        r.notes.isEmpty ? nil : r.notes.joined(separator: "; "), now,
      ])
  }
}
