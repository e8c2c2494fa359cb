import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Store: the DJ's decisions as columns, with what followed them")
struct DecisionStoreTests {
  /// 2022-06-01T15:00Z, ms.
  static let t0: Int64 = 1_654_095_600_000

  static func at(_ ms: Int64, offset: Int32 = -25_200) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: ms, utcOffsetSeconds: offset)
  }

  static func inputs(
    _ artist: String, bpm: Double, plays: Int = 3, learned: Double? = nil,
    lastPlayedMs: Int64? = nil
  ) -> CandidateInputs {
    CandidateInputs(
      artist: artist, features: SongFeatures(bpm: bpm, energy: 0.4, valence: 0.6), plays: plays,
      learned: learned, lastPlayedMs: lastPlayedMs)
  }

  static func admitted(
    _ song: String, _ inputs: CandidateInputs, components: [Double], base: Double,
    score: Double, p: Double
  ) -> LoggedCandidate {
    LoggedCandidate(
      song: song, inputs: inputs, components: ScoringComponents(vector: components),
      baseScore: base, finalScore: score, propensity: p)
  }

  /// Settings whose numbers are not round, so the stored JSON must keep them exactly.
  static let preferences: UserPreferences = {
    var settings = UserPreferences.appDefault
    settings.bpmWeight = 0.1 + 0.2
    settings.sameArtistLimit = 1
    settings.nightHardCapBPM = 104.5
    settings.policy = LoggingPolicy(kind: .epsilonGreedy, temperature: 0.05, epsilon: 0.15)
    return settings
  }()

  /// A version-2 decision with every field: settings, heart rate, the adjuster, no song
  /// before, two admitted candidates (the second chosen) and a rejected one with inputs.
  static let full = DecisionRecord(
    time: at(t0 + 60_000), decision: 5, session: 2, need: "calm", context: "relax",
    chosen: "song-b",
    outcome: DecisionOutcome(listenedMs: 4_100, durationMs: 231_000, skipped: true, completed: nil),
    version: 2, preferences: preferences, localHour: 8.013_888_888_888_889,
    stress: 0.615_800_000_000_000_1, maxPlayCount: 30, previous: nil,
    recentArtists: ["Momar", "Lota"], heartRate: 98.7,
    adjuster: AdjusterState(
      baselineHeartRate: 91.5, bpmCeiling: nil, consecutiveSkips: 2, familiarityBoost: 1.25),
    candidates: [
      admitted(
        "song-a", inputs("Lota", bpm: 114, plays: 9, learned: 0.1 + 0.2),
        components: [0.991_150_500_488_284_9, 0.911, 0.375, 0.5, 0.883, 0, 0],
        base: 0.764_237_625_122_071_2, score: 0.764_237_625_122_071_2,
        p: 0.070_347_628_128_835_34),
      admitted(
        "song-b", inputs("Nadia", bpm: 70, lastPlayedMs: t0 - 7_200_500),
        components: [0.99, 0.95, 0.125, 0.375, 0.95, 0.25, 0], base: 0.5, score: 0.5,
        p: 0.929_652_371_871_164_7),
    ],
    rejected: [
      RejectedCandidate(
        song: "song-c", reason: "same-artist", inputs: inputs("Momar", bpm: 101, plays: 4))
    ])

  /// A version-1 decision made earlier: no settings stated, no adjuster, a song before, a
  /// rejected candidate without inputs, no outcome.
  static let plain = DecisionRecord(
    time: at(t0), decision: 9, session: nil, need: nil, context: "general", chosen: "song-d",
    version: 1, localHour: 8, stress: 0.2, maxPlayCount: 12,
    previous: SongFeatures(bpm: 120, energy: 0.7, valence: 0.3),
    candidates: [
      admitted(
        "song-d", inputs("Ana", bpm: 96), components: [0.5, 0.5, 0.5, 0.5, 0.5, 0, 0.1],
        base: 0.4, score: 0.42, p: 1)
    ],
    rejected: [
      RejectedCandidate(song: "", reason: "missing-id"),
      RejectedCandidate(song: "song-e", reason: "played-recently"),
    ])

  /// A version-2 decision after both, with an adjuster's ceiling and a completed outcome.
  static let later = DecisionRecord(
    time: at(t0 + 3_600_000, offset: 3_600), decision: 6, session: 3, need: "energy",
    context: "workout", chosen: "song-f",
    outcome: DecisionOutcome(
      listenedMs: 180_000, durationMs: nil, skipped: false, completed: true),
    version: 2, localHour: 17, stress: 0.5, maxPlayCount: 30,
    previous: SongFeatures(bpm: 128, energy: 0.9, valence: 0.7), recentArtists: ["Ana"],
    heartRate: 120,
    adjuster: AdjusterState(
      baselineHeartRate: nil, bpmCeiling: 140, consecutiveSkips: 0, familiarityBoost: 1),
    candidates: [
      admitted(
        "song-f", inputs("Ben", bpm: 130), components: [1, 1, 0, 0.5, 1, 0, 0], base: 0.6,
        score: 0.63, p: 1)
    ])

  /// Imports `records` as one decision log, through the import path `resonance ingest` takes.
  @discardableResult
  static func importLog(
    _ store: Store, _ records: [DecisionRecord], name: String, added: Int? = nil
  ) throws -> Int64 {
    let unit = try store.beginImport(file: name, format: .recording(.decisionLog))
    try unit.write(
      .recording(
        TraceFile(
          format: "resonance.decision-log", version: records.first?.version ?? 2,
          started: records.first?.time, samples: records.count, content: .decisions(records))))
    let (outcome, counts) = try unit.commit(
      sha256: String(repeating: name.hasPrefix("a") ? "a" : "b", count: 64), bytes: 100,
      warnings: 0)
    #expect(counts.samples == (added ?? records.count), "the decisions the import added")
    guard case .imported = outcome else {
      Issue.record("expected an import, found \(outcome)")
      return 0
    }
    return unit.importID
  }

  /// A store holding `full` and `later` from one log, and `plain` from another.
  static func store() throws -> Store {
    let store = try Store(path: ":memory:")
    try importLog(store, [full, later], name: "a.jsonl")
    try importLog(store, [plain], name: "b.jsonl")
    return store
  }

  @Test("decisions read back exactly as imported, every field, in the order they were made")
  func roundTrip() throws {
    let store = try Self.store()
    let records = try store.decisionRecords()
    #expect(records.map(\.decision) == [9, 5, 6], "by time across logs")
    #expect(records == [Self.plain, Self.full, Self.later])
    // The parts a reader of the log would look at first, spelt out.
    let full = try #require(records.dropFirst().first)
    #expect(full.preferences?.bpmWeight.bitPattern == (0.1 + 0.2).bitPattern)
    #expect(full.preferences == Self.preferences)
    #expect(full.candidates.map(\.song) == ["song-a", "song-b"])
    #expect(full.rejected.map(\.song) == ["song-c"])
    #expect(full.adjuster?.bpmCeiling == nil && full.adjuster?.consecutiveSkips == 2)
    #expect(full.outcome?.completed == nil)
    #expect(records[0].adjuster == nil)
    #expect(records[0].preferences == nil)
    #expect(records[0].rejected.map(\.inputs) == [nil, nil])
    #expect(records[2].outcome?.durationMs == nil)
    #expect(records[2].time.utcOffsetSeconds == 3_600)
  }

  @Test(
    "a version-3 decision keeps its arm and its plan's seed, a seed above 2⁶³ too; a log imported again as it grew stores only its new decisions"
  )
  func armsAndGrowth() throws {
    let store = try Store(path: ":memory:")
    var armed = Self.later
    armed.version = 3
    armed.arm = "candidate"
    armed.experimentSeed = UInt64.max - 4
    var next = Self.later
    next.version = 3
    next.decision = 7
    next.time = Self.at(Self.t0 + 7_200_000)
    next.arm = "in-force"
    next.experimentSeed = UInt64.max - 4
    try Self.importLog(store, [Self.full, armed], name: "a.jsonl")
    // The same month's log, exported again a day later with one more decision.
    try Self.importLog(store, [Self.full, armed, next], name: "b.jsonl", added: 1)
    let records = try store.decisionRecords()
    #expect(records == [Self.full, armed, next])
    #expect(records.map(\.arm) == [nil, "candidate", "in-force"])
    #expect(records[1].experimentSeed == UInt64.max - 4)
    let rows = try store.connection.rows("SELECT count(*) AS n FROM dj_candidates")
    #expect(rows.first?.int64("n") == 5, "candidates of the decisions stored once")
  }

  @Test("rejected candidates are stored after the admitted, one row each, in playlist order")
  func candidateRows() throws {
    let store = try Self.store()
    let rows = try store.connection.rows(
      """
      SELECT d.decision, c.position, c.song, COALESCE(c.rejected, '-')
      FROM dj_candidates c JOIN dj_decisions d ON d.id = c.decision_id
      ORDER BY d.decision, c.position
      """
    ).map { "\($0.int(0)):\($0.int(1)) \($0.string(2)) \($0.string(3))" }
    #expect(
      rows == [
        "5:0 song-a -", "5:1 song-b -", "5:2 song-c same-artist", "6:0 song-f -",
        "9:0 song-d -", "9:1  missing-id", "9:2 song-e played-recently",
      ])
  }

  @Test("a range of UTC milliseconds keeps the decisions made within it, the end left out")
  func range() throws {
    let store = try Self.store()
    let t0 = Self.t0
    #expect(try store.decisionRecords(in: t0..<(t0 + 60_001)).map(\.decision) == [9, 5])
    #expect(try store.decisionRecords(in: (t0 + 1)..<(t0 + 3_600_000)).map(\.decision) == [5])
    #expect(try store.decisionRecords(in: (t0 + 60_000)..<(t0 + 60_001)) == [Self.full])
    #expect(try store.decisionRecords(in: 0..<t0).isEmpty)
    let history = try store.decisionHistory(in: (t0 + 60_001)..<(t0 + 4_000_000))
    #expect(history.records == [Self.later])
  }

  @Test("an empty store has no decisions and an empty history")
  func empty() throws {
    let store = try Store(path: ":memory:")
    #expect(try store.decisionRecords().isEmpty)
    #expect(try store.decisionHistory() == DecisionHistory(records: [], followUps: []))
  }

  /// Adds a play of `song` chosen by decision `decision` at `startMs`, in a session of
  /// quality `quality`, with heart rate and HRV around it when `biometrics` is given.
  static func addPlay(
    _ store: Store, importID: Int64, decision: Int?, startMs: Int64, quality: Double?,
    biometrics: (hrBefore: Double, hrDuring: Double, hrvBefore: Double, hrvDuring: Double)?
  ) throws {
    let db = store.connection
    try db.execute(
      """
      INSERT INTO historical_sessions (start_ms, start_offset_s, end_ms, end_offset_s, context,
        play_count, quality_score) VALUES (?, 0, ?, 0, 'relax', 1, ?)
      """, [startMs, startMs + 200_000, quality])
    let session = db.lastInsertRowID
    try db.execute(
      "INSERT INTO songs (identity_key, title) VALUES (?, ?)", ["title:\(startMs)|", "A song"])
    let song = db.lastInsertRowID
    try db.execute(
      """
      INSERT INTO playback_events (import_id, song_id, session_id, source, sources, start_ms,
        start_offset_s, offset_source, end_ms, end_offset_s, was_skipped, decision)
      VALUES (?, ?, ?, 'resonance', 'resonance', ?, 0, 'source', ?, 0, 0, ?)
      """, [importID, song, session, startMs, startMs + 200_000, decision])
    let play = db.lastInsertRowID
    if let b = biometrics {
      try db.execute(
        """
        INSERT INTO play_biometrics (play_id, hr_before, hr_during, hr_samples_before,
          hr_samples_during, hrv_before, hrv_during, hrv_samples_before, hrv_samples_during)
        VALUES (?, ?, ?, 12, 36, ?, ?, 2, 3)
        """, [play, b.hrBefore, b.hrDuring, b.hrvBefore, b.hrvDuring])
    }
  }

  @Test(
    "each decision carries the heart rate, HRV and session quality of the play it chose, within 90 s"
  )
  func followUps() throws {
    let store = try Store(path: ":memory:")
    let id = try Self.importLog(store, [Self.full, Self.later], name: "a.jsonl")
    try Self.importLog(store, [Self.plain], name: "b.jsonl")
    let t0 = Self.t0
    // `full` (decision 5, at t0 + 60 s): its play starts 80 s later.
    try Self.addPlay(
      store, importID: id, decision: 5, startMs: t0 + 140_000, quality: 0.75,
      biometrics: (72, 68.5, 41, 47.25))
    // `later` (decision 6): a play of that number 2 minutes on, and one of another number.
    try Self.addPlay(
      store, importID: id, decision: 6, startMs: t0 + 3_720_000, quality: 0.5,
      biometrics: (90, 110, 30, 25))
    try Self.addPlay(
      store, importID: id, decision: 7, startMs: t0 + 3_600_500, quality: 0.5,
      biometrics: (90, 110, 30, 25))
    // `plain` (decision 9): a play 30 s before it, in a session without a quality.
    try Self.addPlay(
      store, importID: id, decision: 9, startMs: t0 - 30_000, quality: nil,
      biometrics: (60, 62, 50, 55))
    let history = try store.decisionHistory()
    #expect(history.records.map(\.decision) == [9, 5, 6])
    #expect(
      history.followUps == [
        PlayFollowUp(
          heartRateBefore: 60, heartRateDuring: 62, hrvBefore: 50, hrvDuring: 55,
          sessionQuality: nil),
        PlayFollowUp(
          heartRateBefore: 72, heartRateDuring: 68.5, hrvBefore: 41, hrvDuring: 47.25,
          sessionQuality: 0.75),
        nil,
      ])
  }

  /// A version-1 line as `resonance ingest` stored it before 0017.
  static let storedLine = """
    {"t":"2022-06-01T15:18:49.033Z","offset":-25200,"decision":3,"session":1,"need":"calm",\
    "context":"relax","local_hour":8.3136,"stress":0.6158,"max_play_count":30,\
    "previous":{"bpm":100,"energy":0.5,"valence":0.25},"recent_artists":["Momar","Lota"],\
    "candidates":[{"song":"111","artist":"Lota","bpm":114,"energy":0.611,"valence":0.455,\
    "plays":9,"learned":null,"last_played":null,\
    "c":[0.991151,0.911,0.375,0.5,0.883,0,0],"base":0.764238,"score":0.692967,"p":0.25},\
    {"song":"222","artist":"Nadia","bpm":70,"energy":0.25,"valence":0.5,"plays":2,\
    "learned":-0.25,"last_played":"2022-06-01T14:00:00.500Z",\
    "c":[0.991151,0.95,0.125,0.375,0.95,0.25,0],"base":0.512345,"score":0.57864,"p":0.75}],\
    "rejected":[{"song":"333","reason":"same-artist"}],"chosen":"222",\
    "outcome":{"listened_ms":4100,"duration_ms":231000,"skipped":true,"completed":false}}
    """

  @Test(
    "0017 takes a stored version-1 line apart into columns and candidate rows, then drops the line"
  )
  func migration() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("older.sqlite")
    do {
      let db = try Connection(path: path)
      try db.execute("PRAGMA foreign_keys = ON")
      let shipped = Array(Schema.migrations.prefix { $0.name != "0017-decision-candidates" })
      try #require(shipped.count == 16)
      try Migrator(shipped).migrate(db, now: 1)
      try db.execute(
        """
        INSERT INTO imports (id, file, bytes, sha256, importer, status, started_at_ms,
          finished_at_ms) VALUES (1, 'decisions.jsonl', 10, ?, 'resonance.decision-log',
          'complete', 0, 0)
        """, [String(repeating: "c", count: 64)])
      try db.execute(
        """
        INSERT INTO dj_decisions (import_id, decision, session, time_ms, offset_s, need,
          context, chosen, line) VALUES (1, 3, 1, 1654096729033, -25200, 'calm', 'relax',
          '222', ?)
        """, [Self.storedLine])
    }
    let store = try Store(path: path, now: 2)
    #expect(try store.schemaVersion() == Schema.currentVersion)
    let columns = try store.connection.rows("PRAGMA table_info(dj_decisions)").map {
      $0.string(1)
    }
    #expect(!columns.contains("line"))
    #expect(columns.contains("log_version") && columns.contains("familiarity_boost"))
    let records = try store.decisionRecords()
    try #require(records.count == 1)
    let record = records[0]
    #expect(record.version == 1)
    #expect(record.preferences == nil)
    #expect(record.time == Self.at(1_654_096_729_033))
    #expect(record.decision == 3 && record.session == 1 && record.chosen == "222")
    #expect(record.localHour == 8.3136 && record.stress == 0.6158 && record.maxPlayCount == 30)
    #expect(record.previous == SongFeatures(bpm: 100, energy: 0.5, valence: 0.25))
    #expect(record.recentArtists == ["Momar", "Lota"])
    #expect(record.heartRate == nil && record.adjuster == nil)
    #expect(
      record.outcome
        == DecisionOutcome(listenedMs: 4_100, durationMs: 231_000, skipped: true, completed: false)
    )
    #expect(
      record.candidates == [
        Self.admitted(
          "111",
          CandidateInputs(
            artist: "Lota", features: SongFeatures(bpm: 114, energy: 0.611, valence: 0.455),
            plays: 9, learned: nil, lastPlayedMs: nil),
          components: [0.991151, 0.911, 0.375, 0.5, 0.883, 0, 0], base: 0.764238,
          score: 0.692967, p: 0.25),
        Self.admitted(
          "222",
          CandidateInputs(
            artist: "Nadia", features: SongFeatures(bpm: 70, energy: 0.25, valence: 0.5),
            plays: 2, learned: -0.25, lastPlayedMs: 1_654_092_000_500),
          components: [0.991151, 0.95, 0.125, 0.375, 0.95, 0.25, 0], base: 0.512345,
          score: 0.57864, p: 0.75),
      ])
    #expect(record.rejected == [RejectedCandidate(song: "333", reason: "same-artist")])
    #expect(record.chosenArtist == "Nadia")
  }

  @Test("0017 on a store at version 16 without decisions adds the tables and nothing else")
  func migrationWithoutDecisions() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("older.sqlite")
    do {
      let db = try Connection(path: path)
      try Migrator(Array(Schema.migrations.prefix(16))).migrate(db, now: 1)
    }
    let store = try Store(path: path, now: 2)
    #expect(try store.decisionRecords().isEmpty)
    #expect(try store.connection.row("SELECT COUNT(*) FROM dj_candidates")?.int(0) == 0)
  }
}
