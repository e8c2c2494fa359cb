import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

extension AnalyzeCommandTests {
  /// Every derived row a user could read, without the row ids a rebuild renumbers.
  static func derivedDump(_ db: String) throws -> [String: [[SQLiteValue]]] {
    let store = try Store(path: db)
    let queries = [
      "sessions": """
      SELECT start_ms, end_ms, context, play_count, skip_rate, engagement, mean_hr, mean_hrv,
        hr_delta, hrv_delta, sleep_correlation_score, quality_score, quality_basis, inputs_digest
      FROM historical_sessions ORDER BY start_ms
      """,
      "plays": """
      SELECT p.id, s.start_ms FROM playback_events p
      LEFT JOIN historical_sessions s ON s.id = p.session_id ORDER BY p.id
      """,
      "biometrics": "SELECT * FROM play_biometrics ORDER BY play_id",
      "ticks": """
      SELECT s.start_ms, t.time_ms, t.arousal, t.stress, t.energy, t.focus, t.valence, t.need,
        t.resting_source, t.hrv_freshness, t.mood_weight
      FROM state_ticks t JOIN historical_sessions s ON s.id = t.session_id ORDER BY 1, 2
      """,
      "nights": """
      SELECT s.start_ms, n.evening FROM historical_sessions s
      LEFT JOIN sleep_nights n ON n.id = s.next_night_id ORDER BY 1
      """,
      "estimates": "SELECT * FROM song_effect_estimates ORDER BY song_id, signal",
      "effects": "SELECT * FROM song_effects ORDER BY song_id, context",
    ]
    return try queries.mapValues { try store.connection.rows($0).map(\.values) }
  }

  @Test(
    "a new month of Watch data: the sessions it cannot touch are kept, and the tables equal a rebuild"
  )
  func incremental() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    _ = runResonance([
      "synth", "--out", data, "--months", "2", "--scale", "0.05", "--songs", "80", "--seed", "9",
      "-q",
    ])
    // The second month's Watch trace arrives later.
    let watch = data + "/resonance/watch"
    let months = try FileManager.default.contentsOfDirectory(atPath: watch).sorted()
    #expect(months.count >= 2)
    let late = folder.file(months.last!)
    try FileManager.default.moveItem(atPath: watch + "/" + months.last!, toPath: late)
    try FileManager.default.removeItem(atPath: data + "/truth.json")

    let db = folder.file("d.sqlite")
    #expect(runResonance(["ingest", data, "--db", db, "-q"]).status == .ok)
    #expect(runResonance(["analyze", "--db", db, "-q"]).status == .ok)
    let firstIDs = try Store(path: db).connection.rows(
      "SELECT id, start_ms FROM historical_sessions ORDER BY id"
    ).map { ($0.int(0), $0.int(1)) }

    #expect(runResonance(["ingest", late, "--db", db, "-q"]).status == .ok)
    let result = runResonance(["analyze", "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let kept = try #require(object["sessions_kept"] as? Int)
    let sessions = try #require(object["sessions"] as? Int)
    // The first month's sessions are kept: the new data comes after them, and a session's rows
    // only look back. The second month's are computed again.
    #expect(kept > sessions / 4 && kept < sessions, "kept \(kept) of \(sessions)")

    // Kept sessions keep their rows and say which run computed them.
    let store = try Store(path: db)
    let runs = try store.connection.rows(
      "SELECT analysis_run_id, COUNT(*) FROM historical_sessions GROUP BY 1 ORDER BY 1"
    ).map { [$0.int(0), $0.int(1)] }
    #expect(runs == [[1, kept], [2, sessions - kept]])
    let keptIDs = try store.connection.rows(
      "SELECT id, start_ms FROM historical_sessions WHERE analysis_run_id = 1 ORDER BY id"
    ).map { ($0.int(0), $0.int(1)) }
    #expect(keptIDs.allSatisfy { kept in firstIDs.contains { $0 == kept } })
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)

    // Everything equals what a rebuild from scratch computes.
    let rebuilt = folder.file("rebuilt.sqlite")
    try FileManager.default.copyItem(atPath: db, toPath: rebuilt)
    #expect(runResonance(["analyze", "--db", rebuilt, "--rebuild", "-q"]).status == .ok)
    let incremental = try Self.derivedDump(db)
    let full = try Self.derivedDump(rebuilt)
    for table in full.keys.sorted() {
      let a = incremental[table] ?? []
      let b = full[table] ?? []
      let first = a.indices.first { $0 < b.count && a[$0] != b[$0] }
      #expect(
        a.count == b.count && first == nil,
        "\(table): \(a.count) rows against a rebuild's \(b.count); first difference at row \(first.map(String.init) ?? "-")"
      )
    }
    #expect(
      try Store(path: rebuilt).connection.row(
        "SELECT sessions_kept FROM analysis_runs ORDER BY id DESC LIMIT 1")?.int(0) == 0)
  }
}

extension AnalyzeCommandTests {
  @Test("a Music library imported after an analysis merges songs that already have estimates")
  func libraryAfterAnalysis() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    _ = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "80", "--seed", "9",
      "-q",
    ])
    let library =
      data + "/Apple Media Services/Apple Music Activity/Apple Music Library Tracks.json"
    let late = folder.file("Apple Music Library Tracks.json")
    try FileManager.default.moveItem(atPath: library, toPath: late)
    try FileManager.default.removeItem(atPath: data + "/truth.json")

    let db = folder.file("d.sqlite")
    #expect(runResonance(["ingest", data, "--db", db, "-q"]).status == .ok)
    #expect(runResonance(["analyze", "--db", db, "-q"]).status == .ok)
    let store = try Store(path: db)
    let estimated =
      try store.connection.row(
        "SELECT COUNT(*) FROM song_effect_estimates")?.int(0) ?? 0
    #expect(estimated > 0)

    // The library names the songs the play history only titled: songs merge, and the merged
    // ones' estimates go with them until the next analysis.
    let result = runResonance(["ingest", late, "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let merged = try #require(
      ((try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])?[
        "imports"] as? [[String: Any]])?.first?["songs_merged"] as? Int)
    #expect(merged > 0)
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(runResonance(["analyze", "--db", db, "-q"]).status == .ok)
  }
}
