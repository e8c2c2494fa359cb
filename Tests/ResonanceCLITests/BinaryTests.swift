import Foundation
import ResonanceIO
import Testing

@testable import ResonanceStore

/// The built `resonance` executable, beside the test bundle in the build folder.
enum Binary {
  static var url: URL? {
    if let path = ProcessInfo.processInfo.environment["RESONANCE_BIN"] {
      return URL(fileURLWithPath: path)
    }
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("resonance")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    return nil
  }

  /// Runs the executable (or `executable`, given the arguments) with only `PATH` set — so in
  /// the C locale — and returns its exit code and standard error.
  static func run(
    _ arguments: [String], in folder: String, executable: URL? = nil,
    environment: [String: String] = ["PATH": "/usr/bin:/bin"]
  ) throws -> (code: Int32, err: String) {
    let process = Process()
    guard let program = executable ?? url else { throw CocoaError(.fileNoSuchFile) }
    process.executableURL = program
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

@Suite("The resonance executable")
struct BinaryTests {
  @Test(
    "exits with the documented codes",
    arguments: [
      (["--help"], 0),
      (["--version"], 0),
      (["status", "--help"], 0),
      (["status"], 66),  // no store in the empty folder: nothing to read, nothing created
      (["frobnicate"], 64),
      (["status", "--bogus"], 64),
      (["demo", "--data", "no-such-folder"], 66),
      (["status", "--db", ""], 64),  // a store is a file: not empty…
      (["ingest", "x.csv", "--db", ":memory:"], 64),  // …and not SQLite's throw-away database
      (["ingest", "x.csv", "--db", "file::memory:"], 64),  // …nor a URI naming one
      (["status", "--db", "file:resonance.sqlite?mode=ro"], 64),
    ] as [([String], Int32)])
  func exitCodes(arguments: [String], expected: Int32) throws {
    let folder = try TemporaryFolder()
    let result = try Binary.run(arguments, in: folder.path)
    #expect(result.code == expected, "\(arguments): \(result.err)")
    if expected != 0 { #expect(result.err.hasPrefix("error: ")) }
  }

  @Test(
    "RESONANCE_DB that is empty, :memory: or a file: URI is a usage error, and the store reads no URI",
    arguments: ["", ":memory:", "file::memory:", "file:store.sqlite?mode=memory"])
  func storeVariable(value: String) throws {
    let folder = try TemporaryFolder()
    let result = try Binary.run(
      ["status"], in: folder.path, environment: ["PATH": "/usr/bin:/bin", "RESONANCE_DB": value])
    #expect(result.code == 64, "\(value): \(result.err)")
    #expect(result.err.contains("RESONANCE_DB") && result.err.contains("'file:' URI"))
    // SQLite's URIs are off in the store too: as a URI this would open a database in memory
    // that keeps nothing; as the path it now is, its folder `file:` does not exist.
    #expect(throws: StoreError.self) {
      _ = try Store(path: "file:\(folder.path)/s.sqlite?mode=memory")
    }
  }

  @Test("a store from a newer build is refused with exit 65 and left untouched")
  func newerStore() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("resonance.sqlite")
    do {
      let store = try Store(path: path)
      try store.connection.execute("PRAGMA user_version = 99")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let result = try Binary.run(["status"], in: folder.path)
    #expect(result.code == 65)
    #expect(result.err.contains("newer than the \(Schema.currentVersion) this build knows"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("a store another run is writing to is waited for, then refused with exit 75")
  func busyStore() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("resonance.sqlite")
    // A store one migration behind: opening it must write, so it needs the lock.
    let holder = try Connection(path: path)
    try Migrator(Array(Schema.migrations.prefix(1))).migrate(holder, now: 0)
    try holder.execute("BEGIN IMMEDIATE")
    defer { try? holder.execute("ROLLBACK") }
    let process = Process()
    process.executableURL = try #require(Binary.url as URL?)
    process.arguments = ["analyze", "--db", path]
    process.environment = ["RESONANCE_BUSY_TIMEOUT": "0.2"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 75, "\(message)")
    #expect(message.contains("store is busy"))
  }

  /// An import writes with a rollback journal and holds the file to itself while it commits;
  /// a command that only reads must wait for it, not try to switch the journal back and fail.
  @Test(
    "status, report and validate wait out an import's write, then read; they never switch the journal",
    arguments: [["status"], ["report", "--out", "r", "--only", "hrv"]])
  func readerWaits(command: [String]) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("resonance.sqlite")
    _ = try Store(path: path)
    let holder = try Connection(path: path)
    _ = try holder.row("PRAGMA journal_mode = DELETE")
    try holder.execute("BEGIN EXCLUSIVE")
    let process = Process()
    process.executableURL = try #require(Binary.url as URL?)
    process.arguments = command + ["--db", path]
    process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
    process.environment = ["RESONANCE_BUSY_TIMEOUT": "20"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    usleep(700_000)
    try holder.execute("COMMIT")
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
    #expect(try holder.row("PRAGMA journal_mode")?.string("journal_mode") == "delete")
  }

  @Test(
    "a command that only reads refuses a store from an older build, untouched, and says what upgrades it"
  )
  func olderStoreRead() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("resonance.sqlite")
    do {
      let old = try Connection(path: path)
      try Migrator(Array(Schema.migrations.prefix(3))).migrate(old, now: 0)
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let result = try Binary.run(["status"], in: folder.path)
    #expect(result.code == 65, "\(result.err)")
    #expect(result.err.contains("older than the") && result.err.contains("resonance analyze --db"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}

@Suite("The resonance executable, interrupted")
struct InterruptedIngestTests {
  @Test(
    "Ctrl-C, a kill or a TERM in the middle of an import leaves the store as it was",
    arguments: [SIGINT, SIGKILL, SIGTERM])
  func killed(signal: Int32) throws {
    let folder = try TemporaryFolder()
    let db = folder.file("resonance.sqlite")
    let xml = folder.file("big.xml")
    // A plain export large enough to take a while: 200,000 heart-rate records.
    var text = "<HealthData locale=\"en_US\">\n"
    for i in 0..<200_000 {
      let minute = i % 60
      let hour = (i / 60) % 24
      let day = 1 + (i / 1440) % 28
      let month = 1 + (i / 40_320) % 12
      text +=
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"2023-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day) \(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):00 -0800\" endDate=\"2023-01-01 00:00:00 -0800\" value=\"\(60 + i % 40)\"/>\n"
    }
    text += "</HealthData>\n"
    try text.write(toFile: xml, atomically: true, encoding: .utf8)
    do {
      let store = try Store(path: db)
      try store.insertImport(
        .init(
          file: "earlier.xml", sha256: String(repeating: "a", count: 64), importer: "apple-health",
          status: .complete, records: 0, warnings: 0),
        bytes: 1, startedAt: 0, finishedAt: 0)
    }
    let before = try storeBytes(db)
    // Spawned directly with an empty signal mask and default dispositions: the test runner's
    // threads block signals, and a child made by Foundation's Process would inherit that.
    let binary = try #require(Binary.url as URL?).path
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let arguments = [binary, "ingest", xml, "--db", db, "--quiet"]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    #expect(posix_spawn(&pid, binary, nil, &attributes, &argv, environ) == 0)
    Thread.sleep(forTimeInterval: 0.4)
    kill(pid, signal)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    #expect(status & 0x7F == signal, "the import ended by itself before the signal came")
    let summary = try Store(path: db).summary()
    #expect(summary.imports.map(\.file) == ["earlier.xml"])
    #expect(summary.health.records.isEmpty)
    #expect(try storeBytes(db) == before)
    #expect(!FileManager.default.fileExists(atPath: db + "-journal"))
  }
}

@Suite("The resonance executable, inputs it may not read")
struct PermissionTests {
  /// Runs the executable as a user the permissions apply to. Under root (CI runs as root, and
  /// root reads everything) that is `nobody`, through util-linux's `setpriv`, from a copy of the
  /// executable in `folder` (the build folder may be closed to others).
  static func runUnprivileged(_ arguments: [String], in folder: TemporaryFolder) throws -> (
    code: Int32, err: String
  ) {
    guard getuid() == 0 else { return try Binary.run(arguments, in: folder.path) }
    let source = try #require(Binary.url as URL?)
    let copy = folder.file("resonance")
    if !FileManager.default.fileExists(atPath: copy) {
      try FileManager.default.copyItem(atPath: source.path, toPath: copy)
    }
    chmod(folder.path, 0o777)
    return try Binary.run(
      ["--reuid=65534", "--regid=65534", "--clear-groups", copy] + arguments, in: folder.path,
      executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
  }

  @Test("a folder that cannot be listed is exit 74, permission denied, not an empty success")
  func unreadableFolder() throws {
    let folder = try TemporaryFolder()
    let locked = folder.file("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
    try "Song Name,Event Type\n".write(
      toFile: locked + "/a.csv", atomically: true, encoding: .utf8)
    chmod(locked, 0)
    defer { chmod(locked, 0o755) }
    let result = try Self.runUnprivileged(["ingest", "locked", "--db", "s.sqlite"], in: folder)
    #expect(result.code == 74, "\(result.err)")
    #expect(result.err.contains("error: locked: cannot read: permission denied"), "\(result.err)")
    // A file inside it exists: it is not "no such file".
    let inside = try Self.runUnprivileged(
      ["ingest", "locked/a.csv", "--db", "s.sqlite"], in: folder)
    #expect(inside.code == 74, "\(inside.err)")
    #expect(inside.err.contains("locked/a.csv: cannot read: permission denied"), "\(inside.err)")
  }

  @Test("a closed folder inside an open one fails alone: the files beside it are imported")
  func closedSubfolder() throws {
    let folder = try TemporaryFolder()
    let exports = folder.file("exports")
    try FileManager.default.createDirectory(
      atPath: exports + "/closed", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: listeningFixturePath("play-activity-2016.csv"), toPath: exports + "/play.csv")
    chmod(exports + "/closed", 0)
    defer { chmod(exports + "/closed", 0o755) }
    let result = try Self.runUnprivileged(["ingest", "exports", "--db", "s.sqlite"], in: folder)
    #expect(result.code == 74, "\(result.err)")
    #expect(result.err.contains("exports/closed: cannot read: permission denied"), "\(result.err)")
    #expect(try Store(path: folder.file("s.sqlite")).summary().listening.plays == 5)
  }
}

@Suite("The resonance executable, under LC_ALL=C")
struct ZipNameTests {
  @Test(
    "a Health export.zip whose XML member has a non-ASCII name is found and imported",
    arguments: ["apple_health_export/导出.xml", "apple_health_export/書き出し.xml", "Exporte/Größe.xml"])
  func nonASCIIMember(name: String) throws {
    let folder = try TemporaryFolder()
    let zip = try ZipWriter(path: folder.file("export.zip"), modificationTime: 0)
    try zip.add(name: name, contentsOfFile: healthFixturePath("quirks.xml"))
    try zip.close()
    let result = try Binary.run(
      ["ingest", "export.zip", "--db", "s.sqlite"], in: folder.path,
      environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.contains("export.zip!\(name):"), "\(result.err)")
    #expect(
      try Store(path: folder.file("s.sqlite")).summary().health.records.values.reduce(0, +) > 0)
  }
}
