import Foundation
import ResonanceModel
import Testing

@testable import ResonanceCLI

@Suite("synth --dj-from: the DJ's switch to a preference file on the command line")
struct SynthCommandTests {
  /// Three months, June to August 2022, of a small library.
  static let small = ["synth", "--months", "3", "--songs", "60", "--scale", "0.05", "-q"]

  /// A preference file whose weights lie far from the app's, written into `folder`.
  static func preferenceFile(in folder: TemporaryFolder) throws -> String {
    let weights = ScoringWeights(
      bpm: 0.02, energy: 0.02, familiarity: 0.9, historical: 0.02, context: 0.04, recency: 0.3,
      timeOfDay: 0.2)
    let file = PreferenceFile(
      recommendation: .change, preferences: UserPreferences.appDefault.with(weights: weights))
    let path = folder.file("tried.json")
    try file.encoded(as: .json).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "--dj-from not on a month's first day, outside the period, or without --dj-preferences is exit 64, and nothing is written",
    arguments: [
      (
        ["--dj-from", "2022-08-15"],
        "invalid value '2022-08-15' for '--dj-from'\nhint: expected YYYY-MM-DD with a year from"
          + " 1900 to 2100 and day 01, the first of a month"
      ),
      (["--dj-from", "2022-09-01"], "outside the simulated period, 2022-06-01 to 2022-08-31"),
      (["--dj-from", "2022-05-01"], "outside the simulated period"),
      (["--start", "2022-06-15", "--dj-from", "2022-06-01"], "outside the simulated period"),
    ])
  func usageErrors(extra: [String], message: String) throws {
    let folder = try TemporaryFolder()
    let out = folder.file("person")
    let prefs = try Self.preferenceFile(in: folder)
    let result = runResonance(Self.small + ["--out", out, "--dj-preferences", prefs] + extra)
    #expect(result.status == .usage)
    #expect(result.err.hasPrefix("error: ") && result.err.contains(message), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let alone = runResonance(Self.small + ["--out", out, "--dj-from", "2022-08-01"])
    #expect(alone.status == .usage)
    #expect(alone.err.contains("'--dj-from' needs '--dj-preferences FILE'"), "\(alone.err)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("a --dj-from history ingests, and tune replays every decision it logged, across the switch")
  func tuneReplaysAcrossTheSwitch() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    let db = folder.file("store.sqlite")
    let prefs = try Self.preferenceFile(in: folder)
    let made = runResonance(
      Self.small + ["--out", data, "--dj-preferences", prefs, "--dj-from", "2022-08-01"])
    try #require(made.status == .ok, "\(made.err)")
    let ingest = runResonance(["ingest", data, "--db", db, "-q"])
    try #require(ingest.status == .ok, "\(ingest.err)")
    let truth = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: data + "/truth.json"))) as? [String: Any])
    #expect((truth["generator"] as? [String: Any])?["dj_from"] as? String == "2022-08-01")
    let decisions = try #require((truth["plays"] as? [String: Any])?["decisions"] as? Int)

    let report = try TuneCommandTests.tuneJSON(db, out: folder.file("p.json"), [])
    let replay = try #require(report["replay"] as? [String: Any])
    #expect(replay["replayed"] as? Int == decisions)
    #expect(replay["first_mismatch"] is NSNull)
    #expect(report["decisions"] as? Int == decisions)
  }
}
