import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Store: nights, session outcomes and state ticks replaced with the analysis")
struct DerivedWriteTests {
  static func at(_ ms: Int64) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: ms, utcOffsetSeconds: 3600)
  }

  static func session(_ startMs: Int64) -> Store.SessionRow {
    Store.SessionRow(
      playIDs: [], start: at(startMs), end: at(startMs + 600_000), context: "relax",
      skipRate: 0.25, engagement: 0.8, meanHR: nil, meanHRV: nil, hrDelta: nil, hrvDelta: nil)
  }

  static func night(_ evening: String, efficiency: Double = 0.9) -> Store.NightRow {
    Store.NightRow(
      evening: evening, bedtime: at(80_000_000), wake: at(108_800_000),
      sleepOnset: at(81_000_000), timeInBedMs: 28_800_000, asleepMs: 25_920_000,
      efficiency: efficiency, deepShare: 0.15, remShare: 0.2, awakeMinutes: 48,
      primarySource: "Watch")
  }

  static func tick(_ session: Int, _ timeMs: Int64) -> Store.StateTickRow {
    Store.StateTickRow(
      session: session, timeMs: timeMs, arousal: 0.3, stress: nil, energy: nil, focus: 0.3,
      valence: nil, need: "calm", restingSource: "record", hrvFreshness: "missing",
      moodWeight: 0)
  }

  static func replace(_ store: Store, _ derived: Store.DerivedRows) throws {
    try store.replaceAnalysis(
      sessions: [session(0), session(3_600_000)], biometrics: [], effects: [], estimates: [],
      derived: derived, startedAt: 1, finishedAt: 2)
  }

  static let derived = Store.DerivedRows(
    nights: [night("1970-01-01"), night("1970-01-02")],
    outcomes: [
      Store.SessionOutcomeRow(
        nextNight: 1, sleepScore: 0.7, quality: 0.6, basis: ["skip", "engagement", "sleep"]),
      Store.SessionOutcomeRow(nextNight: nil, sleepScore: nil, quality: nil, basis: []),
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
        == Store.DerivedSummary(
          nights: 2, sessionsWithNextNight: 1, sessionsWithQuality: 1, meanQuality: 0.6, ticks: 3))
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
  }

  @Test("a rerun replaces every row; an empty derivation empties the tables")
  func rerun() throws {
    let store = try Store(path: ":memory:")
    try Self.replace(store, Self.derived)
    try Self.replace(store, Self.derived)
    #expect(try store.derivedSummary().ticks == 3)
    #expect(try store.derivedSummary().nights == 2)
    try Self.replace(store, Store.DerivedRows())
    #expect(
      try store.derivedSummary()
        == Store.DerivedSummary(
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
    broken.nights[1] = Self.night("1970-01-02", efficiency: 1.5)  // violates the table's CHECK
    #expect(throws: StoreError.self) { try Self.replace(store, broken) }
    let after = try store.connection.rows(
      "SELECT id, start_ms, next_night_id, quality_score FROM historical_sessions ORDER BY id"
    ).map { $0.values }
    #expect(after == before)
    #expect(try store.derivedSummary().ticks == 3)
    #expect(try store.connection.row("SELECT COUNT(*) FROM analysis_runs")?.int(0) == 1)
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
