import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Store: nights, session outcomes and state ticks replaced with the analysis")
struct DerivedWriteTests {
  static func at(_ ms: Int64) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: ms, utcOffsetSeconds: 3600)
  }

  static func session(_ startMs: Int64) -> AnalysedSession {
    let none = SignalChange(before: nil, during: nil, samplesBefore: 0, samplesDuring: 0)
    return AnalysedSession(
      biometrics: SessionBiometrics(
        session: ListeningSession(
          playIDs: [], start: at(startMs), endMs: startMs + 600_000, context: .relax,
          skipRate: 0.25, engagement: 0.8),
        heartRate: none, hrv: none),
      inputsDigest: nil)
  }

  /// A night of 8 hours in bed, 7.2 asleep (`asleepShare` of it), from 1970-01-01 + `day`.
  static func night(_ day: Int64, asleepShare: Double = 0.9) -> NightSleep {
    NightSleep(
      bedtime: at(80_000_000 + day * 86_400_000), wake: at(108_800_000 + day * 86_400_000),
      eveningDay: day, sleepOnset: at(81_000_000 + day * 86_400_000),
      asleepMs: Int64(asleepShare * 28_800_000), stagedMs: 20_000_000, deepMs: 3_000_000,
      remMs: 4_000_000, primarySource: "Watch")
  }

  static func tick(_ session: Int, _ timeMs: Int64) -> StateTick {
    StateTick(
      timeMs: timeMs, period: session, context: .relax,
      state: StateVector(arousal: 0.3, stress: nil, energy: nil, focus: 0.3, valence: nil),
      need: .calm,
      evidence: StateEvidence(
        heartRate: nil, restingHeartRate: 60, restingSource: .record, maxHeartRate: 180,
        isAgeKnown: true, hrv: nil, hrvFreshness: .missing, mood: nil, moodWeight: 0))
  }

  static func replace(_ store: Store, _ derived: AnalysisResults) throws {
    var results = derived
    results.sessions = [session(0), session(3_600_000)]
    try store.replaceAnalysis(results, startedAt: 1, finishedAt: 2)
  }

  static let derived = AnalysisResults(
    nights: [night(0), night(1)],
    outcomes: [
      SessionOutcome(
        nextNight: 1, sleepScore: 0.7, quality: 0.6, basis: [.skip, .engagement, .sleep]),
      SessionOutcome(nextNight: nil, sleepScore: nil, quality: nil, basis: []),
    ],
    ticks: [tick(0, 0), tick(0, 30_000), tick(1, 3_600_000)])

  @Test("sessions point at their night by row id; ticks at their session; the summary counts")
  func written() throws {
    let store = try Store(path: ":memory:")
    try Self.replace(store, Self.derived)
    let rows = try store.connection.rows(
      """
      SELECT n.evening, s.sleep_correlation_score, s.quality_score, s.quality_basis
      FROM historical_sessions s LEFT JOIN sleep_nights n ON n.id = s.next_night_id
      ORDER BY s.start_ms
      """
    ).map {
      "\($0[0].string ?? "-") \($0[1].double ?? -1) \($0[2].double ?? -1) \($0[3].string ?? "-")"
    }
    #expect(rows == ["1970-01-02 0.7 0.6 skip,engagement,sleep", "- -1.0 -1.0 -"])
    let ticks = try store.connection.rows(
      """
      SELECT s.start_ms, t.time_ms FROM state_ticks t
      JOIN historical_sessions s ON s.id = t.session_id ORDER BY t.time_ms
      """
    ).map { "\($0.int(0))@\($0.int(1))" }
    #expect(ticks == ["0@0", "0@30000", "3600000@3600000"])
    #expect(
      try store.derivedSummary()
        == DerivedSummary(
          nights: 2, sessionsWithNextNight: 1, sessionsWithQuality: 1, meanQuality: 0.6, ticks: 3))
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
  }

  @Test("a playlist's contexts are stored as JSON keyed by the contexts' spellings, sorted")
  func playlistContexts() throws {
    let store = try Store(path: ":memory:")
    try store.connection.execute("INSERT INTO playlists (name) VALUES ('evening')")
    var results = Self.derived
    results.playlistScores = [
      PlaylistEntityScores(
        playlistID: 1, calm: 0.5, focus: nil, energy: nil,
        contexts: [.preSleep: 0.5, .deepWork: 0.25, .commute: 0.25])
    ]
    try Self.replace(store, results)
    let row = try store.connection.row("SELECT context_associations FROM playlists")
    #expect(row?.string(0) == #"{"commute":0.25,"deep-work":0.25,"pre-sleep":0.5}"#)
  }

  @Test("per-context song effects are written whole and read back by song, signal and context")
  func contextEstimates() throws {
    let store = try Store(path: ":memory:")
    try store.connection.execute(
      "INSERT INTO songs (id, identity_key, title) VALUES (1, 'a', 'A'), (2, 'b', 'B')")
    func estimate(_ song: Int64, _ context: ActivityContext, _ value: Double)
      -> SongContextEffectEstimate
    {
      SongContextEffectEstimate(
        songID: song, signal: .heartRate, context: context, plays: 4, minutes: 12,
        unpooled: value * 2, overall: -1, estimate: value, sd: 0.5, low90: value - 0.8,
        high90: value + 0.8)
    }
    var results = Self.derived
    results.contextEstimates = [
      estimate(2, .commute, 0.4), estimate(1, .relax, -3), estimate(1, .commute, -0.5),
    ]
    try Self.replace(store, results)
    let read = try store.contextEffectEstimates()
    #expect(
      read
        == results.contextEstimates.sorted {
          ($0.songID, $0.context.rawValue) < ($1.songID, $1.context.rawValue)
        })
    try Self.replace(store, Self.derived)
    #expect(try store.contextEffectEstimates().isEmpty)
  }

  @Test("a rerun replaces every row; an empty derivation empties the tables")
  func rerun() throws {
    let store = try Store(path: ":memory:")
    try Self.replace(store, Self.derived)
    try Self.replace(store, Self.derived)
    #expect(try store.derivedSummary().ticks == 3)
    #expect(try store.derivedSummary().nights == 2)
    try Self.replace(store, AnalysisResults())
    #expect(
      try store.derivedSummary()
        == DerivedSummary(
          nights: 0, sessionsWithNextNight: 0, sessionsWithQuality: 0, meanQuality: nil, ticks: 0))
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
  }

  @Test("a failing write leaves the store as it was: sessions, nights and ticks")
  func atomic() throws {
    let store = try Store(path: ":memory:")
    try Self.replace(store, Self.derived)
    let before = try store.connection.rows(
      "SELECT id, start_ms, next_night_id, quality_score FROM historical_sessions ORDER BY id"
    ).map { $0.values }
    var broken = Self.derived
    broken.nights[1] = Self.night(1, asleepShare: 1.5)  // efficiency 1.5 breaks the table's CHECK
    #expect(throws: StoreError.self) { try Self.replace(store, broken) }
    let after = try store.connection.rows(
      "SELECT id, start_ms, next_night_id, quality_score FROM historical_sessions ORDER BY id"
    ).map { $0.values }
    #expect(after == before)
    #expect(try store.derivedSummary().ticks == 3)
    #expect(try store.connection.row("SELECT COUNT(*) FROM analysis_runs")?.int(0) == 1)
  }

  @Test("0023 makes an earlier analysis stale, so the next analyze fills the per-context table")
  func upgradeContexts() throws {
    let db = try Connection(path: ":memory:")
    let shipped = Array(Schema.migrations.prefix { $0.name != "0023-song-context-estimates" })
    #expect(shipped.count == 22)
    try Migrator(shipped).migrate(db, now: 1)
    try db.execute(
      """
      INSERT INTO analysis_runs (started_at_ms, finished_at_ms, last_import_id, plays, sessions)
      VALUES (1, 2, 7, 0, 0)
      """)
    let through23 = Array(Schema.migrations.prefix(23))
    #expect(try Migrator(through23).migrate(db, now: 2) == ["0023-song-context-estimates"])
    #expect(try db.row("SELECT last_import_id FROM analysis_runs")?.int(0) == -1)
    #expect(try db.row("SELECT COUNT(*) FROM song_context_effect_estimates")?.int(0) == 0)
  }

  @Test("0011 upgrades a store at version 10: sessions keep their rows, with no outcome yet")
  func upgrade() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("PRAGMA foreign_keys = ON")
    let shipped = Array(Schema.migrations.prefix { $0.name != "0011-nights-and-states" })
    #expect(shipped.count == 10)
    try Migrator(shipped).migrate(db, now: 1)
    try db.execute(
      """
      INSERT INTO historical_sessions (start_ms, start_offset_s, end_ms, end_offset_s, context,
        play_count) VALUES (0, 0, 60000, 0, 'general', 0)
      """)
    #expect(
      try Migrator(Array(Schema.migrations.prefix(11))).migrate(db, now: 2) == [
        "0011-nights-and-states"
      ])
    let row = try db.row(
      "SELECT COUNT(*), MAX(next_night_id), MAX(quality_basis) FROM historical_sessions")
    #expect(row?.int(0) == 1 && row?[1] == .null && row?[2] == .null)
    #expect(try db.row("SELECT COUNT(*) FROM state_ticks")?.int(0) == 0)
    #expect(try db.row("PRAGMA user_version")?.int(0) == 11)
  }
}
