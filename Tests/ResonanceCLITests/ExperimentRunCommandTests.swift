import Foundation
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite(
  "resonance synth --dj-preferences PLAN, then ingest and analyze: the DJ carries out a plan")
struct ExperimentRunCommandTests {
  /// 2022-10-01 00:00 in the simulated person's zone (−07:00): the plan's first day.
  static let startMs: Int64 = 1_664_607_600_000

  /// Rows of each dated table before and from `startMs`, with a digest of those before.
  static func rows(_ path: String) throws -> [String: (before: String, from: Int64)] {
    let store = try Store(path: path)
    var result: [String: (before: String, from: Int64)] = [:]
    for (table, column) in [
      ("dj_decisions", "time_ms"), ("mood_inputs", "time_ms"), ("health_records", "start_ms"),
      ("biometric_samples", "time_ms"), ("macos_contexts", "time_ms"),
      ("playback_events", "start_ms"), ("workouts", "start_ms"),
    ] {
      let before = try store.connection.rows(
        """
        SELECT count(*) AS n, total(\(column) % 1000003) AS digest FROM \(table)
        WHERE \(column) < ?
        """, [startMs])
      let from = try store.connection.rows(
        "SELECT count(*) AS n FROM \(table) WHERE \(column) >= ?", [startMs])
      result[table] = (
        "\(before.first?.int64("n") ?? -1) rows, digest \(before.first?.double("digest") ?? -1)",
        from.first?.int64("n") ?? -1
      )
    }
    return result
  }

  @Test(
    "a plan made on the history, carried out by the simulated DJ, ingested into a copy: only the new days are added, the log names every day's planned arm, and analyze checks the seed"
  )
  func carriedOut() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let history = try stores.copy(stores.ingested, into: folder)
    let candidate = try ExperimentCommandTests.candidate(in: folder)
    let plan = folder.file("plan.json")
    let planned = runResonance([
      "experiment", "plan", "--db", history, "--candidate", candidate, "--margin", "0.3",
      "--max-days", "56", "--start", "2022-10-01", "--seed", "11", "--out", plan, "-q",
    ])
    #expect(planned.status == .ok, "\(planned.err)")
    // No tune run has spent the in-force preferences' budget: the experiment takes half.
    let planFile = try #require(
      try PreferenceFile(data: Data(contentsOf: URL(fileURLWithPath: plan))).experiment)
    #expect(planFile.stoppingRule.alpha == 0.025 && planFile.stoppingRule.familySpent == 0)

    // The same person as the store's four months, two months longer, the DJ on the plan.
    let data = folder.file("person")
    let made = runResonance([
      "synth", "--out", data, "--months", "6", "--songs", "120", "--scale", "0.05",
      "--dj-preferences", plan, "-q",
    ])
    #expect(made.status == .ok, "\(made.err)")
    let copy = folder.file("copy.sqlite")
    try FileManager.default.copyItem(atPath: history, toPath: copy)
    let ingested = runResonance(["ingest", data, "--db", copy, "-q"])
    #expect(ingested.status == .ok, "\(ingested.err)")

    let before = try Self.rows(history)
    let after = try Self.rows(copy)
    for (table, rows) in before {
      #expect(after[table]?.before == rows.before, "\(table): the history's rows changed")
      #expect(rows.from == 0 || table == "health_records" || table == "biometric_samples")
    }
    for table in ["dj_decisions", "mood_inputs", "health_records", "playback_events"] {
      #expect((after[table]?.from ?? 0) > (before[table]?.from ?? 0), "\(table): nothing new")
    }

    let analyzed = runResonance([
      "experiment", "analyze", "--db", copy, "--plan", plan, "--as-of", "2022-11-25", "--json",
    ])
    #expect(analyzed.status == .ok, "\(analyzed.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(analyzed.out.utf8)) as? [String: Any])
    let compliance = try #require(object["compliance"] as? [String: Any])
    #expect(compliance["logged"] as? Bool == true)
    let days = try #require(compliance["days_with_decisions"] as? Int)
    #expect(days > 45 && compliance["followed_days"] as? Int == days)
    #expect((compliance["departures"] as? [Any])?.isEmpty == true)
    #expect(object["analysis"] as? String == "itt")
    let perProtocol = runResonance([
      "experiment", "analyze", "--db", copy, "--plan", plan, "--as-of", "2022-11-25",
      "--per-protocol",
    ])
    #expect(perProtocol.status == .ok, "\(perProtocol.err)")
    #expect(perProtocol.out.contains("only the days that ran their planned arm counted"))
    #expect(perProtocol.out.contains("ran their planned arm"))

    // The last analysis is stored for the report's experiment page.
    let reports = folder.file("reports")
    let report = runResonance([
      "report", "--db", copy, "--only", "experiment", "--out", reports, "-q",
    ])
    #expect(report.status == .ok, "\(report.err)")
    let page = try String(contentsOfFile: reports + "/experiment.md", encoding: .utf8)
    #expect(page.contains("only the days that ran their planned arm are counted") == false)
    #expect(page.contains("Only the days that ran their planned arm are counted (per protocol)"))
    #expect(page.contains("ran their planned arm."))
    let csv = try String(contentsOfFile: reports + "/experiment-days.csv", encoding: .utf8)
    #expect(csv.split(separator: "\r\n").count == 57, "a header and the plan's 56 days")
    let index = try String(contentsOfFile: reports + "/index.md", encoding: .utf8)
    #expect(index.contains("[Experiment](experiment.md)"))

    // The analysis holds the experiment's share of the budget: a tune of the same
    // preferences afterwards spends at most the rest (4/7 of 0.05 would be more).
    let tuned = runResonance([
      "tune", "--db", copy, "--points", "32", "--out", folder.file("t.json"), "--json",
    ])
    #expect(tuned.status == .ok, "\(tuned.err)")
    let tuneJSON = try #require(
      try JSONSerialization.jsonObject(with: Data(tuned.out.utf8)) as? [String: Any])
    let ledger = try #require(tuneJSON["ledger"] as? [String: Any])
    let spent = try #require(ledger["spent"] as? Double)
    #expect(spent > 0 && spent <= 0.025 + 1e-12, "\(spent)")

    // In the middle of the plan's days the log's last stated settings are an arm's; the
    // preferences in force are still those outside them.
    let middle = runResonance([
      "tune", "--db", copy, "--to", "2022-11-10", "--no-ledger", "--points", "32", "--out",
      folder.file("m.json"), "--json",
    ])
    #expect(middle.status == .ok, "\(middle.err)")
    let middleJSON = try #require(
      try JSONSerialization.jsonObject(with: Data(middle.out.utf8)) as? [String: Any])
    let inForce = try #require(middleJSON["in_force"] as? [String: Any])
    #expect(inForce["bpm"] as? Double == UserPreferences.appDefault.bpmWeight)

    // A plan of another seed is another design: refused, naming both seeds.
    let other = folder.file("other.json")
    #expect(
      runResonance([
        "experiment", "plan", "--db", history, "--candidate", candidate, "--margin", "0.3",
        "--max-days", "56", "--start", "2022-10-01", "--seed", "12", "--out", other, "-q",
      ]).status == .ok)
    let refused = runResonance(["experiment", "analyze", "--db", copy, "--plan", other])
    #expect(refused.status == .dataError)
    #expect(
      refused.err.contains(
        "the decision log carries out the plan of seed 11 on 2022-10-01,"
          + " not this plan's seed 12"), "\(refused.err)")
    // A history whose log names no arms cannot be analysed per protocol.
    let plain = runResonance([
      "experiment", "analyze", "--db", history, "--plan", plan, "--as-of", "2022-10-20",
      "--per-protocol",
    ])
    #expect(plain.status == .dataError)
    #expect(plain.err.contains("'--per-protocol' needs the arm of each decision"))
  }
}
