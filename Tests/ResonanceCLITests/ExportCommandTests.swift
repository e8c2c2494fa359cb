import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite("export: a person's hand-off for a cohort")
struct ExportCommandTests {
  /// A copy of the shared analysed store with breathing results and a tuning run, as a
  /// person's pipeline leaves it before `export`.
  static func pipelineStore(in folder: TemporaryFolder) throws -> String {
    let stores = try TuningStores.shared.get()
    let db = try stores.copy(stores.analyzed, into: folder)
    for words in [["breathing", "--db", db, "-q"], ["tune", "--db", db, "-q"]] {
      let result = runResonance(words)
      try #require(result.status == .ok, "\(words): \(result.err)")
    }
    return db
  }

  static func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  static func json(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: bytes(path)) as? [String: Any])
  }

  @Test(
    "every table, effects.json and a manifest whose rows and digests match the files; a second export writes the same bytes"
  )
  func handOff() throws {
    let folder = try TemporaryFolder()
    let db = try Self.pipelineStore(in: folder)
    let out = folder.file("cohort")
    let result = runResonance(["export", "--db", db, "--out", out, "--person", "p-01", "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let person = out + "/person=p-01"
    let names =
      HandOffTable.allCases.map { "\($0.rawValue).parquet" } + ["effects.json"]
    let manifest = try Self.json(person + "/manifest.json")
    #expect(manifest["person"] as? String == "p-01")
    #expect(manifest["schema_version"] as? Int == 1)
    #expect(manifest["tool_version"] as? String == Resonance.version)
    #expect(manifest["complete"] as? Bool == true)
    let files = try #require(manifest["files"] as? [[String: Any]])
    #expect(files.map { $0["name"] as? String } == names)
    var before: [String: Data] = [:]
    for file in files {
      let name = try #require(file["name"] as? String)
      let data = try Self.bytes(person + "/" + name)
      let hasher = SHA256()
      hasher.update(Array(data))
      #expect(file["sha256"] as? String == hasher.finalize(), "\(name)")
      #expect(file["bytes"] as? Int == data.count, "\(name)")
      before[name] = data
    }
    // The manifest's rows are the store's.
    let store = try Store(readingAt: db)
    let counts: [String: String] = [
      "sessions.parquet": "SELECT count(*) FROM historical_sessions",
      "nights.parquet": "SELECT count(*) FROM sleep_nights",
      "play_biometrics.parquet": "SELECT count(*) FROM play_biometrics",
      "breathing.parquet": "SELECT count(*) FROM breathing_results",
      "tuning.parquet": "SELECT count(*) FROM tuning_runs",
      "song_contexts.parquet": "SELECT count(*) FROM song_context_effect_estimates",
    ]
    for (name, sql) in counts {
      let rows = try #require(files.first { $0["name"] as? String == name }?["rows"] as? Int)
      #expect(rows == (try store.connection.row(sql)?.int(0)), "\(name)")
      #expect(rows > 0, "\(name) is empty on a whole pipeline")
    }
    // Each effect the stage printed is the one effects.json carries.
    let effects = try Self.json(person + "/effects.json")
    let printed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let list = try #require(effects["effects"] as? [[String: Any]])
    #expect(list.count == (printed["effects"] as? [Any])?.count)
    #expect(list.contains { $0["name"] as? String == "tempo_hr_per_10bpm" })
    for effect in list {
      #expect((effect["se"] as? Double ?? -1) > 0, "\(effect)")
      #expect((effect["n"] as? Int ?? 0) > 0, "\(effect)")
    }

    let again = runResonance(["export", "--db", db, "--out", out, "--person", "p-01", "-q"])
    #expect(again.status == .ok, "\(again.err)")
    for (name, data) in before {
      #expect(try Self.bytes(person + "/" + name) == data, "\(name) changed on re-export")
    }
  }

  @Test(
    "a folder holding another store's hand-off is refused, unchanged, unless --replace; a CSV export then leaves no Parquet file behind"
  )
  func anotherStore() throws {
    let folder = try TemporaryFolder()
    let stores = try TuningStores.shared.get()
    let db = try stores.copy(stores.analyzed, into: folder)
    let out = folder.file("cohort")
    let first = runResonance(["export", "--db", db, "--out", out, "--person", "p1", "-q"])
    try #require(first.status == .ok, "\(first.err)")
    // Another store's manifest in the folder: its store digest differs.
    let manifestPath = out + "/person=p1/manifest.json"
    let other = try String(contentsOfFile: manifestPath, encoding: .utf8)
      .replacingOccurrences(of: "\"store\": \"", with: "\"store\": \"0")
    try other.write(toFile: manifestPath, atomically: true, encoding: .utf8)

    let refused = runResonance(["export", "--db", db, "--out", out, "--person", "p1"])
    #expect(refused.status == .failure)
    #expect(refused.err.contains("manifest.json: the folder holds another store's hand-off"))
    #expect(refused.err.contains("--replace"))
    #expect(try String(contentsOfFile: manifestPath, encoding: .utf8) == other)

    let replaced = runResonance([
      "export", "--db", db, "--out", out, "--person", "p1", "--replace", "--format", "csv",
      "--json",
    ])
    #expect(replaced.status == .ok, "\(replaced.err)")
    #expect(replaced.out.contains("\"replaced\": true"))
    let names = try FileManager.default.contentsOfDirectory(atPath: out + "/person=p1").sorted()
    #expect(
      names
        == (HandOffTable.allCases.map { "\($0.rawValue).csv" } + ["effects.json", "manifest.json"])
        .sorted())
    let sessions = try String(contentsOfFile: out + "/person=p1/sessions.csv", encoding: .utf8)
    #expect(sessions.hasPrefix("session_id,start,start_offset_s,end,end_offset_s,context,"))
  }

  @Test(
    "a pseudonym that is not one is a usage error, and nothing is written",
    arguments: ["007", "a/b", "p 1", "", "ä1", String(repeating: "a", count: 65), "-p"])
  func badPseudonym(person: String) throws {
    let folder = try TemporaryFolder()
    let result = runResonance([
      "export", "--db", folder.file("none.sqlite"), "--out", folder.file("c"), "--person", person,
    ])
    #expect(result.status == .usage, "\(person): \(result.err)")
    #expect(result.err.contains("--person"), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("c")))
  }

  @Test("the hand-off holds none of the identifiers synth planted in the export files")
  func privacy() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let out = folder.file("cohort")
    let result = runResonance([
      "export", "--db", stores.analyzed, "--out", out, "--person", "p1", "--format", "csv", "-q",
    ])
    try #require(result.status == .ok, "\(result.err)")
    let truth = try Self.json(stores.data + "/truth.json")
    let planted = try #require(truth["privacy"] as? [String: String])
    #expect(!planted.isEmpty)
    let person = out + "/person=p1"
    for name in try FileManager.default.contentsOfDirectory(atPath: person) {
      let data = try Self.bytes(person + "/" + name)
      for (key, value) in planted {
        #expect(data.range(of: Data(value.utf8)) == nil, "\(name) holds the \(key)")
      }
    }
  }
}
