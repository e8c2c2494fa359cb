import Foundation
import ResonanceModel

extension Store {
  /// Writes a decision log's decisions, inside the caller's transaction: one `dj_decisions`
  /// row each, and one `dj_candidates` row per candidate (the admitted first, in playlist
  /// order, then the rejected).
  ///
  /// - Returns: how many decisions were stored (those an earlier copy stored are not).
  func insertDecisions(_ records: [DecisionRecord], importID: Int64) throws(StoreError) -> Int {
    let db = connection
    let decision = try db.prepare(
      """
      INSERT INTO dj_decisions (import_id, decision, session, time_ms, offset_s, need, context,
        chosen, log_version, preferences, local_hour, stress, max_play_count, previous_bpm,
        previous_energy, previous_valence, recent_artists, heart_rate, baseline_heart_rate,
        bpm_ceiling, consecutive_skips, familiarity_boost, listened_ms, duration_ms, skipped,
        completed, arm, experiment_seed)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let candidate = try db.prepare(
      """
      INSERT INTO dj_candidates (decision_id, position, song, rejected, artist, bpm, energy,
        valence, plays, learned, last_played_ms, c_bpm, c_energy, c_familiarity, c_historical,
        c_context, c_recency, c_time_of_day, base, score, p)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    // A month's log grows while the month lasts: a decision stored from an earlier copy of it
    // (the same instant and number) is not stored again.
    let stored = try db.prepare(
      "SELECT 1 AS stored FROM dj_decisions WHERE time_ms = ? AND decision = ? LIMIT 1")
    func flag(_ value: Bool?) -> Int64? { value.map { $0 ? 1 : 0 } }
    var added = 0
    for d in records {
      try stored.bind([d.time.millisecondsSinceEpoch, Int64(d.decision)])
      let isStored = try stored.step()
      stored.reset()
      if isStored { continue }
      added += 1
      decision.bind(importID, at: 1)
      decision.bind(Int64(d.decision), at: 2)
      decision.bind(d.session.map(Int64.init), at: 3)
      decision.bind(d.time.millisecondsSinceEpoch, at: 4)
      decision.bind(Int64(d.time.utcOffsetSeconds), at: 5)
      decision.bind(d.need, at: 6)
      decision.bind(d.context, at: 7)
      decision.bind(d.chosen, at: 8)
      decision.bind(Int64(d.version), at: 9)
      var preferences: String?
      if let settings = d.preferences { preferences = try Self.storedJSON(settings) }
      decision.bind(preferences, at: 10)
      decision.bind(d.localHour, at: 11)
      decision.bind(d.stress, at: 12)
      decision.bind(d.maxPlayCount.map(Int64.init), at: 13)
      decision.bind(d.previous?.bpm, at: 14)
      decision.bind(d.previous?.energy, at: 15)
      decision.bind(d.previous?.valence, at: 16)
      decision.bind(try Self.storedJSON(d.recentArtists), at: 17)
      decision.bind(d.heartRate, at: 18)
      decision.bind(d.adjuster?.baselineHeartRate, at: 19)
      decision.bind(d.adjuster?.bpmCeiling, at: 20)
      decision.bind(d.adjuster.map { Int64($0.consecutiveSkips) }, at: 21)
      decision.bind(d.adjuster?.familiarityBoost, at: 22)
      decision.bind(d.outcome?.listenedMs, at: 23)
      decision.bind(d.outcome?.durationMs, at: 24)
      decision.bind(flag(d.outcome?.skipped), at: 25)
      decision.bind(flag(d.outcome?.completed), at: 26)
      decision.bind(d.arm, at: 27)
      // SQLite's integers are signed: a seed above 2⁶³ is kept by its bits.
      decision.bind(d.experimentSeed.map { Int64(bitPattern: $0) }, at: 28)
      try decision.run()
      let id = db.lastInsertRowID
      func add(_ position: Int, song: String, rejected: String?, inputs: CandidateInputs?)
        throws(StoreError)
      {
        candidate.bind(id, at: 1)
        candidate.bind(Int64(position), at: 2)
        candidate.bind(song, at: 3)
        candidate.bind(rejected, at: 4)
        candidate.bind(inputs?.artist, at: 5)
        candidate.bind(inputs?.features.bpm, at: 6)
        candidate.bind(inputs?.features.energy, at: 7)
        candidate.bind(inputs?.features.valence, at: 8)
        candidate.bind(inputs.map { Int64($0.plays) }, at: 9)
        candidate.bind(inputs?.learned, at: 10)
        candidate.bind(inputs?.lastPlayedMs, at: 11)
      }
      for (i, c) in d.candidates.enumerated() {
        try add(i, song: c.song, rejected: nil, inputs: c.inputs)
        for (k, value) in c.components.vector.enumerated() {
          candidate.bind(value, at: Int32(12 + k))
        }
        candidate.bind(c.baseScore, at: 19)
        candidate.bind(c.finalScore, at: 20)
        candidate.bind(c.propensity, at: 21)
        try candidate.run()
      }
      for (i, r) in d.rejected.enumerated() {
        try add(d.candidates.count + i, song: r.song, rejected: r.reason, inputs: r.inputs)
        for column in Int32(12)...21 { candidate.bind(Double?.none, at: column) }
        try candidate.run()
      }
    }
    return added
  }

  /// Every stored decision with its candidates, in the order they were made (by time, then
  /// the log's own numbering), within `range` of UTC milliseconds when given.
  package func decisionRecords(in range: Range<Int64>? = nil) throws(StoreError)
    -> [DecisionRecord]
  {
    let db = connection
    let lower = range?.lowerBound ?? .min
    let upper = range?.upperBound ?? .max
    var records: [DecisionRecord] = []
    var index: [Int64: Int] = [:]
    let decisions = try db.prepare(
      """
      SELECT id, decision, session, time_ms, offset_s, need, context, chosen, log_version,
        preferences, local_hour, stress, max_play_count, previous_bpm, previous_energy,
        previous_valence, recent_artists, heart_rate, baseline_heart_rate, bpm_ceiling,
        consecutive_skips, familiarity_boost, listened_ms, duration_ms, skipped, completed, arm,
        experiment_seed
      FROM dj_decisions WHERE time_ms >= ? AND time_ms < ?
      ORDER BY time_ms, import_id, decision
      """)
    try decisions.bind([lower, upper])
    let d = DecisionColumns(decisions)
    while try decisions.step() {
      let r = decisions.currentRow()
      var previous: SongFeatures?
      if let bpm = r.double(d.previousBPM), let energy = r.double(d.previousEnergy),
        let valence = r.double(d.previousValence)
      {
        previous = SongFeatures(bpm: bpm, energy: energy, valence: valence)
      }
      var adjuster: AdjusterState?
      if let skips = r.int64(d.consecutiveSkips) {
        adjuster = AdjusterState(
          baselineHeartRate: r.double(d.baselineHeartRate), bpmCeiling: r.double(d.bpmCeiling),
          consecutiveSkips: Int(skips), familiarityBoost: r.double(d.familiarityBoost) ?? 1)
      }
      var outcome: DecisionOutcome?
      if let listened = r.int64(d.listenedMs) {
        outcome = DecisionOutcome(
          listenedMs: listened, durationMs: r.int64(d.durationMs),
          skipped: r.int64(d.skipped) == 1, completed: r.int64(d.completed).map { $0 == 1 })
      }
      index[r.int64(d.id) ?? 0] = records.count
      records.append(
        DecisionRecord(
          time: r.timestamp(d.timeMs, offset: d.offsetS), decision: r.int(d.decision),
          session: r.int64(d.session).map(Int.init), need: r.text(d.need),
          context: r.text(d.context), chosen: r.text(d.chosen), outcome: outcome,
          version: r.int(d.logVersion),
          preferences: try r.text(d.preferences).map { text throws(StoreError) in
            try Self.decodedJSON(UserPreferences.self, from: text)
          },
          arm: r.text(d.arm),
          experimentSeed: r.int64(d.experimentSeed).map { UInt64(bitPattern: $0) },
          localHour: r.double(d.localHour), stress: r.double(d.stress),
          maxPlayCount: r.int64(d.maxPlayCount).map(Int.init), previous: previous,
          recentArtists: try Self.decodedJSON([String].self, from: r.string(d.recentArtists)),
          heartRate: r.double(d.heartRate), adjuster: adjuster))
    }
    decisions.reset()
    guard !records.isEmpty else { return records }
    let candidates = try db.prepare(
      """
      SELECT c.decision_id, c.song, c.rejected, c.artist, c.bpm, c.energy, c.valence, c.plays,
        c.learned, c.last_played_ms, c.c_bpm, c.c_energy, c.c_familiarity, c.c_historical,
        c.c_context, c.c_recency, c.c_time_of_day, c.base, c.score, c.p
      FROM dj_candidates c JOIN dj_decisions d ON d.id = c.decision_id
      WHERE d.time_ms >= ? AND d.time_ms < ?
      ORDER BY c.decision_id, c.position
      """)
    try candidates.bind([lower, upper])
    let c = CandidateColumns(candidates)
    var incomplete: Set<Int> = []
    while try candidates.step() {
      let r = candidates.currentRow()
      guard let at = index[r.int64(c.decisionID) ?? 0] else { continue }
      var inputs: CandidateInputs?
      if let artist = r.text(c.artist), let bpm = r.double(c.bpm), let energy = r.double(c.energy),
        let valence = r.double(c.valence), let plays = r.int64(c.plays)
      {
        inputs = CandidateInputs(
          artist: artist, features: SongFeatures(bpm: bpm, energy: energy, valence: valence),
          plays: Int(plays), learned: r.double(c.learned), lastPlayedMs: r.int64(c.lastPlayedMs))
      }
      if let reason = r.text(c.rejected) {
        records[at].rejected.append(
          RejectedCandidate(song: r.string(c.song), reason: reason, inputs: inputs))
      } else if r.double(c.components[0]) == nil || inputs == nil {  // c_bpm
        incomplete.insert(at)
      } else if let inputs {
        let values = c.components.map { r.double($0) ?? .nan }
        records[at].candidates.append(
          LoggedCandidate(
            song: r.string(c.song), inputs: inputs, components: ScoringComponents(vector: values),
            baseScore: r.double(c.base) ?? .nan, finalScore: r.double(c.score) ?? .nan,
            propensity: r.double(c.propensity) ?? .nan))
      }
    }
    candidates.reset()
    // An admitted candidate without its inputs (a line stored before schema 17 that lacked
    // them) would shift the list a replay scores: such a decision keeps no candidates, and
    // replay counts it as having none.
    for i in incomplete { records[i].candidates = [] }
    return records
  }

  /// Every stored decision's time, and the preferences it states (a log's first decision
  /// states its header's), in the order `decisionRecords(in:)` reads them: what reading the
  /// history a stretch at a time needs to know before it starts.
  package func decisionTimeline() throws(StoreError) -> [DecisionMark] {
    let statement = try connection.prepare(
      """
      SELECT time_ms, offset_s, preferences, arm FROM dj_decisions
      ORDER BY time_ms, import_id, decision
      """)
    var marks: [DecisionMark] = []
    while try statement.step() {
      let r = statement.currentRow()
      marks.append(
        DecisionMark(
          time: r.timestamp("time_ms", offset: "offset_s"),
          preferences: try r.text("preferences").map { text throws(StoreError) in
            try Self.decodedJSON(UserPreferences.self, from: text)
          }, arm: r.text("arm")))
    }
    return marks
  }

  /// The preferences in force: the last the decision log states outside an experiment's days
  /// (a decision that names an arm runs that arm's); nil when the log states none.
  package func preferencesInForce() throws(StoreError) -> UserPreferences? {
    guard
      let row = try connection.row(
        """
        SELECT preferences FROM dj_decisions WHERE preferences IS NOT NULL AND arm IS NULL
        ORDER BY time_ms DESC, import_id DESC, decision DESC LIMIT 1
        """)
    else { return nil }
    return try Self.decodedJSON(UserPreferences.self, from: row.string("preferences"))
  }

  /// Whether the store holds any DJ decision.
  package func hasDecisions() throws(StoreError) -> Bool {
    try connection.rows("SELECT 1 FROM dj_decisions LIMIT 1").isEmpty == false
  }

  /// The stored decisions (`decisionRecords(in:)`) with what followed each: the heart rate and
  /// HRV around the play it chose (as `resonance analyze` measured them) and its session's
  /// quality. A decision's play is the decision-log play of the same number that started
  /// within 90 s of it.
  package func decisionHistory(in range: Range<Int64>? = nil) throws(StoreError)
    -> DecisionHistory
  {
    let records = try decisionRecords(in: range)
    let lower = range?.lowerBound ?? .min
    let upper = range?.upperBound ?? .max
    struct Key: Hashable {
      var time: Int64
      var decision: Int64
    }
    var byDecision: [Key: PlayFollowUp] = [:]
    for r in try connection.rows(
      """
      SELECT d.time_ms, d.decision, b.hr_before, b.hr_during, b.hrv_before, b.hrv_during,
        s.quality_score
      FROM dj_decisions d
      JOIN playback_events p ON p.decision = d.decision
        AND p.start_ms BETWEEN d.time_ms - 90000 AND d.time_ms + 90000
      LEFT JOIN play_biometrics b ON b.play_id = p.id
      LEFT JOIN historical_sessions s ON s.id = p.session_id
      WHERE d.time_ms >= ? AND d.time_ms < ?
      ORDER BY p.id
      """, [lower, upper])
    {
      byDecision[Key(time: r.int64("time_ms") ?? 0, decision: r.int64("decision") ?? 0)] =
        PlayFollowUp(
          heartRateBefore: r.double("hr_before"), heartRateDuring: r.double("hr_during"),
          hrvBefore: r.double("hrv_before"), hrvDuring: r.double("hrv_during"),
          sessionQuality: r.double("quality_score"))
    }
    let followUps = records.map { record -> PlayFollowUp? in
      byDecision[Key(time: record.time.millisecondsSinceEpoch, decision: Int64(record.decision))]
    }
    return DecisionHistory(records: records, followUps: followUps)
  }

  /// JSON text for a stored value (`json(_:)`), failing as a `StoreError`.
  private static func storedJSON(_ value: some Encodable) throws(StoreError) -> String {
    do {
      return try json(value)
    } catch {
      throw StoreError(.sqlite(code: 20), message: "cannot encode a value as JSON: \(error)")
    }
  }

  private static func decodedJSON<T: Decodable>(_ type: T.Type, from text: String)
    throws(StoreError)
    -> T
  {
    do {
      return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    } catch {
      throw StoreError(
        .sqlite(code: 20), message: "a stored \(T.self) is not the JSON this build writes: \(text)")
    }
  }
}

/// A stored decision as `Store.decisionTimeline()` lists it.
package struct DecisionMark: Sendable, Equatable {
  /// When it was made, in the offset the person lived in.
  package var time: Timestamp
  /// The preferences its line (or its log's header) states; nil for most decisions.
  package var preferences: UserPreferences?
  /// The experiment's arm it ran (decision log version 3); nil outside an experiment's days.
  package var arm: String? = nil
}

/// The columns of `decisionRecords(in:)`'s decision query, found once for its rows: `tune`
/// reads every decision with its candidates, and looking each name up in every row made it
/// about 9% slower on a 12-month store.
private struct DecisionColumns {
  let id, decision, session, timeMs, offsetS, need, context, chosen, logVersion: Column
  let preferences, localHour, stress, maxPlayCount, recentArtists, heartRate: Column
  let previousBPM, previousEnergy, previousValence: Column
  let baselineHeartRate, bpmCeiling, consecutiveSkips, familiarityBoost: Column
  let listenedMs, durationMs, skipped, completed, arm, experimentSeed: Column

  init(_ statement: Statement) {
    let column = statement.column
    id = column("id")
    decision = column("decision")
    session = column("session")
    timeMs = column("time_ms")
    offsetS = column("offset_s")
    need = column("need")
    context = column("context")
    chosen = column("chosen")
    logVersion = column("log_version")
    preferences = column("preferences")
    localHour = column("local_hour")
    stress = column("stress")
    maxPlayCount = column("max_play_count")
    recentArtists = column("recent_artists")
    heartRate = column("heart_rate")
    previousBPM = column("previous_bpm")
    previousEnergy = column("previous_energy")
    previousValence = column("previous_valence")
    baselineHeartRate = column("baseline_heart_rate")
    bpmCeiling = column("bpm_ceiling")
    consecutiveSkips = column("consecutive_skips")
    familiarityBoost = column("familiarity_boost")
    listenedMs = column("listened_ms")
    durationMs = column("duration_ms")
    skipped = column("skipped")
    completed = column("completed")
    arm = column("arm")
    experimentSeed = column("experiment_seed")
  }
}

/// The columns of `decisionRecords(in:)`'s candidate query, found once for its rows (about
/// fifty per decision).
private struct CandidateColumns {
  let decisionID, song, rejected, artist, bpm, energy, valence, plays, learned: Column
  let lastPlayedMs, base, score, propensity: Column
  /// `ScoringComponents.vector`'s columns, in its order.
  let components: [Column]

  init(_ statement: Statement) {
    let column = statement.column
    decisionID = column("decision_id")
    song = column("song")
    rejected = column("rejected")
    artist = column("artist")
    bpm = column("bpm")
    energy = column("energy")
    valence = column("valence")
    plays = column("plays")
    learned = column("learned")
    lastPlayedMs = column("last_played_ms")
    base = column("base")
    score = column("score")
    propensity = column("p")
    components = [
      "c_bpm", "c_energy", "c_familiarity", "c_historical", "c_context", "c_recency",
      "c_time_of_day",
    ].map(column)
  }
}
