import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

func healthFixturePath(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/health/\(name)").path
}

@Suite("ingest: Apple Health exports")
struct IngestHealthTests {
  func summary(_ db: String) throws -> StoreSummary { try Store(path: db).summary() }

  @Test("the quirks fixture: per-type counts after de-duplication, beats, workouts, warnings")
  func quirks() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("s.sqlite")
    let result = runResonance(["ingest", healthFixturePath("quirks.xml"), "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.err.contains("quirks.xml:"))
    #expect(result.out.contains("not imported: ClinicalRecord (1)"))
    let health = try summary(db).health
    #expect(
      health.records == [
        "HKQuantityTypeIdentifierHeartRate": 2,
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": 2,
        "HKQuantityTypeIdentifierStepCount": 2, "HKQuantityTypeIdentifierActiveEnergyBurned": 1,
        "HKQuantityTypeIdentifierDistanceWalkingRunning": 1, "HKQuantityTypeIdentifierBodyMass": 1,
        "HKCategoryTypeIdentifierSleepAnalysis": 5, "HKCategoryTypeIdentifierMindfulSession": 2,
        "HKQuantityTypeIdentifierBloodPressureSystolic": 1,
        "HKQuantityTypeIdentifierBloodPressureDiastolic": 1,
        "HKQuantityTypeIdentifierFutureThing": 1,
      ])
    #expect(health.heartbeats == 5 && health.workouts == 1)
    #expect(health.first?.iso8601UTC == "2021-03-01T16:00:00Z")
    // Shown to people in the local time it was lived in, UTC beside it.
    let status = runResonance(["status", "--db", db])
    #expect(
      status.out.contains("2021-03-01 08:00 -08:00 (2021-03-01T16:00:00Z) to "), "\(status.out)")
    let imports = try summary(db).imports
    #expect(imports.count == 1 && imports[0].records == 19 && imports[0].warnings == 2)
    let store = try Store(path: db)
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM health_sources WHERE name_key LIKE 'Jane''s iPhone'")?.int(0) == 1)
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM health_records WHERE correlation_id IS NOT NULL")?.int(0) == 2)
    #expect(try store.connection.row("SELECT birth_year FROM person")?.int(0) == 1988)
    #expect(
      try store.connection.row("SELECT time_zone FROM workouts")?.string(0) == "America/Los_Angeles"
    )
    #expect(
      try store.connection.row("SELECT file_path FROM workout_routes")?.string(0)
        == "/workout-routes/route_2024-01-15_6.00pm.gpx")
    #expect(try store.connection.row("SELECT COUNT(*) FROM health_devices")?.int(0) == 1)
  }

  @Test("identifiers never reach the store file")
  func privacy() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("p.sqlite")
    _ = runResonance(["ingest", healthFixturePath("quirks.xml"), "--db", db, "-q"])
    _ = try Store(path: db)  // closes and checkpoints the WAL into the file
    let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
    for secret in [
      "12345", "userid", "0x2829f1e50", "0x2810aa3c0", "1988-07-03", "HKBloodTypeAPositive",
    ] {
      #expect(bytes.range(of: Data(secret.utf8)) == nil, "the store holds '\(secret)'")
    }
  }

  @Test("identifiers in metadata values and device strings never reach the store file")
  func privacyEverySpelling() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("p.sqlite")
    let result = runResonance(["ingest", healthFixturePath("privacy.xml"), "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.out.contains("25 identifying metadata entries dropped"), "\(result.out)")
    let store = try Store(path: db)
    #expect(
      try store.connection.rows(
        "SELECT name, manufacturer, model FROM health_devices ORDER BY model, manufacturer"
      ).map { "\($0.string(0))|\($0.string(1))|\($0.string(2))" } == [
        "Apple Watch||Watch", "Apple Watch|Apple Inc.|Watch", "|Apple Inc.|iPhone",
      ])
    let metadata = try store.connection.rows(
      "SELECT metadata FROM health_records WHERE metadata IS NOT NULL"
    ).map { $0.string(0) }
    #expect(metadata.count == 1)
    #expect(
      metadata.first?.contains("HKMetadataKeyHeartRateMotionContext") == true
        && metadata.first?.contains("Reading Time") == true, "\(metadata)")
    _ = try Store(path: db)  // closes and checkpoints the WAL into the file
    let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
    for secret in [
      "4815162342", "kept-out@example.org", "jane.doe@example.com", "192.0.2.44", "2001:db8",
      "00:1A:7D", "0B9E4F3C", "0x600003c2a1b0", "feedface", "deadbeef", "7C2E1B0A",
      "AB12CD34", "owner@example.net", "2c3a4b5d6",
      // Keys in other spellings (their values name them), values in other shapes.
      "k-user-dot", "k-user-colon", "k-user-hyphen", "k-en-dash", "k-nbsp", "k-fullwidth",
      "k-ip-addr", "y-fullwidth", "y-escaped", "7c2e1b0a5d4f", "001A7DDA7113", "jane-q",
      "s-9191", "eyJhbGciOiJIUzI1NiJ9", "7946 0958", "176148", "C02XL0GXJG5H", "hunter2",
      // Device strings with other separators.
      "LOCAL-ID-NOSPACE", "SERIALNOSPACE1", "LOCAL-ID-SEMI", "SERIALSEMI22",
    ] {
      #expect(bytes.range(of: Data(secret.utf8)) == nil, "the store holds '\(secret)'")
    }
  }

  @Test("re-importing the same file changes nothing and says so")
  func reimport() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("r.sqlite")
    _ = runResonance(["ingest", healthFixturePath("quirks.xml"), "--db", db, "-q"])
    let before = try summary(db)
    let copy = folder.file("copy-of-export.xml")
    try FileManager.default.copyItem(atPath: healthFixturePath("quirks.xml"), toPath: copy)
    let again = runResonance(["ingest", copy, "--db", db])
    #expect(again.status == .ok)
    #expect(again.out.contains("unchanged since it was imported whole"), "\(again.out)")
    #expect(try summary(db) == before)
  }

  @Test("a newer export that overlaps an older one adds only what is new")
  func overlap() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("o.sqlite")
    let text = try String(contentsOfFile: healthFixturePath("quirks.xml"), encoding: .utf8)
    let newRecord = """
       <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2024-01-19 08:30:00 -0800" endDate="2024-01-19 08:30:00 -0800" value="66"/>
      </HealthData>
      """
    let newer = folder.file("newer.xml")
    try text.replacingOccurrences(of: "</HealthData>", with: newRecord).write(
      toFile: newer, atomically: true, encoding: .utf8)
    _ = runResonance(["ingest", healthFixturePath("quirks.xml"), "--db", db, "-q"])
    let result = runResonance(["ingest", newer, "--db", db])
    #expect(result.status == .ok)
    let imports = try summary(db).imports
    #expect(imports.count == 2 && imports[1].records == 1)
    #expect(try summary(db).health.records["HKQuantityTypeIdentifierHeartRate"] == 3)
    #expect(try summary(db).health.heartbeats == 5)
  }

  @Test(
    "truncated at several offsets: exit 65 with file:line:col, the store byte for byte as before")
  func truncation() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("t.sqlite")
    _ = runResonance(["ingest", healthFixturePath("ios16-broken-dtd.xml"), "--db", db, "-q"])
    _ = try Store(path: db)
    let before = try storeBytes(db)
    let whole = try Data(contentsOf: URL(fileURLWithPath: healthFixturePath("quirks.xml")))
    for offset in [200, 900, 2_000, 4_100, 7_000, whole.count - 30] {
      let cut = folder.file("cut-\(offset).xml")
      try whole.prefix(offset).write(to: URL(fileURLWithPath: cut))
      let result = runResonance(["ingest", cut, "--db", db])
      #expect(result.status == .dataError, "offset \(offset): \(result.err)")
      #expect(result.err.contains("error: \(cut):"), "offset \(offset): \(result.err)")
      _ = try Store(path: db)
      #expect(try storeBytes(db) == before, "offset \(offset) changed the store")
    }
  }

  @Test("--keep-partial keeps what parsed and marks the ledger row partial")
  func keepPartial() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("k.sqlite")
    let whole = try Data(contentsOf: URL(fileURLWithPath: healthFixturePath("quirks.xml")))
    let cut = folder.file("cut.xml")
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
    let result = runResonance(["ingest", cut, "--db", db, "--keep-partial"])
    #expect(result.status == .dataError)
    let imports = try summary(db).imports
    #expect(imports.count == 1 && imports[0].status == .partial && imports[0].records > 0)
  }

  @Test("a zip and its unpacked XML give the same store")
  func zipEqualsXML() throws {
    let folder = try TemporaryFolder()
    let zip = folder.file("export.zip")
    let writer = try ZipWriter(path: zip, modificationTime: 0)
    try writer.add(
      name: "apple_health_export/export.xml", contentsOfFile: healthFixturePath("quirks.xml"))
    try writer.add(
      name: "apple_health_export/export_cda.xml", bytes: Array("<ClinicalDocument/>".utf8))
    try writer.add(
      name: "apple_health_export/electrocardiograms/ecg_2024-01-15.csv", bytes: Array("x".utf8))
    try writer.close()
    let fromZip = folder.file("zip.sqlite")
    let fromXML = folder.file("xml.sqlite")
    let zipped = runResonance(["ingest", zip, "--db", fromZip])
    #expect(zipped.status == .ok, "\(zipped.err)")
    #expect(zipped.out.contains("electrocardiogram files (1)"))
    _ = runResonance(["ingest", healthFixturePath("quirks.xml"), "--db", fromXML, "-q"])
    let a = try summary(fromZip)
    let b = try summary(fromXML)
    #expect(a.health == b.health)
    #expect(a.imports.map(\.sha256) == b.imports.map(\.sha256))
    #expect(a.imports.first?.file == "\(zip)!apple_health_export/export.xml")
    let dump =
      "SELECT type_id, source_id, value_text, unit, start_ms, end_ms, value_normalized FROM health_records ORDER BY id"
    #expect(
      try Store(path: fromZip).connection.rows(dump) == Store(path: fromXML).connection.rows(dump))
  }

  @Test("an export whose internal DTD is over 64 KB is still recognised, plain and in a zip")
  func largeDTD() throws {
    let folder = try TemporaryFolder()
    // 100 KB of attribute declarations before the root element; recognition reads up to
    // 1 MiB or the root element, whichever comes first.
    var dtd = "<!DOCTYPE HealthData [\n<!ELEMENT HealthData (Record*)>\n"
    var i = 0
    while dtd.utf8.count < 100_000 {
      dtd += "<!ATTLIST Record attribute\(i) CDATA #IMPLIED>\n"
      i += 1
    }
    dtd += "]>\n"
    let record =
      #"<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-01-15 08:30:00 -0800" endDate="2024-01-15 08:30:00 -0800" value="72"/>"#
    let text =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + dtd
      + "<HealthData locale=\"en_US\">\n " + record + "\n</HealthData>\n"
    let xml = folder.file("export.xml")
    try text.write(toFile: xml, atomically: true, encoding: .utf8)
    let zip = try ZipWriter(path: folder.file("export.zip"), modificationTime: 0)
    try zip.add(name: "apple_health_export/export.xml", contentsOfFile: xml)
    try zip.close()
    for input in [xml, folder.file("export.zip")] {
      let db = folder.file("\((input as NSString).lastPathComponent).sqlite")
      let result = runResonance(["ingest", input, "--db", db])
      #expect(result.status == .ok, "\(input): \(result.err)")
      #expect(try summary(db).health.records == ["HKQuantityTypeIdentifierHeartRate": 1])
    }
  }

  @Test("a WorkoutActivity's statistics, events and metadata are not added to its Workout twice")
  func workoutActivity() throws {
    let folder = try TemporaryFolder()
    let dates = #"startDate="2024-01-15 18:00:00 -0800" endDate="2024-01-15 18:30:00 -0800""#
    let stat =
      #"<WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" "# + dates
      + #" sum="250" unit="kcal"/>"#
    let event =
      #"<WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-01-15 18:10:00 -0800" duration="5" durationUnit="min"/>"#
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_US">
       <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" \(dates)>
        <MetadataEntry key="HKIndoorWorkout" value="0"/>
        \(event)
        <WorkoutActivity uuid="1" \(dates)>
         <MetadataEntry key="HKIndoorWorkout" value="0"/>
         \(event)
         \(stat)
        </WorkoutActivity>
        \(stat)
       </Workout>
      </HealthData>
      """
    let path = folder.file("activity.xml")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let db = folder.file("a.sqlite")
    let result = runResonance(["ingest", path, "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    let store = try Store(path: db)
    #expect(
      try store.connection.row("SELECT metadata FROM workouts")?.string(0)
        == #"{"HKIndoorWorkout":"0"}"#)
    #expect(try store.connection.row("SELECT COUNT(*) FROM workout_statistics")?.int(0) == 1)
    #expect(try store.connection.row("SELECT COUNT(*) FROM workout_events")?.int(0) == 1)
    #expect(!result.out.contains("not imported"), "\(result.out)")
  }

  @Test("an export cut short says it ended early and where, not 'Extra content'")
  func cutShort() throws {
    let folder = try TemporaryFolder()
    let text = try String(contentsOfFile: healthFixturePath("quirks.xml"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let cut = folder.file("cut.xml")
    try lines.prefix(21).joined(separator: "\n").appending("\n").write(
      toFile: cut, atomically: true, encoding: .utf8)
    let result = runResonance(["ingest", cut, "--db", folder.file("c.sqlite")])
    #expect(result.status == .dataError)
    #expect(result.err.contains("the document ended early, inside <HealthData>"), "\(result.err)")
    #expect(result.err.contains("is the file cut short?"))
    #expect(!result.err.contains("Extra content"))
  }

  @Test("iOS 16's broken DTD and stray 0x0B are tolerated with warnings")
  func brokenExport() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("b.sqlite")
    let result = runResonance(["ingest", healthFixturePath("ios16-broken-dtd.xml"), "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.err.contains("warning: ") && result.err.contains("DTD is malformed"))
    #expect(result.err.contains("vertical-tab"))
    #expect(try summary(db).imports.first?.warnings == 2)
  }

  @Test("several files: a bad one does not stop the rest; the exit code is the highest")
  func severalFiles() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("m.sqlite")
    let notes = folder.file("notes.txt")
    try "just some notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
    let result = runResonance(
      [
        "ingest", folder.file("missing.xml"), notes, healthFixturePath("quirks.xml"), "--db", db,
        "-q",
      ])
    #expect(result.status == .noInput)
    #expect(result.err.contains("notes.txt:1:1: expected an export the tool reads"))
    #expect(try summary(db).imports.count == 1)
  }
}

@Suite("ingest: daily totals across overlapping sources")
struct DailyTotalsTests {
  @Test("the Watch is preferred where it overlaps the iPhone; iPhone-only spans still count")
  func watchPreferred() throws {
    let folder = try TemporaryFolder()
    let xml = folder.file("steps.xml")
    let watch =
      "device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2&gt;\""
    let phone =
      "device=\"&lt;&lt;HKDevice: 0x2&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.2&gt;\""
    func step(_ source: String, _ device: String, _ start: String, _ end: String, _ value: Int)
      -> String
    {
      " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" \(device) unit=\"count\" startDate=\"2024-01-15 \(start) -0800\" endDate=\"2024-01-15 \(end) -0800\" value=\"\(value)\"/>\n"
    }
    let text =
      "<HealthData locale=\"en_US\">\n"
      + step("Jane’s iPhone", phone, "09:00:00", "09:10:00", 1000)  // overlaps the Watch: dropped
      + step("Jane’s Apple Watch", watch, "09:02:00", "09:09:00", 950)
      + step("Jane’s iPhone", phone, "12:00:00", "12:05:00", 400)  // Watch off: counted
      + step("Jane’s Apple Watch", watch, "23:50:00", "23:55:00", 100)
      + "</HealthData>\n"
    try text.write(toFile: xml, atomically: true, encoding: .utf8)
    let db = folder.file("d.sqlite")
    #expect(runResonance(["ingest", xml, "--db", db, "-q"]).status == .ok)
    let rows = try Store(path: db).connection.rows(
      "SELECT date, total, records FROM health_daily_totals WHERE type = 'HKQuantityTypeIdentifierStepCount'"
    )
    #expect(rows.map(\.values) == [[.text("2024-01-15"), .real(1450), .integer(3)]])
  }
}

@Suite("ingest: the apps' own recordings")
struct IngestTraceTests {
  var sample: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Datasets/sample/resonance").path
  }

  @Test(
    "every format lands in its table; status counts recordings and samples; re-import is a no-op")
  func formats() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("t.sqlite")
    // The sample ships its recordings gzip-compressed, as `synth --compress` writes them.
    let files = [
      "decisions/decisions-2022-06.jsonl.gz", "watch/watch-2022-06.jsonl.gz",
      "mac/mac-2022-06.jsonl.gz", "mood/mood-inputs.jsonl.gz", "breathing/breathing-0004.jsonl.gz",
    ].map { sample + "/" + $0 }
    let result = runResonance(["ingest"] + files + ["--db", db])
    #expect(result.status == .ok, "\(result.err)")
    let store = try Store(path: db)
    let lines = try files.map { try Self.gunzipped($0).split(separator: "\n").count - 1 }
    let summary = try store.summary()
    #expect(summary.traces.recordings == 5)
    #expect(summary.traces.samples == lines.reduce(0, +))
    #expect(
      summary.imports.map(\.importer).sorted() == [
        "resonance.breathing", "resonance.decision-log", "resonance.mac-context", "resonance.mood",
        "resonance.watch-trace",
      ])
    #expect(try store.connection.row("SELECT COUNT(*) FROM biometric_samples")?.int(0) == lines[1])
    #expect(try store.connection.row("SELECT COUNT(*) FROM macos_contexts")?.int(0) == lines[2])
    #expect(try store.connection.row("SELECT COUNT(*) FROM mood_inputs")?.int(0) == lines[3])
    #expect(try store.connection.row("SELECT COUNT(*) FROM dj_decisions")?.int(0) == lines[0])
    let again = runResonance(["ingest", files[1], "--db", db])
    #expect(again.out.contains("unchanged since it was imported whole"), "\(again.out)")
    #expect(try Store(path: db).summary().traces == summary.traces)
  }

  /// A gzip file's text, as the standard `gzip -dc` gives it.
  static func gunzipped(_ path: String) throws -> String {
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    gzip.arguments = ["gzip", "-dc", path]
    let pipe = Pipe()
    gzip.standardOutput = pipe
    try gzip.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    gzip.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test("a gzipped recording reads the same; a bad line is a warning with file:line")
  func gzipAndBadLines() throws {
    let folder = try TemporaryFolder()
    let plain = folder.file("mood.jsonl")
    let text =
      try Self.gunzipped(sample + "/mood/mood-inputs.jsonl.gz") + "this is not json\n"
    try text.write(toFile: plain, atomically: true, encoding: .utf8)
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    gzip.arguments = ["gzip", "-k", plain]
    try gzip.run()
    gzip.waitUntilExit()
    let db = folder.file("g.sqlite")
    let result = runResonance(["ingest", plain + ".gz", "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    let badLine = text.split(separator: "\n").count
    #expect(result.err.contains("mood.jsonl.gz:\(badLine): line skipped"))
    #expect(try Store(path: db).summary().traces.samples == badLine - 2)
  }

  @Test("the breathing command reads sessions from the store, all or one")
  func breathingFromStore() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("b.sqlite")
    _ = runResonance([
      "ingest", sample + "/breathing/breathing-0004.jsonl.gz",
      sample + "/breathing/breathing-0007.jsonl.gz", "--db", db, "-q",
    ])
    let all = runResonance(["breathing", "--db", db, "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(all.out.utf8)) as? [String: Any]
    #expect((object?["sessions"] as? [Any])?.count == 2)
    let fromFile = runResonance(["breathing", sample + "/breathing/breathing-0004.jsonl.gz"])
    let fromStore = runResonance(["breathing", "--db", db, "--session", "4"])
    #expect(fromStore.out == fromFile.out)
    #expect(runResonance(["breathing", "--db", db, "--session", "99"]).status == .noInput)
    #expect(runResonance(["breathing", "x.jsonl", "--session", "4", "--db", db]).status == .usage)
  }
}

@Suite("validate command")
struct ValidateCommandTests {
  static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Datasets/sample").path

  /// A store holding the sample's breathing sessions only.
  static func breathingStore(_ folder: TemporaryFolder) throws -> String {
    let db = folder.file("v.sqlite")
    let files = try FileManager.default.contentsOfDirectory(
      atPath: sample + "/resonance/breathing"
    )
    .sorted()
    .map { sample + "/resonance/breathing/" + $0 }
    #expect(runResonance(["ingest"] + files + ["--db", db, "-q"]).status == .ok)
    return db
  }

  @Test("the sample's breathing sessions meet the goals: exit 0; a store without them is exit 66")
  func sample() throws {
    let folder = try TemporaryFolder()
    let db = try Self.breathingStore(folder)
    let truth = Self.sample + "/truth.json"
    let result = runResonance(["validate", "--truth", truth, "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.err.isEmpty)
    let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
    // One shape: every part is there, null where the store had nothing for it.
    #expect(
      object?.keys.sorted() == [
        "breathing", "changes", "format_version", "goals_met", "practice", "sessions",
        "song_effects", "song_features", "tuning",
      ])
    #expect(object?["song_effects"] is NSNull && object?["goals_met"] as? Bool == true)
    #expect(object?["tuning"] is NSNull, "no --preferences, no one-step truth")
    let breathing = object?["breathing"] as? [String: Any]
    let planted =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: truth))) as? [String: Any]
    let sessions = (planted?["breathing"] as? [Any])?.count ?? -1
    #expect(sessions > 10 && breathing?["sessions"] as? Int == sessions)
    #expect(breathing?["goals_met"] as? Bool == true)
    #expect((breathing?["spearman_plv_adherence"] as? Double ?? 0) >= 0.8)
    let text = runResonance(["validate", "--truth", truth, "--db", db])
    #expect(text.status == .ok)
    #expect(text.out.hasPrefix("breathing: \(sessions) sessions matched to \(truth)\n"))
    #expect(text.out.contains("  goals met\n") && !text.out.contains("NOT met"))
    let missing = runResonance(["validate", "--truth", truth, "--db", folder.file("e.sqlite")])
    #expect(missing.status == .noInput)
    #expect(missing.err.contains("e.sqlite: no store here"))
    _ = try Store(path: folder.file("empty.sqlite"))
    let empty = runResonance(["validate", "--truth", truth, "--db", folder.file("empty.sqlite")])
    #expect(empty.status == .noInput)
    #expect(empty.err.contains("nothing in the store matches"))
    #expect(runResonance(["validate"]).status == .usage)
  }

  @Test("a missed goal is 'goal NOT met' in the text and exit 1, with --json too")
  func missedGoal() throws {
    let folder = try TemporaryFolder()
    let db = try Self.breathingStore(folder)
    // The sample's truth with the adherence turned upside down: the rankings now disagree.
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.sample + "/truth.json"))
    var truth = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let sessions = try #require(truth["breathing"] as? [[String: Any]])
    truth["breathing"] = sessions.map { session in
      var session = session
      session["adherence"] = 1 - (session["adherence"] as? Double ?? 0)
      return session
    }
    let path = folder.file("reversed.json")
    try JSONSerialization.data(withJSONObject: truth).write(to: URL(fileURLWithPath: path))

    let text = runResonance(["validate", "--truth", path, "--db", db])
    #expect(text.status == .failure, "\(text.err)")
    #expect(text.out.contains("planted adherence)  -0."))
    #expect(text.out.contains("goal ≥ 0.8 — goal NOT met\n"))
    #expect(text.out.contains("  goals NOT met\n"))
    #expect(text.err.hasPrefix("validate: 2 goals not met: breathing: Spearman(Resonance Score"))
    let json = runResonance(["validate", "--truth", path, "--db", db, "--json"])
    #expect(json.status == .failure)
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    let breathing = object?["breathing"] as? [String: Any]
    #expect(breathing?["goals_met"] as? Bool == false)
    #expect((breathing?["spearman_score_adherence"] as? Double ?? 0) < 0)
  }

  @Test("a file that is not a truth.json is exit 65, with its path in the message")
  func notATruth() throws {
    let folder = try TemporaryFolder()
    let db = try Self.breathingStore(folder)
    let cases = [
      "object.json": #"{"songs": [{"catalog_id": "1"}], "breathing": []}"#,
      "array.json": "[1, 2, 3]", "text.json": "breathing, songs",
    ]
    for (name, text) in cases {
      let path = folder.file(name)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      let result = runResonance(["validate", "--truth", path, "--db", db])
      #expect(result.status == .dataError, "\(name)")
      #expect(
        result.err == "error: \(path): expected a truth.json written by resonance synth\n")
    }
    #expect(runResonance(["validate", "--truth", db, "--db", db]).status == .dataError)
    #expect(
      runResonance(["validate", "--truth", folder.file("none.json"), "--db", db]).status
        == .noInput)
  }
}

@Suite("hrv over the store")
struct HRVStoreTests {
  @Test("each Health beat list in the days given (either bound alone, or none), then the mean")
  func beatLists() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("h.sqlite")
    _ = runResonance(["ingest", healthFixturePath("quirks.xml"), "--db", db, "-q"])
    let result = runResonance([
      "hrv", "--from", "2024-01-15", "--to", "2024-01-18", "--db", db, "--artefacts", "off",
    ])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.out.contains("2024-01-16T07:59:30Z  2"))
    #expect(result.out.contains("mean over 2 lists"))
    // Taken as they are, the lists keep the Watch's 28.65 s gap; the note says what drops it.
    #expect(result.out.contains("For these lists --artefacts malik suits better"))
    let malik = runResonance([
      "hrv", "--from", "2024-01-15", "--to", "2024-01-18", "--db", db, "--artefacts", "malik",
    ])
    #expect(malik.out.contains("2024-01-16T07:59:30Z  2024-01-15 23:59   1          980.0"))
    #expect(!malik.out.contains("suits better"))
    let json = runResonance([
      "hrv", "--from", "2024-01-15", "--to", "2024-01-18", "--db", db, "--json", "--artefacts",
      "off",
    ])
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    let lists = object?["series"] as? [[String: Any]] ?? []
    #expect(lists.count == 2)
    // Each list says how many of its intervals the Kubios method flags (docs/cli.md).
    #expect(lists.allSatisfy { $0["suspected_artefacts"] is Int && $0["corrected"] is Int })
    // 31.25 → 59.90 → 00.88: intervals 28650 and 980 ms; the second list 1030 ms.
    #expect((lists.first?["metrics"] as? [String: Any])?["mean_nn"] as? Double == 14_815.0)
    #expect((object?["mean"] as? [String: Any])?["mean_nn"] is Double)
    #expect(
      runResonance(["hrv", "--from", "2030-01-01", "--to", "2030-01-02", "--db", db]).status
        == .noInput)
    // Each bound alone, or none: every list from that day on, before it, or all.
    let from = runResonance(["hrv", "--from", "2024-01-15", "--db", db, "--json"])
    #expect(from.status == .ok, "\(from.err)")
    let fromLists =
      (try JSONSerialization.jsonObject(with: Data(from.out.utf8)) as? [String: Any])?["series"]
      as? [[String: Any]]
    #expect(fromLists?.count == 2)
    #expect(runResonance(["hrv", "--to", "2024-01-15", "--db", db]).status == .noInput)
    #expect(runResonance(["hrv", "--db", db]).status == .ok)
    #expect(
      runResonance(["hrv", "--from", "2024-01-18", "--to", "2024-01-15", "--db", db]).status
        == .usage)
    #expect(runResonance(["hrv", "rr.txt", "--from", "2024-01-15"]).status == .usage)
  }
}
