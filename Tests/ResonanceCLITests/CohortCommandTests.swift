import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import Testing

@testable import ResonanceCLI

@Suite("cohort pool: the person-level effects of many hand-offs, pooled")
struct CohortCommandTests {
  /// Writes a hand-off's `effects.json` and `manifest.json` as `export` does, without the
  /// tables (pooling reads neither).
  static func handOff(
    _ root: String, person: String, effects: [PersonEffect], tune: String? = "keep",
    schemaVersion: Int = HandOffDocuments.schemaVersion
  ) throws {
    let folder = root + "/person=" + person
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let text = HandOffDocuments.effects(person: person, effects, tuneRecommendation: tune)
    try text.write(toFile: folder + "/effects.json", atomically: true, encoding: .utf8)
    let hasher = SHA256()
    hasher.update(Array(text.utf8))
    var manifest = HandOffDocuments.manifest(
      .init(
        person: person, toolVersion: "test", storeSchemaVersion: 1, store: "s-" + person,
        format: .parquet, range: nil,
        files: [
          .init(name: "effects.json", rows: nil, bytes: text.utf8.count, sha256: hasher.finalize())
        ]))
    if schemaVersion != HandOffDocuments.schemaVersion {
      manifest = manifest.replacingOccurrences(
        of: "\"schema_version\": \(HandOffDocuments.schemaVersion)",
        with: "\"schema_version\": \(schemaVersion)")
    }
    try manifest.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
  }

  @Test(
    "complete hand-offs are pooled as the random-effects model says; a half-written one is skipped and counted, another schema version and a changed effects.json are refused by name"
  )
  func pool() throws {
    let folder = try TemporaryFolder()
    let root = folder.file("cohort")
    var rng = SplitMix64(seed: 7, stream: "cohort-test")
    var tempo: [(estimate: Double, se: Double)] = []
    for i in 0..<12 {
      let se = rng.uniform(0.2, 0.6)
      let estimate = rng.normal(-0.5, 0.3) + rng.normal(0, se)
      tempo.append((estimate, se))
      var effects = [
        PersonEffect(
          name: .tempoHeartRate, estimate: estimate, se: se, n: 100, method: "test")
      ]
      if i < 5 {
        effects.append(
          PersonEffect(name: .eveningMusicAsleep, estimate: 10, se: 5, n: 90, method: "test"))
      }
      try Self.handOff(
        root, person: String(format: "p%02d", i), effects: effects,
        tune: i < 3 ? "change" : i < 10 ? "keep" : nil)
    }
    // A person whose export stopped: tables, no manifest.
    try FileManager.default.createDirectory(
      atPath: root + "/person=half", withIntermediateDirectories: true)
    try "x".write(toFile: root + "/person=half/songs.parquet", atomically: true, encoding: .utf8)
    try Self.handOff(
      root, person: "future",
      effects: [PersonEffect(name: .tempoHeartRate, estimate: 9, se: 0.1, n: 1, method: "t")],
      schemaVersion: 99)
    // A folder name that would be markup on the page.
    try Self.handOff(
      root, person: "<b>x",
      effects: [PersonEffect(name: .tempoHeartRate, estimate: 9, se: 0.1, n: 1, method: "t")],
      schemaVersion: 2)
    try Self.handOff(
      root, person: "edited",
      effects: [PersonEffect(name: .tempoHeartRate, estimate: 9, se: 0.1, n: 1, method: "t")])
    try HandOffDocuments.effects(
      person: "edited",
      [PersonEffect(name: .tempoHeartRate, estimate: -9, se: 0.1, n: 1, method: "t")],
      tuneRecommendation: nil
    ).write(toFile: root + "/person=edited/effects.json", atomically: true, encoding: .utf8)

    let out = folder.file("report")
    let result = runResonance(["cohort", "pool", root, "--out", out, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.err.contains("person=half: skipped: no complete manifest.json"))
    #expect(result.err.contains("person=future: refused: hand-off schema version 99"))
    #expect(result.err.contains("person=edited: refused: effects.json is not the file"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(json["persons"] as? Int == 12)
    #expect((json["incomplete"] as? [Any])?.count == 1)
    #expect(
      (json["refused"] as? [[String: Any]])?.map { $0["folder"] as? String } == [
        "person=<b>x", "person=edited", "person=future",
      ])
    #expect((json["tune"] as? [String: Any])?["change"] as? Int == 3)
    #expect((json["tune"] as? [String: Any])?["persons"] as? Int == 10)
    let effects = try #require(json["effects"] as? [[String: Any]])
    #expect(
      effects.map { $0["name"] as? String } == ["tempo_hr_per_10bpm", "evening_music_asleep_min"])
    let expected = try #require(RandomEffects.pool(tempo))
    #expect(abs((effects[0]["mu"] as? Double ?? 0) - expected.mu) < 1e-12)
    #expect(abs((effects[0]["lower"] as? Double ?? 0) - expected.lower) < 1e-12)
    #expect(effects[0]["persons"] as? Int == 12)
    #expect(effects[1]["persons"] as? Int == 5)
    let page = try String(contentsOfFile: out + "/cohort.md", encoding: .utf8)
    #expect(page.contains("`tune` said `change` for 3 of 10 persons"))
    #expect(page.contains(#"person=\<b>x"#) && !page.contains("person=<b>x"))
    #expect(
      page.contains(
        "![Forest plot of heart rate per 10 BPM of tempo](forest-tempo_hr_per_10bpm.svg)"))
    for name in [
      "pooled.csv", "effects.csv", "forest-tempo_hr_per_10bpm.svg", "funnel-tempo_hr_per_10bpm.svg",
    ] {
      #expect(FileManager.default.fileExists(atPath: out + "/" + name), "\(name)")
    }
    let rows = try String(contentsOfFile: out + "/effects.csv", encoding: .utf8)
      .split(separator: "\r\n")
    #expect(rows.count == 1 + 12 + 5)
  }

  @Test("a folder that is not there is exit 66; no action or two folders is a usage error")
  func badInput() throws {
    let folder = try TemporaryFolder()
    let missing = runResonance(["cohort", "pool", folder.file("none"), "--out", folder.file("r")])
    #expect(missing.status == .noInput)
    #expect(missing.err.contains("no cohort folder here"))
    #expect(runResonance(["cohort", "merge", folder.path]).status == .usage)
    #expect(runResonance(["cohort", "pool", folder.path, folder.path]).status == .usage)
  }
}
