import Foundation
import ResonanceModel
import Testing

@testable import ResonanceCLI

@Suite("synth --cohort: a simulated cohort with its planted population")
struct SynthCohortTests {
  static let small = [
    "synth", "--months", "1", "--songs", "60", "--scale", "0.05", "--seed", "40", "-q",
  ]

  static func object(_ path: String) throws -> [String: Any] {
    let data = try #require(FileManager.default.contents(atPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The same number, as JSONSerialization reads it back: on Linux it may miss the written
  /// double by its last bit (the file holds the shortest digits that round-trip).
  static func same(_ read: Double?, _ value: Double) -> Bool {
    guard let read else { return false }
    return abs(read - value) <= 1e-14 * max(1, abs(value))
  }

  @Test(
    "--cohort 3 writes person-0001…0003, each a whole history with seed S+i−1 and its draw, and cohort-truth.json with the population and every draw"
  )
  func cohort() throws {
    let folder = try TemporaryFolder()
    let out = folder.file("cohort")
    let result = runResonance(Self.small + ["--out", out, "--cohort", "3", "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(summary["persons"] as? Int == 3)
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(names == ["cohort-truth.json", "person-0001", "person-0002", "person-0003"])

    let truth = try Self.object(out + "/cohort-truth.json")
    let population = try #require(truth["effects"] as? [String: [String: Double]])
    #expect(population.count == CohortPopulation.effects.count)
    for effect in CohortPopulation.effects {
      #expect(population[effect.name.rawValue] == ["mu": effect.mu, "tau": effect.tau])
    }
    let persons = try #require(truth["persons"] as? [[String: Any]])
    #expect(persons.count == 3)
    for (i, person) in persons.enumerated() {
      let name = "person-000\(i + 1)"
      #expect(person["person"] as? String == name)
      #expect(person["seed"] as? Int == 40 + i)
      let draw = CohortPopulation.draw(seed: 40, index: i + 1)
      let effects = try #require(person["effects"] as? [String: Double])
      #expect(
        Self.same(effects[PersonEffect.Name.tempoHeartRate.rawValue], draw.tempoHeartRatePer10BPM))
      #expect(
        Self.same(
          effects[PersonEffect.Name.eveningMusicAsleep.rawValue], draw.eveningMusicAsleepMinutes))
      #expect(
        Self.same(effects[PersonEffect.Name.practiceNightSDNN.rawValue], draw.practiceNightSDNNMs))
      // The member's own truth.json: its seed, its draw, and the plays it counted.
      let member = try Self.object(out + "/" + name + "/truth.json")
      #expect((member["generator"] as? [String: Any])?["seed"] as? Int == 40 + i)
      let planted = try #require(member["planted"] as? [String: Double])
      #expect(Self.same(planted["evening_music_asleep_min"], draw.eveningMusicAsleepMinutes))
      #expect((member["plays"] as? [String: Any])?["total"] as? Int == person["plays"] as? Int)
      #expect(FileManager.default.fileExists(atPath: out + "/" + name + "/apple_health_export"))
    }
    // Members are written side by side on the cores; a second run writes the same bytes.
    let again = folder.file("again")
    #expect(runResonance(Self.small + ["--out", again, "--cohort", "3"]).status == .ok)
    let paths = try #require(FileManager.default.subpaths(atPath: out)).sorted()
    #expect(FileManager.default.subpaths(atPath: again)?.sorted() == paths)
    for path in paths {
      #expect(
        FileManager.default.contents(atPath: out + "/" + path)
          == FileManager.default.contents(atPath: again + "/" + path), "\(path)")
    }
  }

  @Test("a lone person's truth.json plants nothing: no planted section, no tempo terms")
  func lone() throws {
    let folder = try TemporaryFolder()
    let out = folder.file("one")
    #expect(runResonance(Self.small + ["--out", out]).status == .ok)
    let truth = try Self.object(out + "/truth.json")
    #expect(truth["planted"] == nil)
    let songs = try #require(truth["songs"] as? [[String: Any]])
    #expect(!songs.isEmpty && songs.allSatisfy { $0["tempo_effect_bpm"] == nil })
  }

  @Test("--cohort with a flat person, or out of 1–10000, is exit 64 and writes nothing")
  func usage() throws {
    let folder = try TemporaryFolder()
    let out = folder.file("cohort")
    let flat = runResonance(Self.small + ["--out", out, "--cohort", "2", "--person", "flat"])
    #expect(flat.status == .usage)
    #expect(flat.err.contains("'--cohort' cannot plant effects in a flat person"), "\(flat.err)")
    for count in ["0", "10001", "many"] {
      let result = runResonance(Self.small + ["--out", out, "--cohort", count])
      #expect(result.status == .usage, "--cohort \(count)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
