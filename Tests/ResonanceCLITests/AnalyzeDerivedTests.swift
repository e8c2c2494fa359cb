import Foundation
import ResonanceModel
import ResonanceReports
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

extension AnalyzeCommandTests {
  @Test(
    "nights with plausible efficiency, sessions with quality and basis, ticks 30 s apart; reruns replace"
  )
  func nightsQualityAndTicks() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    _ = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "80", "--seed", "5",
      "-q",
    ])
    let db = folder.file("d.sqlite")
    _ = runResonance(["ingest", data, "--db", db, "-q"])
    let result = runResonance(["analyze", "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let store = try Store(path: db)
    func count(_ sql: String) throws -> Int { try store.connection.row(sql)?.int(0) ?? -1 }

    // Nights: about one per evening of the month, each plausible.
    let nights = try count("SELECT COUNT(*) FROM sleep_nights")
    #expect(nights >= 20)
    #expect(object["nights"] as? Int == nights)
    #expect(
      try count(
        """
        SELECT COUNT(*) FROM sleep_nights
        WHERE efficiency IS NULL OR efficiency NOT BETWEEN 0 AND 1 OR wake_ms <= bedtime_ms
          OR time_in_bed_ms != wake_ms - bedtime_ms
        """) == 0)

    // Sessions: quality on 0…1 with the components behind it; most have a next night.
    let sessions = try count("SELECT COUNT(*) FROM historical_sessions")
    #expect(
      try count(
        """
        SELECT COUNT(*) FROM historical_sessions
        WHERE quality_score IS NULL OR quality_score NOT BETWEEN 0 AND 1
          OR quality_basis IS NULL OR quality_basis NOT LIKE 'skip%'
        """) == 0)
    let withNight = try count("SELECT COUNT(next_night_id) FROM historical_sessions")
    #expect(withNight > sessions / 2)
    #expect(object["sessions_with_next_night"] as? Int == withNight)
    #expect(
      try count(
        """
        SELECT COUNT(*) FROM historical_sessions
        WHERE (next_night_id IS NULL) != (sleep_correlation_score IS NULL)
          OR (sleep_correlation_score IS NOT NULL) != (quality_basis LIKE '%sleep')
        """) == 0)
    let mean = try #require(object["mean_session_quality"] as? Double)
    #expect(mean > 0 && mean < 1)

    // Ticks: every session has them, 30 s apart, from its start, none at or after its end.
    let ticks = try count("SELECT COUNT(*) FROM state_ticks")
    #expect(object["state_ticks"] as? Int == ticks)
    #expect(try count("SELECT COUNT(DISTINCT session_id) FROM state_ticks") == sessions)
    #expect(
      try count(
        """
        SELECT COUNT(*) FROM state_ticks t JOIN historical_sessions s ON s.id = t.session_id
        WHERE (t.time_ms - s.start_ms) % 30000 != 0 OR t.time_ms < s.start_ms
          OR (t.time_ms >= s.end_ms AND t.time_ms != s.start_ms)
        """) == 0)
    #expect(
      try count(
        """
        SELECT COUNT(*) FROM state_ticks t JOIN historical_sessions s ON s.id = t.session_id
        WHERE t.time_ms > s.start_ms AND NOT EXISTS (
          SELECT 1 FROM state_ticks p WHERE p.session_id = t.session_id
            AND p.time_ms = t.time_ms - 30000)
        """) == 0)
    #expect(
      try count(
        """
        SELECT COUNT(*) FROM state_ticks
        WHERE arousal NOT BETWEEN 0 AND 1 OR stress NOT BETWEEN 0 AND 1
          OR valence NOT BETWEEN 0 AND 1 OR mood_weight NOT BETWEEN 0 AND 0.7
        """) == 0)

    // Nothing imported since: the tables are up to date and left alone.
    let runs = try count("SELECT COUNT(*) FROM analysis_runs")
    let again = runResonance(["analyze", "--db", db])
    #expect(again.status == .ok && again.out.contains("up to date"), "\(again.err)")
    #expect(try count("SELECT COUNT(*) FROM analysis_runs") == runs)

    // A rebuild replaces: the same counts, nothing dangling; the summary names them.
    let rebuilt = runResonance(["analyze", "--db", db, "--rebuild"])
    #expect(rebuilt.status == .ok)
    #expect(try count("SELECT COUNT(*) FROM analysis_runs") == runs + 1)
    #expect(try count("SELECT COUNT(*) FROM sleep_nights") == nights)
    #expect(try count("SELECT COUNT(*) FROM state_ticks") == ticks)
    #expect(try count("SELECT COUNT(next_night_id) FROM historical_sessions") == withNight)
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(rebuilt.out.contains("\(nights) nights of sleep"), "\(rebuilt.out)")
    #expect(rebuilt.out.contains("state ticks"))

    // --from/--to keep only the plays starting in those days, in the local time each was
    // lived in.
    let plays = try count("SELECT COUNT(*) FROM playback_events")
    let first = try count("SELECT MIN(start_ms) FROM playback_events") / 86_400_000
    let day = { (ms: Int) in
      String(Timestamp.iso8601UTC(millisecondsSinceEpoch: Int64(ms)).prefix(10))
    }
    let from = day((first + 3) * 86_400_000)
    let to = day((first + 10) * 86_400_000)
    let inWindow = try count(
      """
      SELECT COUNT(*) FROM playback_events
      WHERE start_ms + start_offset_s * 1000 >= \((first + 3) * 86_400_000)
        AND start_ms + start_offset_s * 1000 < \((first + 10) * 86_400_000)
      """)
    // Without --replace the range is printed, and the store is exactly as it was.
    let whole = try Data(contentsOf: URL(fileURLWithPath: db))
    let preview = runResonance(["analyze", "--db", db, "--from", from, "--to", to, "--json"])
    let previewed = try #require(
      try JSONSerialization.jsonObject(with: Data(preview.out.utf8)) as? [String: Any])
    #expect(previewed["plays"] as? Int == inWindow && inWindow > 0 && inWindow < plays)
    #expect(previewed["stored"] as? Bool == false)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == whole)
    #expect(try count("SELECT COUNT(*) FROM playback_events WHERE session_id IS NULL") == 0)
    let printed = runResonance(["analyze", "--db", db, "--from", from, "--to", to])
    #expect(printed.out.contains("\(Format.grouped(inWindow)) plays in"), "\(printed.out)")
    #expect(printed.out.contains("not stored"), "\(printed.out)")
    #expect(runResonance(["analyze", "--db", db, "--replace"]).status == .usage)
    // With --replace the derived tables describe the range.
    let window = runResonance(
      ["analyze", "--db", db, "--from", from, "--to", to, "--replace", "--json"])
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(window.out.utf8)) as? [String: Any])
    #expect(summary["plays"] as? Int == inWindow && summary["stored"] as? Bool == true)
    #expect(summary["nights"] as? Int == previewed["nights"] as? Int)
    #expect(summary["state_ticks"] as? Int == previewed["state_ticks"] as? Int)
    #expect(
      summary["mean_session_quality"] as? Double == previewed["mean_session_quality"] as? Double)
    #expect(
      try count("SELECT COUNT(*) FROM playback_events WHERE session_id IS NOT NULL") == inWindow)
    #expect(runResonance(["analyze", "--db", db, "--from", to, "--to", from]).status == .usage)
    #expect(runResonance(["analyze", "--db", db, "--from", "June"]).status == .usage)

    // validate judges what the whole history gives against the truth synth wrote beside it.
    _ = runResonance(["analyze", "--db", db, "-q"])
    let truth = data + "/truth.json"
    let checked = runResonance(["validate", "--truth", truth, "--db", db, "--json"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(checked.out.utf8)) as? [String: Any])
    let lived = try #require(report["sessions"] as? [String: Any])
    #expect((lived["share"] as? Double ?? 0) > 0.7, "\(lived)")
    let effects = try #require(report["song_effects"] as? [String: [String: Any]])
    for signal in ["hr", "hrv"] {
      let coverage = try #require(effects[signal]?["interval_coverage"] as? Double)
      #expect(coverage > 0.5 && coverage <= 1, "\(signal): \(coverage)")
      #expect((effects[signal]?["songs"] as? Int ?? 0) > 10)
    }
    let features = try #require(report["song_features"] as? [String: [String: Any]])
    #expect(features["bpm"]?["library"] != nil && features["energy"] != nil)
    // A month at a twentieth of the density may miss goals; the exit status says whether it did.
    let breathingMet = (report["breathing"] as? [String: Any])?["goals_met"] as? Bool ?? true
    let effectsMet = effects.values.allSatisfy { effect in
      let spearman = effect["spearman_vs_planted"] as? Double
      let goal = effect["spearman_goal"] as? Double
      return effect["coverage_goal_met"] as? Bool == true
        && goal.map { g in spearman.map { $0 >= g } ?? false } ?? true
    }
    let allMet = breathingMet && effectsMet
    #expect(checked.status == (allMet ? .ok : .failure), "\(checked.err)")
    #expect(checked.err.isEmpty == allMet, "\(checked.err)")
    let text = runResonance(["validate", "--truth", truth, "--db", db])
    #expect(text.status == checked.status)
    #expect(text.out.contains("goal NOT met") == !allMet)
    #expect(text.out.contains("90% intervals covering the planted effect"))
    #expect(text.out.contains("in a session given the context they were lived in"))
    #expect(
      runResonance(["validate", "--truth", folder.file("d.sqlite"), "--db", db]).status
        == .dataError)
  }
}
