import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceReports
@testable import ResonanceStore

@Suite("notebook run: blocks re-run against the store, outputs written in place")
struct NotebookCommandTests {
  func stores() throws -> TuningStores { try TuningStores.shared.get() }

  static let notebook = """
    # Test notebook

    Prose stays as written.

    ```sql
    SELECT context, count(*) AS sessions FROM historical_sessions GROUP BY context ORDER BY context
    ```

    ```resonance
    resonance report --only sessions
    ```

    The end.

    """

  @Test("a run writes every output after its block; a second run and --check change nothing")
  func idempotent() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let file = folder.file("n.md")
    try Self.notebook.write(toFile: file, atomically: true, encoding: .utf8)
    let first = runResonance(["notebook", "run", file, "--db", db])
    #expect(first.status == .ok, "\(first.err)")
    #expect(first.out.contains("2 blocks, 0 failed, updated"))
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(written.hasPrefix("# Test notebook\n\nProse stays as written.\n\n```sql\n"))
    #expect(written.contains("<!-- output -->\n| context | sessions |\n|---|---:|\n"))
    #expect(written.contains("report: sessions: "))
    #expect(!written.contains("report: wrote"))
    #expect(!written.contains(folder.path))
    #expect(written.hasSuffix("<!-- /output -->\n\nThe end.\n"))
    let second = runResonance(["notebook", "run", file, "--db", db])
    #expect(second.status == .ok)
    #expect(second.out.contains("unchanged"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == written)
    let check = runResonance(["notebook", "run", file, "--db", db, "--check"])
    #expect(check.status == .ok)
  }

  @Test("--check on a stale notebook writes nothing, shows the difference and exits 1")
  func check() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let file = folder.file("n.md")
    let stale = "```sql\nSELECT 1 AS one\n```\n\n<!-- output -->\nold\n<!-- /output -->\n"
    try stale.write(toFile: file, atomically: true, encoding: .utf8)
    let check = runResonance(["notebook", "run", file, "--db", db, "--check"])
    #expect(check.status == .failure)
    #expect(check.out.contains("- old\n+ | one |"))
    #expect(check.out.contains("stale"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == stale)
  }

  @Test(
    "commands that write are refused, queries that write fail, and each failure is the block's output with exit 1"
  )
  func refusals() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let file = folder.file("n.md")
    let blocks = [
      "```resonance\nresonance tune --out x.json\n```",
      "```resonance\nresonance sweep\n```",
      "```resonance\nresonance report --only songs --out /tmp/elsewhere\n```",
      "```resonance\nresonance hrv\n```",
      "```sql\nDELETE FROM songs\n```",
      "```sql\nSELECT 1; DROP TABLE songs\n```",
      "```sql\nSELECT x FROM nowhere\n```",
      "```resonance\nresonance status\n```",
    ]
    try (blocks.joined(separator: "\n\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = runResonance(["notebook", "run", file, "--db", db])
    #expect(result.status == .failure)
    #expect(result.out.contains("8 blocks, 7 failed"))
    #expect(result.err.contains("n.md:1:1: error: the resonance block failed"))
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains("refused: 'resonance tune' is not one a notebook runs"))
    #expect(text.contains("refused: 'resonance sweep' is not one a notebook runs"))
    #expect(text.contains("writes nowhere: drop --out"))
    #expect(text.contains("refused: 'resonance hrv' in a notebook reads files"))
    #expect(text.contains("a query may only read the store"))
    #expect(text.contains("one statement per query"))
    #expect(text.contains("no such table: nowhere"))
    #expect(text.contains("```text\nstore: "))
    // The store is exactly as it was.
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    #expect(try Store(path: db).connection.row("SELECT COUNT(*) FROM songs")?.int(0) ?? 0 > 0)
  }

  @Test("no store is exit 66; no action or no file is a usage error")
  func usage() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("n.md")
    try "```sql\nSELECT 1\n```\n".write(toFile: file, atomically: true, encoding: .utf8)
    let missing = runResonance(["notebook", "run", file, "--db", folder.file("none.sqlite")])
    #expect(missing.status == .noInput)
    #expect(!FileManager.default.fileExists(atPath: folder.file("none.sqlite")))
    #expect(runResonance(["notebook", file]).status == .usage)
    #expect(runResonance(["notebook", "run"]).status == .usage)
  }
}

@Suite("the committed notebooks on a person's own store")
struct OwnStoreNotebookTests {
  @Test(
    "run from a folder outside the repository on a store that is not the sample's, every notebook succeeds and shows that store"
  )
  func fromElsewhere() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    // The breathing notebook reads what `resonance breathing --db` saves.
    let breathing = runResonance(["breathing", "--db", db, "-q"])
    try #require(breathing.status == .ok, "\(breathing.err)")
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "notebooks-md")
    let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
      .filter { $0.hasSuffix(".md") }.sorted()
    #expect(names.count >= 3)
    var copies: [String] = []
    for name in names {
      let copy = folder.file(name)
      try FileManager.default.copyItem(atPath: root.appendingPathComponent(name).path, toPath: copy)
      copies.append(copy)
    }
    // Run by the executable with the temporary folder as its working directory: no path in a
    // notebook may lean on the repository's.
    let run = try Binary.run(["notebook", "run"] + names + ["--db", db], in: folder.path)
    #expect(run.code == 0, "\(run.err)")
    let sessions = try #require(
      try Store(path: db).connection.rows("SELECT count(*) AS n FROM breathing_sessions").first?
        .int64("n"))
    let written = try String(contentsOfFile: folder.file("breathing-progress.md"), encoding: .utf8)
    #expect(written.contains("report: breathing: \(sessions) sessions"))
    #expect(!written.contains("Datasets/sample"))
    for (name, copy) in zip(names, copies) {
      let text = try String(contentsOfFile: copy, encoding: .utf8)
      #expect(!text.contains("<!-- output -->\n```text\nerror"), "\(name) has a failed block")
      #expect(
        text != (try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)),
        "\(name) still shows the sample's figures")
    }
  }
}

@Suite("notebook run: sql blocks under limits, outputs that cannot break the file")
struct NotebookLimitTests {
  func stores() throws -> TuningStores { try TuningStores.shared.get() }

  /// A notebook of `blocks` (sql), run with `extra`; the run, and the file afterwards.
  func run(_ blocks: [String], _ extra: [String] = []) throws -> (
    result: (status: ExitCode, out: String, err: String), file: String
  ) {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.ingested, into: folder)
    let path = folder.file("n.md")
    let text = blocks.map { "```sql\n\($0)\n```\n" }.joined(separator: "\n")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let result = runResonance(["notebook", "run", path, "--db", db] + extra)
    return (
      (result.status, result.out, result.err), try String(contentsOfFile: path, encoding: .utf8)
    )
  }

  @Test(
    "a query that never ends is stopped at --time-limit, named, and the run exits 1; the next block still runs"
  )
  func timeLimit() throws {
    let (result, file) = try run(
      [
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
        "SELECT 1 AS one",
      ], ["--time-limit", "0.5"])
    #expect(result.status == .failure)
    #expect(result.err.contains("n.md:1:1: error: the sql block failed"), "\(result.err)")
    #expect(
      file.contains(
        "error: the statement ran past its time limit of 0.5 s and was stopped (notebook run --time-limit S, --memory-limit MB)"
      ), "\(file)")
    #expect(file.contains("| one |\n|---:|\n| 1 |"))
  }

  @Test("a value larger than --memory-limit is refused by SQLite, named, and the run exits 1")
  func memoryLimit() throws {
    let (result, file) = try run(
      ["SELECT length(randomblob(3000000)) AS n"], ["--memory-limit", "2"])
    #expect(result.status == .failure)
    #expect(
      file.contains(
        "error: a value would be larger than the limit of 2 MB; the statement was stopped"),
      "\(file)")
    // The default (100 MB) refuses the 3 GB blob of the hostile notebook just the same.
    let (big, bigFile) = try run(["SELECT length(randomblob(3000000000)) AS n"])
    #expect(big.status == .failure)
    #expect(bigFile.contains("larger than the limit of 100 MB"))
    let (fits, fitsFile) = try run(
      ["SELECT length(randomblob(1000000)) AS n"], ["--memory-limit", "2"])
    #expect(fits.status == .ok, "\(fits.err)")
    #expect(fitsFile.contains("| 1000000 |"))
  }

  @Test(
    "control characters, backtick fences and output markers from a query never reach the file raw")
  func escapedOutputs() throws {
    let (result, file) = try run([
      "SELECT char(27) || '[31mred' || char(13) AS x",
      "SELECT * FROM \"no" + "\n<!-- /output -->\n```\"",
    ])
    #expect(result.status == .failure)
    #expect(
      !file.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(file.debugDescription)")
    // ESC becomes U+FFFD and CR a space, as in the report's tables.
    #expect(file.contains("| \u{FFFD}\\[31mred  |"))
    // The error quotes the table's name: its marker line is written harmless and its fence
    // inside a longer one, so the file parses back to the same two blocks and outputs.
    #expect(file.contains("&lt;!-- /output -->"))
    #expect(file.contains("````text\n"))
    let notebook = Notebook(parsing: file)
    #expect(notebook.blocks.count == 2)
    #expect(notebook.rendered(outputs: notebook.blocks.map { $0.output ?? "" }) == file)
  }
}
