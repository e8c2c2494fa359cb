import Foundation
import ResonanceModel
import ResonanceReports
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite("report: the pages, CSVs and charts from a store")
struct ReportCommandTests {
  func stores() throws -> TuningStores { try TuningStores.shared.get() }

  /// Checks, with Python's standard parsers, every file a report wrote: each CSV parses with
  /// the same number of cells in every row as in its header; each SVG parses as XML, draws its
  /// own background and has a mark inside its `<g class="plot">`; every link and image of
  /// every page names a file that exists. Prints what it checked.
  static let checker = #"""
    import csv, os, re, sys, xml.etree.ElementTree as ET
    folder = sys.argv[1]
    ns = "{http://www.w3.org/2000/svg}"
    problems = []
    counts = {"csv": 0, "svg": 0, "md": 0}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".csv"):
            counts["csv"] += 1
            with open(path, newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
            if not rows:
                problems.append(name + ": empty")
            for i, row in enumerate(rows[1:], 2):
                if len(row) != len(rows[0]):
                    problems.append(f"{name}:{i}: {len(row)} cells, header has {len(rows[0])}")
        elif name.endswith(".svg"):
            counts["svg"] += 1
            root = ET.parse(path).getroot()
            first = [c for c in root if c.tag != ns + "title"][0]
            if first.tag != ns + "rect" or first.get("fill") != "#ffffff":
                problems.append(name + ": no background of its own")
            plots = [g for g in root.iter(ns + "g") if g.get("class") == "plot"]
            marks = [m for g in plots for m in g.iter() if m.tag[len(ns):] in ("path", "rect", "circle", "line", "polygon")]
            if len(plots) != 1 or not marks:
                problems.append(name + ": no marks in one <g class=\"plot\">")
        elif name.endswith(".md"):
            counts["md"] += 1
            text = open(path, encoding="utf-8").read()
            for target in re.findall(r"\]\(([^)#]+)\)", text):
                if "://" not in target and not os.path.exists(os.path.join(folder, target)):
                    problems.append(f"{name}: broken link {target}")
    print(counts)
    for p in problems:
        print("PROBLEM", p)
    sys.exit(1 if problems else 0)
    """#

  @Test(
    "every page is written with its CSVs and charts, all of which parse, and a second run writes the same bytes"
  )
  func wholeReport() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let out = folder.file("report")
    let result = runResonance(["report", "--db", db, "--out", out, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let pages = try #require(json["pages"] as? [[String: Any]])
    #expect(
      pages.map { $0["name"] as? String } == [
        "songs", "sessions", "sleep", "hrv", "breathing", "tuning", "experiment",
      ])
    for page in pages {
      #expect(!((page["headline"] as? String) ?? "").isEmpty)
      for file in page["files"] as? [String] ?? [] {
        #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file)")
      }
    }
    let (status, output) = try TuningStores.python(Self.checker, [out])
    #expect(status == 0, "\(output)")
    #expect(output.contains("'svg': "), "\(output)")
    // Deterministic: the same store gives the same files, byte for byte.
    let first = try Self.contents(of: out)
    let again = runResonance(["report", "--db", db, "--out", out, "-q"])
    #expect(again.status == .ok)
    #expect(try Self.contents(of: out) == first)
  }

  @Test("sessions.csv holds the store's sessions, with their figures at full precision")
  func sessionsMatchTheStore() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let out = folder.file("report")
    #expect(
      runResonance(["report", "--db", db, "--out", out, "--only", "sessions", "-q"]).status == .ok)
    let store = try Store(path: db)
    let stored = try store.connection.rows(
      "SELECT id, quality_score, skip_rate, hr_delta FROM historical_sessions ORDER BY start_ms, id"
    )
    let script = #"""
      import csv, sys
      from datetime import datetime
      rows = list(csv.DictReader(open(sys.argv[1], newline="")))
      def same(local, utc):
          return utc.endswith("Z") and datetime.fromisoformat(local) == datetime.fromisoformat(utc[:-1] + "+00:00")
      for r in rows:
          twins = same(r["start"], r["start_utc"]) and same(r["end"], r["end_utc"])
          print(r["session_id"], r["quality"] or "nan", r["skip_rate"], r["hr_delta_bpm"] or "nan", r["start"][19:], twins)
      """#
    let (status, output) = try TuningStores.python(script, [out + "/sessions.csv"])
    #expect(status == 0, "\(output)")
    let lines = output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(lines.count == stored.count)
    #expect(stored.count > 20)
    for (line, row) in zip(lines, stored) {
      #expect(Int64(line[0]) == row.optionalInt64(0))
      for (k, column) in [(1, 1), (2, 2), (3, 3)] {
        let written = Double(line[k]) ?? .nan
        let value = row[column].double ?? .nan
        #expect(
          written == value || (written.isNaN && value.isNaN), "session \(line[0]) column \(column)")
      }
      // ISO 8601 with the offset the moment was lived in, and its UTC twin the same instant.
      #expect(line[4].hasPrefix("+") || line[4].hasPrefix("-"))
      #expect(line[5] == "True", "session \(line[0])")
    }
    // Only the page asked for, the index and the Datasette metadata.
    let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(
      files == [
        "index.md", "metadata.json", "sessions-weekly.csv", "sessions-weekly.svg",
        "sessions.csv", "sessions.md",
      ])
  }

  @Test("--out naming a file, or a folder under one, is exit 74 naming that file")
  func outIsAFile() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let file = folder.file("notes.txt")
    try "mine\n".write(toFile: file, atomically: true, encoding: .utf8)
    for out in [file, file + "/report/2024"] {
      let result = runResonance(["report", "--db", db, "--out", out, "--only", "sessions", "-q"])
      #expect(result.status == .ioError, "\(result.err)")
      #expect(result.err.contains("\(file): is a file, not a folder"), "\(result.err)")
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine\n")
  }

  @Test(
    "--from and --to limit the sessions and nights; song estimates stay whole-history and say so")
  func range() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let out = folder.file("report")
    let result = runResonance([
      "report", "--db", db, "--out", out, "--from", "2022-07-01", "--to", "2022-07-31", "--only",
      "sessions", "--only", "sleep", "--only", "songs", "-q",
    ])
    #expect(result.status == .ok, "\(result.err)")
    let script = #"""
      import csv, sys
      days = [r["start_local_date"] for r in csv.DictReader(open(sys.argv[1], newline=""))]
      evenings = [r["evening"] for r in csv.DictReader(open(sys.argv[2], newline=""))]
      print(len(days), min(days), max(days), len(evenings), min(evenings), max(evenings))
      """#
    let (status, output) = try TuningStores.python(
      script, [out + "/sessions.csv", out + "/sleep.csv"])
    #expect(status == 0, "\(output)")
    let parts = output.split(separator: " ").map {
      String($0).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(parts.count == 6)
    #expect(parts[1] >= "2022-07-01" && parts[2] <= "2022-07-31")
    #expect(parts[4] >= "2022-07-01" && parts[5] <= "2022-07-31")
    let songs = try String(contentsOfFile: out + "/songs.md", encoding: .utf8)
    #expect(songs.contains("whole history"))
    #expect(songs.contains("2022-07-01 to 2022-07-31"))
  }

  @Test(
    "the validation page needs --truth; a store that is not there is exit 66 and nothing is written"
  )
  func refusals() throws {
    let folder = try TemporaryFolder()
    let usage = runResonance(["report", "--only", "validation", "--db", folder.file("x.sqlite")])
    #expect(usage.status == .usage)
    #expect(usage.err.contains("--truth"))
    let missing = runResonance([
      "report", "--db", folder.file("missing.sqlite"), "--out", folder.file("out"),
    ])
    #expect(missing.status == .noInput)
    #expect(missing.err.contains("missing.sqlite"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("missing.sqlite")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    let unknown = runResonance(["report", "--only", "weather"])
    #expect(unknown.status == .usage)
  }

  @Test("with --truth the validation page reports the goals")
  func validation() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let out = folder.file("report")
    let result = runResonance([
      "report", "--db", db, "--out", out, "--only", "validation", "--truth",
      stores.data + "/truth.json", "-q",
    ])
    #expect(result.status == .ok, "\(result.err)")
    let page = try String(contentsOfFile: out + "/validation.md", encoding: .utf8)
    #expect(page.contains("goal"))
    let index = try String(contentsOfFile: out + "/index.md", encoding: .utf8)
    #expect(index.contains("[Validation](validation.md)"))
  }

  @Test(
    "the query views hold every row of their tables, with the columns metadata.json describes, and metadata.json names every table"
  )
  func viewsAndMetadata() throws {
    let stores = try stores()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    let out = folder.file("report")
    #expect(
      runResonance(["report", "--db", db, "--out", out, "--only", "tuning", "-q"]).status == .ok)
    let store = try Store(path: db)
    let counts: [(String, String)] = [
      ("v_plays", "playback_events"), ("v_sessions", "historical_sessions"),
      ("v_song_effects", "songs"), ("v_song_context_effects", "song_effects"),
      ("v_nights", "sleep_nights"), ("v_breathing", "breathing_sessions"),
    ]
    #expect(counts.map(\.0) == DatasetteMetadata.viewNames)
    for (view, table) in counts {
      let columns = try store.connection.rows("SELECT name FROM pragma_table_info('\(view)')")
        .map { $0.string(0) }
      #expect(columns == DatasetteMetadata.columns(of: view), "\(view)")
      let n = try store.connection.row("SELECT COUNT(*) FROM \(view)")?.int(0)
      let m = try store.connection.row("SELECT COUNT(*) FROM \(table)")?.int(0)
      #expect(n == m && (m ?? 0) > 0, "\(view): \(n ?? -1) rows, \(table) has \(m ?? -1)")
    }
    // Local times carry their offset and agree with the UTC instant.
    let row = try #require(
      try store.connection.row("SELECT start_utc, start_local, local_date FROM v_sessions LIMIT 1"))
    #expect(row.string(0).hasSuffix("Z"))
    #expect(row.string(1).dropLast(6).hasPrefix(row.string(2)))
    let metadata = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: out + "/metadata.json"))) as? [String: Any])
    let database = try #require(
      ((metadata["databases"] as? [String: Any])?["store"] as? [String: Any])?["tables"]
        as? [String: Any])
    let names = try store.connection.rows(
      "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"
    ).map { $0.string(0) }
    let undocumented = names.filter {
      database[$0] == nil && !$0.hasPrefix("health_watch") && !$0.hasPrefix("health_daily")
    }
    #expect(undocumented.isEmpty, "metadata.json misses \(undocumented)")
    // Every column of every table has its meaning from docs/schema.md.
    for name in names where !name.hasPrefix("v_") {
      let described = ((database[name] as? [String: Any])?["columns"] as? [String: String]) ?? [:]
      let type = try store.connection.row("SELECT type FROM sqlite_master WHERE name = ?", [name])
      guard type?.string(0) == "table" else { continue }
      let columns = try store.connection.rows("SELECT name FROM pragma_table_info('\(name)')")
        .map { $0.string(0) }
      let missing = columns.filter { described[$0] == nil }
      #expect(missing.isEmpty, "\(name): no description of \(missing)")
    }
    let plays = try #require(database["v_plays"] as? [String: Any])
    #expect((plays["units"] as? [String: String])?["played_s"] == "s")
    #expect(
      (plays["columns"] as? [String: String])?.count
        == DatasetteMetadata.columns(of: "v_plays").count)
  }

  @Test(
    "analyze fills the seed's song fields: calm, focus and activation from the per-context scores, energy and valence from the estimates"
  )
  func entityFields() throws {
    let stores = try stores()
    let store = try Store(path: stores.analyzed)
    let rows = try store.connection.rows(
      """
      SELECT s.id, s.calm_score, s.activation_score, s.energy, s.familiarity,
        (SELECT sum(calm_score * sample_count) / sum(sample_count) FROM song_effects e
         WHERE e.song_id = s.id AND sample_count > 0),
        (SELECT sum(energy_score * sample_count) / sum(sample_count) FROM song_effects e
         WHERE e.song_id = s.id AND sample_count > 0),
        f.energy, f.familiarity
      FROM songs s LEFT JOIN song_features f ON f.song_id = s.id
      """)
    #expect(rows.filter { $0[1].double != nil }.count > 20)
    for row in rows {
      for (stored, expected) in [(1, 5), (2, 6), (3, 7), (4, 8)] {
        let a = row[stored].double
        let b = row[expected].double
        #expect((a == nil) == (b == nil), "song \(row.optionalInt64(0) ?? 0) column \(stored)")
        if let a, let b { #expect(abs(a - b) < 1e-9) }
      }
    }
  }

  @Test("the column descriptions metadata.json carries are what docs/schema.md says")
  func schemaColumnsCurrent() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let (status, output) = try TuningStores.python(
      "import runpy, sys; sys.argv = [sys.argv[1], '--check']; "
        + "runpy.run_path(sys.argv[0], run_name='__main__')",
      [root + "/scripts/schema_metadata.py"])
    #expect(status == 0, "\(output)")
  }

  static func contents(of folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return files
  }
}
