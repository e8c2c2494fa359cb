import Foundation
import ResonanceModel
import Testing

@testable import ResonanceCLI

/// `resonance validate --preferences`: the true one-step gain of a preference file, from the
/// expectations synth planted for every logged decision (`decisions-truth.jsonl.gz`).
@Suite("validate --preferences: the one-step truth of a preference file")
struct ValidateTuningTests {
  func stores() throws -> TuningStores { try TuningStores.shared.get() }

  /// Writes a preference file with `weights` on the app's other settings, tuned for `reward`.
  static func file(
    _ weights: ScoringWeights, reward: Reward = .composite, in folder: TemporaryFolder,
    named name: String
  ) throws -> String {
    let evidence = TuningEvidence(
      from: "2022-06-01", to: "2022-09-30", decisions: 1, months: 4, estimator: .dr,
      reward: reward, forwardGain: nil, effectiveSampleSize: nil, agreementShare: nil, folds: 3,
      reason: "written by a test", command: "test")
    let path = folder.file(name)
    try PreferenceFile(
      recommendation: .change, preferences: UserPreferences.appDefault.with(weights: weights),
      evidence: evidence
    ).encoded(as: .json).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// `validate --json`'s `tuning` object for the preference file at `path`.
  func tuning(_ path: String) throws -> [String: Any] {
    let stores = try stores()
    let run = runResonance([
      "validate", "--truth", stores.data + "/truth.json", "--db", stores.analyzed,
      "--preferences", path, "--json", "-q",
    ])
    // Short histories can miss an effect-coverage goal (exit 1); the report is printed either way.
    #expect(run.status == .ok || run.status == .failure, "\(run.err)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
    return try #require(json["tuning"] as? [String: Any], "\(run.out)")
  }

  @Test(
    "the app's own weights gain exactly 0; the person's own gain more than the app's, and weights against their taste lose"
  )
  func gains() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let truth = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: stores.data + "/truth.json")))
        as? [String: Any])
    let person = try #require(
      (truth["person"] as? [String: Any])?["preferences"] as? [String: Double])
    let own = ScoringWeights(
      vector: ScoringWeights.componentNames.map { person[$0] ?? 0 })

    let app = try tuning(Self.file(.appDefault, in: folder, named: "app.json"))
    let oneStep = try #require(app["one_step"] as? [String: Double])
    #expect(app["reward"] as? String == "composite")
    #expect((app["decisions"] as? Int ?? 0) > 1_000)
    #expect(abs(oneStep["gain"] ?? 1) < 1e-12, "\(oneStep)")
    #expect(oneStep["in_force"] == oneStep["preferences"])
    let inForce = try #require(oneStep["in_force"])
    #expect(inForce > 0.3 && inForce < 0.9)
    // Every estimator's estimate beside the truth: the logging weights gain 0 by every one.
    let appEstimates = try #require(app["estimated_gain"] as? [String: Double])
    #expect(Set(appEstimates.keys) == Set(Estimator.allCases.map(\.rawValue)))
    for (estimator, gain) in appEstimates { #expect(abs(gain) < 1e-9, "\(estimator): \(gain)") }

    let theirs = try tuning(Self.file(own, in: folder, named: "own.json"))
    let ownGain = try #require((theirs["one_step"] as? [String: Double])?["gain"])
    #expect(ownGain > 0.005, "the person's own first-day weights gain \(ownGain)")
    // DR estimates that from the log alone, near the truth and on the right side of 0.
    let ownDR = try #require((theirs["estimated_gain"] as? [String: Double])?["dr"])
    #expect(ownDR > 0 && abs(ownDR - ownGain) < 0.02, "DR \(ownDR) against \(ownGain)")

    // The taste turned around: the recency and time-of-day penalties made rewards.
    var against = own.vector.map { 0.5 - $0 }
    against = against.map { max(0, min(1, $0)) }
    let wrong = try tuning(
      Self.file(ScoringWeights(vector: against), in: folder, named: "against.json"))
    let wrongGain = try #require((wrong["one_step"] as? [String: Double])?["gain"])
    #expect(wrongGain < 0, "weights against the person's taste gain \(wrongGain)")

    // --from and --to: the last month alone, fewer decisions, the app's weights still 0.
    let month = runResonance([
      "validate", "--truth", stores.data + "/truth.json", "--db", stores.analyzed,
      "--preferences", folder.file("own.json"), "--from", "2022-09-01", "--to", "2022-10-01",
      "--json", "-q",
    ])
    let september = try #require(
      (try JSONSerialization.jsonObject(with: Data(month.out.utf8)) as? [String: Any])?["tuning"]
        as? [String: Any], "\(month.err)")
    let days = try #require(september["decisions"] as? Int)
    #expect(days > 100 && days < (theirs["decisions"] as? Int ?? 0) / 2, "\(days) in September")
    let unbounded = runResonance([
      "validate", "--truth", stores.data + "/truth.json", "--db", stores.analyzed,
      "--from", "2022-09-01",
    ])
    #expect(unbounded.status == .usage && unbounded.err.contains("--preferences"))

    // The reward is the file's: keep judges only the skip chance.
    let keep = try tuning(Self.file(own, reward: .keep, in: folder, named: "keep.json"))
    #expect(keep["reward"] as? String == "keep")
    let keepGain = try #require((keep["one_step"] as? [String: Double])?["gain"])
    #expect(keepGain != ownGain && keepGain > 0)
  }

  @Test(
    "--best-point: the design point of greatest one-step value, which the same weights in a file reproduce"
  )
  func bestPoint() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let app = try Self.file(.appDefault, in: folder, named: "app.json")
    let run = runResonance([
      "validate", "--truth", stores.data + "/truth.json", "--db", stores.analyzed,
      "--preferences", app, "--best-point", "--json", "-q",
    ])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.err)")
    let found = try #require(json["tuning"] as? [String: Any])
    let best = try #require(found["best_point"] as? [String: Any])
    #expect(best["points"] as? Int == TuningSettings().design.points)
    let gain = try #require(best["gain"] as? Double)
    // A person whose taste is not the app's: some point of tune's design does better.
    #expect(gain > 0, "\(best)")
    let weights = try #require(best["weights"] as? [String: Double])
    let vector = ScoringWeights.componentNames.map { weights[$0] ?? .nan }
    let same = try tuning(
      Self.file(ScoringWeights(vector: vector), in: folder, named: "best.json"))
    let oneStep = try #require(same["one_step"] as? [String: Double])
    #expect(abs((oneStep["gain"] ?? 0) - gain) < 1e-12, "\(oneStep) against \(best)")
    // Without it, null; and it needs a preference file.
    #expect(try tuning(app)["best_point"] is NSNull)
    let alone = runResonance([
      "validate", "--truth", stores.data + "/truth.json", "--db", stores.analyzed,
      "--best-point",
    ])
    #expect(alone.status == .usage && alone.err.contains("--preferences"))
  }

  @Test(
    "no decisions-truth beside the truth is exit 66; one that does not parse, another person's, or a session-quality file is 65"
  )
  func refusals() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let app = try Self.file(.appDefault, in: folder, named: "app.json")
    let copy = folder.file("copy")
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: stores.data + "/truth.json", toPath: copy + "/truth.json")
    func validate(_ truth: String, _ preferences: String) -> (
      status: ExitCode, out: String, err: String
    ) {
      runResonance([
        "validate", "--truth", truth, "--db", stores.analyzed, "--preferences", preferences, "-q",
      ])
    }
    let missing = validate(copy + "/truth.json", app)
    #expect(missing.status == .noInput)
    #expect(missing.err.contains("decisions-truth.jsonl.gz"), "\(missing.err)")

    try Data("not gzip".utf8).write(to: URL(fileURLWithPath: copy + "/decisions-truth.jsonl.gz"))
    let garbage = validate(copy + "/truth.json", app)
    #expect(garbage.status == .dataError, "\(garbage.err)")

    // Another person's truth: a month of seed 2.
    let other = folder.file("other")
    let made = runResonance([
      "synth", "--out", other, "--months", "1", "--songs", "120", "--scale", "0.05", "--seed", "2",
      "-q",
    ])
    try #require(made.status == .ok, "\(made.err)")
    try FileManager.default.removeItem(atPath: copy + "/decisions-truth.jsonl.gz")
    try FileManager.default.copyItem(
      atPath: other + "/decisions-truth.jsonl.gz", toPath: copy + "/decisions-truth.jsonl.gz")
    let mismatch = validate(copy + "/truth.json", app)
    #expect(mismatch.status == .dataError)
    #expect(mismatch.err.contains("differs from the store's"), "\(mismatch.err)")

    let quality = try Self.file(
      .appDefault, reward: .sessionQuality, in: folder, named: "quality.json")
    let session = validate(stores.data + "/truth.json", quality)
    #expect(session.status == .dataError)
    #expect(session.err.contains("session-quality"), "\(session.err)")
  }
}
