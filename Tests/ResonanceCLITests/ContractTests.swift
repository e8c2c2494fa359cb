import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceModel
@testable import ResonanceStore

/// The command line says only what it does: what help claims about the store, what ingest
/// counts, and progress only on a terminal.
@Suite("What the commands say")
struct ContractTests {
  /// A month of a small simulated person, ingested into `folder/person.sqlite`.
  static func person(in folder: TemporaryFolder, analysed: Bool = true) throws -> String {
    let data = folder.file("person")
    let made = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "60", "--seed", "4",
      "-q",
    ])
    try #require(made.status == .ok, "\(made.err)")
    let db = folder.file("person.sqlite")
    try #require(runResonance(["ingest", data, "--db", db, "-q"]).status == .ok)
    if analysed { try #require(runResonance(["analyze", "--db", db, "-q"]).status == .ok) }
    return db
  }

  @Test("what each command's help says of a missing store is what it does")
  func helpClaimsAboutTheStore() throws {
    for command in Resonance.commands {
      let name = command.configuration.name
      guard let db = command.definitions.option(named: "db"), name != "demo" else { continue }
      let folder = try TemporaryFolder()
      let missing = folder.file("missing.sqlite")
      // Each command's least arguments that reach its store.
      let extra: [String] =
        switch name {
        case "validate": ["--truth", folder.file("truth.json")]
        case "notebook": ["run", folder.file("n.md")]
        case "hrv": ["--from", "2022-06-01"]
        case "ingest": [folder.file("nothing-here.zip")]
        case "export": ["--out", folder.file("cohort"), "--person", "p1"]
        case "experiment": ["plan", "--out", folder.file("plan.json")]
        default: []
        }
      try "{}".write(toFile: folder.file("truth.json"), atomically: true, encoding: .utf8)
      try "```sql\nSELECT 1\n```\n".write(
        toFile: folder.file("n.md"), atomically: true, encoding: .utf8)
      let result = runResonance([name] + extra + ["--db", missing])
      if db.help.contains("it must exist") {
        #expect(result.status == .noInput, "\(name): \(result.err)")
        #expect(result.err.contains("no store here"), "\(name): \(result.err)")
      } else {
        // ingest: "created when missing, once an input is recognised".
        #expect(db.help.contains("created when missing, once an input is recognised"), "\(name)")
        #expect(result.status == .noInput, "\(name): \(result.err)")
      }
      #expect(!FileManager.default.fileExists(atPath: missing), "\(name) created the store")
    }
  }

  @Test("ingest of inputs that are all missing, unreadable or unknown creates no store")
  func ingestCreatesNothingForNothing() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("new.sqlite")
    let unknown = folder.file("notes.txt")
    try "just some notes\n".write(toFile: unknown, atomically: true, encoding: .utf8)
    let empty = folder.file("empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let result = runResonance(["ingest", folder.file("nosuchfile.zip"), unknown, empty, "--db", db])
    #expect(result.status == .noInput, "\(result.err)")
    #expect(result.err.contains("nosuchfile.zip: no such file"))
    #expect(result.out.contains("ingest: 0 files imported, 3 failed"), "\(result.out)")
    for suffix in ["", "-wal", "-shm"] {
      #expect(!FileManager.default.fileExists(atPath: db + suffix), "created \(db + suffix)")
    }
    // One recognised input among them is enough to make the store.
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/listening/lastfm.csv").path
    #expect(runResonance(["ingest", unknown, fixture, "--db", db, "-q"]).status == .dataError)
    #expect(FileManager.default.fileExists(atPath: db))
  }

  @Test(
    "ingest's summary names its counts: plays read per kind of file, plays stored as status counts them"
  )
  func ingestCounts() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    _ = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "60", "-q",
    ])
    let db = folder.file("person.sqlite")
    let ingest = runResonance(["ingest", data, "--db", db])
    #expect(ingest.status == .ok, "\(ingest.err)")
    let status =
      try JSONSerialization.jsonObject(
        with: Data(runResonance(["status", "--db", db, "--json"]).out.utf8)) as? [String: Any]
    let listening = try #require(status?["listening"] as? [String: Any])
    let plays = try #require(listening["plays"] as? Int)
    let songs = try #require(listening["songs"] as? Int)
    #expect(
      ingest.out.contains(
        "ingest: the store holds \(Format.grouped(plays)) plays of \(Format.grouped(songs)) songs"),
      "\(ingest.out)")
    #expect(ingest.out.contains("ingest: plays read: "))
    // Sources report one listen twice (the decision log and a history): more plays read than
    // stored, and the summary says which.
    let json =
      try JSONSerialization.jsonObject(
        with: Data(
          runResonance(["ingest", data, "--db", folder.file("again.sqlite"), "--json"]).out.utf8))
      as? [String: Any]
    let read = try #require(json?["plays_read"] as? [String: Int])
    #expect(read.values.reduce(0, +) > plays)
    #expect(json?["plays_stored"] as? Int == plays)
    #expect(json?["songs"] as? Int == songs)
  }

  @Test("counts take the right number: one file, one play")
  func plurals() throws {
    let folder = try TemporaryFolder()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/listening/lastfm.csv").path
    let result = runResonance(["ingest", fixture, "--db", folder.file("one.sqlite")])
    #expect(result.out.contains("ingest: 1 file imported in "), "\(result.out)")
    #expect(!result.out.contains("1 files"))
  }

  @Test(
    "analyze, sweep, tune, report and ingest show their progress on a terminal, and nothing otherwise or with -q"
  )
  func progressOnATerminal() throws {
    let folder = try TemporaryFolder()
    let db = try Self.person(in: folder, analysed: false)
    let analyze = runResonance(["analyze", "--db", db, "--rebuild"], onTerminal: true)
    #expect(analyze.status == .ok)
    #expect(analyze.err.contains("\ranalyze: reading the store"), "\(analyze.err)")
    #expect(analyze.err.contains("analyze: song effects"))
    let report = runResonance(
      ["report", "--db", db, "--out", folder.file("r")], onTerminal: true)
    #expect(report.err.contains("\rreport: pages  ["), "\(report.err)")
    #expect(report.err.contains("0/7 pages"), "\(report.err)")
    let sweep = runResonance(
      ["sweep", "--db", db, "--points", "64", "--out", folder.file("s.csv")], onTerminal: true)
    #expect(sweep.status == .ok, "\(sweep.err)")
    #expect(sweep.err.contains("\rsweep: reading "), "\(sweep.err)")
    #expect(sweep.err.contains("\rsweep: reward models  ["), "\(sweep.err)")
    #expect(sweep.err.contains("\rsweep: 65 points over "), "\(sweep.err)")
    let tune = runResonance(
      ["tune", "--db", db, "--points", "64", "--out", folder.file("p.json")], onTerminal: true)
    #expect(tune.status == .ok, "\(tune.err)")
    #expect(tune.err.contains("\rtune: reading and replaying "), "\(tune.err)")
    let ingest = runResonance(
      ["ingest", folder.file("person"), "--db", folder.file("again.sqlite")], onTerminal: true)
    #expect(ingest.err.contains("\ringest file 1 of "), "\(ingest.err)")
    for words in [
      ["analyze", "--db", db, "--rebuild"], ["report", "--db", db, "--out", folder.file("q")],
      ["sweep", "--db", db, "--points", "64", "--out", folder.file("s.csv")],
    ] {
      #expect(!runResonance(words).err.contains("\r"), "\(words) drew on a pipe")
      #expect(runResonance(words + ["-q"], onTerminal: true).err.isEmpty, "\(words) -q")
    }
  }

  @Test(
    "re-ingesting files imported whole reads none of them; a file whose import failed is read again"
  )
  func reingestDecidesByTheFilesDigest() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    _ = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "60", "--compress",
      "-q",
    ])
    // A recording cut short mid-stream: its gzip breaks, so its import fails.
    let whole = try Data(
      contentsOf: URL(fileURLWithPath: data + "/resonance/mood/mood-inputs.jsonl.gz"))
    let broken = data + "/resonance/mood-cut-short.jsonl.gz"
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: broken))
    let db = folder.file("p.sqlite")
    let first = runResonance(["ingest", data, "--db", db, "--json"])
    let before = try JSONSerialization.jsonObject(with: Data(first.out.utf8)) as? [String: Any]
    let imported = try #require(before?["imports"] as? [[String: Any]])
    #expect(!imported.isEmpty)
    let statusBefore = runResonance(["status", "--db", db, "--json"]).out

    let again = runResonance(["ingest", data, "--db", db, "--json"])
    let after = try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any]
    let unchanged = try #require(after?["unchanged"] as? [String])
    // Every file on disk that was imported whole is passed over; none is read by a reader.
    let files = Set(imported.map { String(($0["file"] as? String ?? "").split(separator: "!")[0]) })
    #expect(Set(unchanged) == files.subtracting([broken]), "\(unchanged)")
    let readAgain = (after?["imports"] as? [[String: Any]] ?? []).map { $0["file"] as? String }
    #expect(readAgain.isEmpty, "\(readAgain)")
    // The broken one is read again, and fails again.
    let failed = (after?["failed"] as? [[String: Any]] ?? []).compactMap { $0["error"] as? String }
    #expect(failed.count == 1 && failed[0].hasPrefix(broken), "\(failed)")
    #expect(runResonance(["status", "--db", db, "--json"]).out == statusBefore)
    let text = runResonance(["ingest", data, "--db", db])
    #expect(text.out.contains("unchanged since it was imported whole (same SHA-256); not read"))
  }
}
