import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

/// Runs the program in-process against a capturing console.
func runResonance(
  _ arguments: [String], environment: [String: String] = [:], onTerminal: Bool = false
)
  -> (status: ExitCode, out: String, err: String)
{
  let console = CapturingConsole(isErrorTerminal: onTerminal)
  let status = Resonance.main(arguments, environment: environment, console: console)
  return (status, console.standardOutput, console.standardError)
}

@Suite("Commands")
struct CommandTests {
  @Test("status --json on an empty store prints the documented object")
  func statusJSON() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("empty.sqlite")
    _ = try Store(path: db)
    let result = runResonance(["status", "--json", "--db", db])
    #expect(result.status == .ok)
    #expect(result.err.isEmpty)
    let parsed = try JSONSerialization.jsonObject(with: Data(result.out.utf8))
    let object = try #require(parsed as? [String: Any])
    #expect(object["schema_version"] as? Int == Schema.currentVersion)
    let health = object["health"] as? [String: Any] ?? [:]
    #expect((health["records"] as? [String: Any])?.isEmpty == true)
    #expect(health["heartbeats"] as? Int == 0)
    #expect(health["workouts"] as? Int == 0)
    #expect(health["first"] is NSNull && health["last"] is NSNull)
    let listening = object["listening"] as? [String: Any] ?? [:]
    for key in ["plays", "skips", "songs"] { #expect(listening[key] as? Int == 0) }
    #expect(listening["first"] is NSNull && listening["last"] is NSNull)
    let traces = object["traces"] as? [String: Any] ?? [:]
    #expect(traces["recordings"] as? Int == 0 && traces["samples"] as? Int == 0)
    #expect((object["imports"] as? [Any])?.isEmpty == true)
  }

  @Test(
    "commands that only read a store are exit 66 when it is not there, say so, and create nothing",
    arguments: [
      ["status"], ["validate", "--truth", "truth.json"], ["breathing"],
      ["hrv", "--from", "2022-06-01"], ["analyze"], ["analyze", "--from", "2022-06-01"],
      ["report"], ["notebook", "run", "n.md"], ["tune"], ["sweep"],
      ["export", "--out", "cohort", "--person", "p1"],
    ])
  func readOnlyCommandsNeedAStore(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let db = folder.file("missing.sqlite")
    try "```sql\nSELECT 1\n```\n".write(
      toFile: folder.file("n.md"), atomically: true, encoding: .utf8)
    try "{}".write(toFile: folder.file("truth.json"), atomically: true, encoding: .utf8)
    let words = arguments.map { ["truth.json", "n.md"].contains($0) ? folder.file($0) : $0 }
    let result = runResonance(words + ["--db", db])
    #expect(result.status == .noInput, "\(arguments): \(result.err)")
    #expect(result.err.contains("missing.sqlite: no store here"), "\(arguments): \(result.err)")
    #expect(result.err.contains("resonance ingest FILES --db \(db)"), "\(arguments): \(result.err)")
    #expect(!FileManager.default.fileExists(atPath: db), "\(arguments) created the store")
  }

  @Test("RESONANCE_DB chooses the store when --db is absent; --db wins over it")
  func storeLocation() throws {
    let folder = try TemporaryFolder()
    let fromEnvironment = folder.file("env.sqlite")
    let fromOption = folder.file("option.sqlite")
    _ = try Store(path: fromEnvironment)
    _ = try Store(path: fromOption)
    let environment = runResonance(["status"], environment: ["RESONANCE_DB": fromEnvironment])
    #expect(environment.out.hasPrefix("store: \(fromEnvironment) "))
    let option = runResonance(
      ["status", "--db", fromOption], environment: ["RESONANCE_DB": fromEnvironment])
    #expect(option.out.hasPrefix("store: \(fromOption) "))
  }

  @Test("status lists imported files in text and JSON")
  func statusWithImports() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("one.sqlite")
    do {
      let store = try Store(path: db)
      try store.insertImport(
        .init(
          file: "Apple_Media_Services.zip!Apple Music Play Activity.csv",
          sha256: String(repeating: "0f", count: 32), importer: "apple-music-play-activity",
          status: .partial, records: 1200, warnings: 2),
        bytes: 99, startedAt: 0, finishedAt: 1)
    }
    let text = runResonance(["status", "--db", db])
    #expect(text.out.contains("Apple_Media_Services.zip!Apple Music Play Activity.csv"))
    #expect(text.out.contains("partial  1,200 records  2 warnings"))
    let json = runResonance(["status", "--db", db, "--json"])
    #expect(json.out.contains("\"importer\": \"apple-music-play-activity\""))
    #expect(json.out.contains("\"status\": \"partial\""))
  }

  @Test("every command's help has a synopsis, every option and an example")
  func helpPages() {
    for command in Resonance.commands {
      let configuration = command.configuration
      let result = runResonance([configuration.name, "--help"])
      #expect(result.status == .ok)
      #expect(result.out.contains("USAGE: resonance \(configuration.name)"))
      for option in command.definitions.options {
        #expect(result.out.contains("--\(option.name)"), "\(configuration.name) --\(option.name)")
      }
      #expect(result.out.contains("EXAMPLES:"))
      for example in configuration.examples {
        #expect(result.out.contains(example.commandLine))
      }
      #expect(runResonance(["help", configuration.name]).out == result.out)
    }
  }

  @Test(
    "every command's help page matches its golden file",
    arguments: [
      "synth", "ingest", "status", "hrv", "breathing", "validate", "analyze", "sweep", "tune",
      "report", "export", "cohort", "notebook", "experiment", "demo",
    ])
  func helpGolden(command: String) throws {
    try expectGolden(runResonance([command, "--help"]).out, named: "\(command)-help.txt")
  }

  @Test("every command has a golden help page")
  func everyCommandHasAGoldenHelpPage() {
    let pinned = [
      "synth", "ingest", "status", "hrv", "breathing", "validate", "analyze", "sweep", "tune",
      "report", "export", "cohort", "notebook", "experiment", "demo",
    ]
    #expect(Set(Resonance.commands.map { $0.configuration.name }) == Set(pinned))
  }

  @Test("the overview lists every command")
  func overview() {
    let result = runResonance(["--help"])
    #expect(result.status == .ok)
    for command in Resonance.commands {
      #expect(result.out.contains("  \(command.configuration.name)"))
    }
    let bare = runResonance([])
    #expect(bare.status == .usage)
    #expect(bare.err.contains("USAGE: resonance <command>"))
  }

  @Test("usage errors print 'error:' and a hint, and exit 64")
  func usageErrors() {
    let unknown = runResonance(["stats"])
    #expect(unknown.status == .usage)
    #expect(unknown.err == "error: unknown command 'stats'\nhint: did you mean 'status'?\n")
    let option = runResonance(["status", "--jsonn"])
    #expect(option.status == .usage)
    #expect(option.err.contains("hint: did you mean '--json'?"))
    let badTimeout = runResonance(["status"], environment: ["RESONANCE_BUSY_TIMEOUT": "soon"])
    #expect(badTimeout.status == .usage)
  }

  @Test("demo without a sample says so and exits 66, writing no report")
  func demoWithoutData() throws {
    let folder = try TemporaryFolder()
    let reports = folder.file("Reports")
    let empty = folder.file("sample")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let result = runResonance(["demo", "--data", empty, "--reports", reports, "--quiet"])
    #expect(result.status == .noInput)
    #expect(result.err == "error: \(empty): holds no data files (the demo reads a sample there)\n")
    #expect(!FileManager.default.fileExists(atPath: reports + "/index.md"))
    let missing = runResonance(["demo", "--data", folder.file("none"), "--reports", reports])
    #expect(missing.status == .noInput)
    #expect(!FileManager.default.fileExists(atPath: reports + "/index.md"))
  }

  @Test("demo rebuilds its store from scratch on every run")
  func demoFreshStore() throws {
    let folder = try TemporaryFolder()
    let reports = folder.file("Reports")
    let db = folder.file("demo.sqlite")
    do {
      let store = try Store(path: db)
      try store.insertImport(
        .init(
          file: "old.xml", sha256: String(repeating: "1", count: 64), importer: "apple-health",
          status: .complete, records: 1, warnings: 0), bytes: 1, startedAt: 0, finishedAt: 0)
    }
    let result = runResonance(["demo", "--reports", reports, "--db", db, "-q"])
    #expect(result.status == .ok)
    #expect(try !Store(path: db).summary().imports.contains { $0.file == "old.xml" })
  }
}

/// Compares `text` with `Golden/<name>`; `RESONANCE_UPDATE_GOLDEN=1` rewrites the file.
func expectGolden(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
)
  throws
{
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden").appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["RESONANCE_UPDATE_GOLDEN"] == "1" {
    try Data(text.utf8).write(to: url)
  }
  let golden = try String(contentsOf: url, encoding: .utf8)
  #expect(text == golden, "differs from Golden/\(name)", sourceLocation: sourceLocation)
}

@Suite("breathing command")
struct BreathingCommandTests {
  @Test("analyses recordings: a row per session, the pattern comparison, JSON with nulls and notes")
  func sample() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("b.jsonl")
    let lines = [
      #"{"format":"resonance.breathing","version":1,"session":7,"pattern":"relaxed","phases":[{"phase":"inhale","seconds":5},{"phase":"exhale","seconds":5}],"started":"2022-06-02T14:23:26.561Z","offset":-25200,"duration_s":20,"trace_rate_hz":30}"#,
      #"{"t":0,"hrv":50}"#, #"{"t":0,"pacer":"inhale"}"#, #"{"t":5,"pacer":"exhale"}"#,
      #"{"t":10,"pacer":"inhale"}"#, #"{"t":15,"pacer":"exhale"}"#, #"not json"#,
    ]
    var text = lines.joined(separator: "\n") + "\n"
    for i in 0...600 {
      let t = Double(i) / 30
      let cycle = t.truncatingRemainder(dividingBy: 10)
      let v = cycle < 5 ? cycle / 5 : 1 - (cycle - 5) / 5
      text += "{\"t\":\(t),\"trace\":\(v)}\n"
    }
    text += #"{"t":20,"hrv":55,"expression":"calm"}"# + "\n"
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let result = runResonance(["breathing", file])
    #expect(result.status == .ok)
    #expect(result.err.contains("b.jsonl:7: line skipped"))
    #expect(result.out.contains("7        relaxed  100"))
    let json = runResonance(["breathing", file, "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    let session = (object?["sessions"] as? [[String: Any]])?.first
    #expect(session?["resonance_score"] as? Double == 100)
    #expect(session?["coherence"] is NSNull)
    #expect(
      (session?["notes"] as? [String])?.contains { $0.hasPrefix("coherence needs 64 s") } == true)
    #expect(session?["dominant_expression"] as? String == "calm")
    let missing = runResonance(["breathing", folder.file("none.jsonl")])
    #expect(missing.status == .noInput)
  }
}
