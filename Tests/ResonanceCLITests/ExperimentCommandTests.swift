import Foundation
import ResonanceModel
import Testing

@testable import ResonanceCLI

@Suite("resonance experiment plan: the DJ's randomised experiment, planned on the person's history")
struct ExperimentCommandTests {
  /// A candidate preference file: the app's defaults leaning on tempo.
  static func candidate(in folder: TemporaryFolder, temperature: Double = 0.05) throws -> String {
    var preferences = UserPreferences.appDefault
    preferences.bpmWeight = 0.45
    preferences.historicalWeight = 0.1
    preferences.policy.temperature = temperature
    let path = folder.file("candidate.json")
    let file = PreferenceFile(recommendation: .change, preferences: preferences)
    try file.encoded(as: .json).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "a plan holds both arms' preferences and a weekday-balanced day for each, from the day after the log; the store untouched; the same seed the same file"
  )
  func plan() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let store = try stores.copy(stores.ingested, into: folder)
    let before = try storeBytes(store)
    let candidate = try Self.candidate(in: folder)
    let out = folder.file("plan.json")
    let arguments = [
      "experiment", "plan", "--db", store, "--candidate", candidate, "--margin", "0.1",
      "--max-days", "84", "--out", out,
    ]
    let run = runResonance(arguments)
    #expect(run.status == .ok, "\(run.err)")
    #expect(run.out.contains("experiment: 2 arms (in-force, candidate)"))
    #expect(run.out.contains("experiment: wrote \(out)"))
    #expect(!run.out.contains("may change"))
    #expect(try storeBytes(store) == before)

    let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
    let file = try PreferenceFile(data: bytes)
    let plan = try #require(file.experiment)
    #expect(file.recommendation == .keep)
    #expect(plan.arms.map(\.name) == ["in-force", "candidate"])
    #expect(plan.arms[0].preferences == file.preferences)
    #expect(plan.arms[1].preferences.bpmWeight == 0.45)
    #expect(plan.stoppingRule.cycleDays == 14 && plan.days % 14 == 0 && plan.days <= 84)
    #expect(plan.power.gain == 0.1 && plan.power.gainSource == "margin")
    #expect(plan.assignment.count == plan.days)
    // Every weekday has each arm equally often.
    let start = try #require(CalendarDay(plan.start))
    var counts: [String: Int] = [:]
    for (text, arm) in plan.assignment {
      let day = try #require(CalendarDay(text))
      let offset = day.daysSinceEpoch - start.daysSinceEpoch
      #expect(offset >= 0 && offset < plan.days)
      counts["\((day.daysSinceEpoch + 3) % 7) \(arm)", default: 0] += 1
    }
    #expect(Set(counts.values).count == 1 && counts.count == 14)

    // The same command, the same bytes.
    #expect(runResonance(arguments).status == .ok)
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == bytes)
  }

  @Test("a plan longer than a year says its contrast averages over a person who may change")
  func longPlan() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let store = try stores.copy(stores.ingested, into: folder)
    let candidate = try Self.candidate(in: folder)
    let run = runResonance([
      "experiment", "plan", "--db", store, "--candidate", candidate, "--margin", "0.005",
      "--max-days", "730", "--out", folder.file("plan.json"),
    ])
    #expect(run.status == .ok, "\(run.err)")
    let days = try #require(
      try PreferenceFile(data: Data(contentsOf: URL(fileURLWithPath: folder.file("plan.json"))))
        .experiment?.days)
    #expect(days > 365)
    #expect(
      run.out.contains(
        "experiment: over \(Format.grouped(days)) days your taste may change; "
          + "the contrast is the arms' difference averaged over them all"))
  }

  @Test(
    "analyze counts the plan's days so far under their arms: a contrast per candidate, its sequence and randomisation p, and the decision"
  )
  func analyze() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let store = try stores.copy(stores.ingested, into: folder)
    let candidate = try Self.candidate(in: folder)
    // A plan laid over the history's last ten weeks, as if the DJ had run it.
    let probe = folder.file("probe.json")
    let made = runResonance([
      "experiment", "plan", "--db", store, "--candidate", candidate, "--out", probe, "--json",
    ])
    #expect(made.status == .ok, "\(made.err)")
    let after = try #require(
      CalendarDay(
        try PreferenceFile(data: Data(contentsOf: URL(fileURLWithPath: probe)))
          .experiment?.start ?? ""))
    let start = CalendarDay(daysSinceEpoch: after.daysSinceEpoch - 70)
    let plan = folder.file("plan.json")
    #expect(
      runResonance([
        "experiment", "plan", "--db", store, "--candidate", candidate, "--start",
        start.description, "--max-days", "112", "--out", plan,
      ]).status == .ok)
    let run = runResonance(["experiment", "analyze", "--db", store, "--plan", plan, "--json"])
    #expect(run.status == .ok, "\(run.err)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
    #expect(json["analysis"] as? String == "itt")
    #expect(["adopt", "keep", "continue"].contains(json["decision"] as? String ?? ""))
    #expect(json["days_left"] as? Int == 112 - 70)
    let contrast = try #require(json["contrast"] as? [String: Any])
    #expect(contrast["arm"] as? String == "candidate")
    #expect(contrast["cycles"] as? Int == 5)
    let p = try #require(json["permutation_p"] as? Double)
    #expect(p > 0 && p <= 1)
    let lower = try #require(contrast["lower"] as? Double)
    let upper = try #require(contrast["upper"] as? Double)
    #expect(lower < (contrast["estimate"] as? Double ?? .nan) && upper > lower)

    // A day moved to the other arm is not what the seed drew: refused, naming the day.
    var text = try String(contentsOfFile: plan, encoding: .utf8)
    let day = start.description
    let arm = text.contains("\"\(day)\" : \"candidate\"") ? "candidate" : "in-force"
    text = text.replacingOccurrences(
      of: "\"\(day)\" : \"\(arm)\"",
      with: "\"\(day)\" : \"\(arm == "candidate" ? "in-force" : "candidate")\"")
    try text.write(toFile: plan, atomically: true, encoding: .utf8)
    let tampered = runResonance(["experiment", "analyze", "--db", store, "--plan", plan])
    #expect(tampered.status == .dataError)
    #expect(tampered.err.contains("experiment.assignment.\(day)"))
    // A preference file without an experiment is not a plan.
    let refused = runResonance(["experiment", "analyze", "--db", store, "--plan", candidate])
    #expect(refused.status == .dataError)
    #expect(refused.err.contains("expected an experiment section"))
    // Plan's options are not analyze's.
    let mixed = runResonance([
      "experiment", "analyze", "--db", store, "--plan", plan, "--margin", "0.1",
    ])
    #expect(mixed.status == .usage)
  }

  @Test("without a candidate file and without a tune run there is nothing to try: exit 66")
  func noCandidate() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let store = try stores.copy(stores.ingested, into: folder)
    let run = runResonance(["experiment", "plan", "--db", store, "--out", folder.file("p.json")])
    #expect(run.status == .noInput)
    #expect(run.err.contains("no candidate to try"))
    #expect(run.err.contains("--candidate FILE"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("p.json")))
  }

  @Test("a candidate whose settings are out of range is refused at its line and column: exit 65")
  func badCandidate() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let store = try stores.copy(stores.ingested, into: folder)
    let candidate = try Self.candidate(in: folder, temperature: 0)
    let run = runResonance([
      "experiment", "plan", "--db", store, "--candidate", candidate, "--out", folder.file("p.json"),
    ])
    #expect(run.status == .dataError)
    #expect(run.err.contains("\(candidate):"))
    #expect(run.err.contains("preferences.policy.temperature"))
  }

  @Test("an action other than plan is a usage error: exit 64")
  func unknownAction() {
    let run = runResonance(["experiment", "run"])
    #expect(run.status == .usage)
    #expect(run.err.contains("'resonance experiment' needs the action 'plan' or 'analyze'"))
  }

  @Test(
    "a plan whose arm's settings are out of range does not read: the arm is named, with its line")
  func badArm() throws {
    var plan = ExperimentPlan(
      question: .tuning, outcome: "keep-rate", block: "day",
      arms: [
        .init(name: "in-force", preferences: .appDefault),
        .init(name: "candidate", preferences: .appDefault),
      ], start: "2024-01-01", days: 14, maxDays: 120, seed: 1, assignment: [:],
      stoppingRule: .init(
        kind: "confidence-sequence", alpha: 0.05, contrastAlpha: 0.05, rho2: 1, cycleDays: 14,
        margin: 0.02, minimumCycles: 4, priorSD: 0.05, priorCycles: 4),
      power: .init(
        target: 0.9, gain: 0.02, gainSource: "default", historyDays: 364, observedDays: 300,
        outcomeMean: 0.6, dailySD: 0.1, autocorrelation: 0, contrastSD: 0.05, daysNeeded: nil,
        fits: false, detectableGain: 0.1))
    plan.arms[1].preferences.nightHardCapBPM = 0
    let data = try PreferenceFile(
      recommendation: .keep, preferences: .appDefault, experiment: plan
    ).encoded(as: .json)
    #expect(throws: PreferenceFileError.self) { try PreferenceFile(data: data) }
    do {
      _ = try PreferenceFile(data: data)
    } catch {
      #expect(error.message.contains("\"experiment.arms.1.preferences.nightHardCapBPM\""))
      let text = String(decoding: data, as: UTF8.self)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let line = try #require(error.line)
      #expect(lines[line - 1].contains("\"nightHardCapBPM\" : 0"))
    }
  }
}
