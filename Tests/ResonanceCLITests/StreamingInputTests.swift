import Foundation
import ResonanceIO
import Synchronization
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite("ingest: streams, pipes and hostile archives")
struct StreamingInputTests {
  /// The most a child may hold resident while refusing a hostile input, in KiB (`ru_maxrss`'s
  /// unit on Linux): 256 MiB.
  static let residentLimitKilobytes = 256 * 1024

  /// Inputs built to exhaust memory or time if read the naive way.
  enum Hostile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case gzipOfZeros = "a multi-member gzip inflating to 2 GB of zeros"
    case zipOfZeros = "a zip whose one member inflates to 1 GiB of zeros"
    case nestedZips = "zips nested 5 deep, a recording beside the 5th"

    var testDescription: String { rawValue }
  }

  @Test(
    "a hostile input is refused, or read, in bounded memory and never kills the process",
    arguments: Hostile.allCases)
  func boundedMemory(input: Hostile) throws {
    let folder = try TemporaryFolder()
    let db = folder.file("x.sqlite")
    let path: String
    switch input {
    case .gzipOfZeros: path = try Self.gzipOfZeros(in: folder)
    case .zipOfZeros: path = try Self.zipOfZeros(in: folder)
    case .nestedZips: path = try Self.nestedZips(in: folder)
    }
    let run = try ChildRun.resonance(["ingest", path, "--db", db], in: folder)
    let measured = "\(input.rawValue): \(run)"
    #expect(!run.isTimedOut, "\(measured)")
    #expect(run.signal == nil, "killed by a signal; \(measured)")
    #expect(run.isPeak(under: Self.residentLimitKilobytes), "\(measured)")
    let imports = try Store(path: db).summary().imports
    switch input {
    case .gzipOfZeros:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(
        run.err.contains("error: \(path):")
          && run.err.contains("expected an export the tool reads"), "\(measured)")
      #expect(imports.isEmpty, "\(imports)")
    case .zipOfZeros:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(
        run.err.contains("error: \(path): nothing in it is an export the tool reads"),
        "\(measured)")
      #expect(run.err.contains("\(path)!zeros.bin"), "\(measured)")
      #expect(imports.isEmpty, "\(imports)")
    case .nestedZips:
      // The walk enters a, b, c and d, reads the recording beside e.zip, and names e.zip.
      #expect(run.exitCode == 0, "\(measured)")
      #expect(
        run.err.contains(
          "warning: \(path)!b.zip!c.zip!d.zip!e.zip: a zip inside zips 4 deep, not read"),
        "\(measured)")
      #expect(imports.map(\.file) == ["\(path)!b.zip!c.zip!d.zip!decisions.jsonl"])
      #expect(imports.map(\.importer) == ["resonance.decision-log"])
    }
  }

  // Found while writing this suite: the JSON Lines reader holds a whole line, so a recognised
  // header followed by one endless line is read into memory (2 GB of zeros: 6.9 GB resident,
  // 63 s, exit 0). Enable once a line has a length limit.
  @Test("a recording header followed by one 300 MB line is read in bounded memory")
  func endlessLine() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("l.sqlite")
    let header = folder.file("header.jsonl")
    try "{\"format\":\"resonance.mood\",\"version\":1,\"generator\":\"test\"}\n".write(
      toFile: header, atomically: true, encoding: .utf8)
    let path = try Self.gzipOfZeros(in: folder, byteCount: 300 * Self.mebibyte, after: header)
    let run = try ChildRun.resonance(["ingest", path, "--db", db], in: folder)
    #expect(!run.isTimedOut && run.signal == nil, "\(run)")
    #expect(run.isPeak(under: Self.residentLimitKilobytes), "\(run)")
    // Either the line is a bad line (a warning) or the file is refused.
    #expect(run.exitCode == 0 || run.exitCode == 65, "\(run)")
  }

  /// One entry, field or gap of gigabytes, in a gzip of about 2 MB: each reader refuses it at
  /// its place, or passes it, holding at most a window — never the whole of it.
  enum Oversized: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case spotifyTitle = "a Spotify title of 2 GB"
    case spotifyWhitespace = "500 MB of whitespace between two Spotify entries"
    case accountTitle = "a Spotify account-history title of 2 GB"
    case playActivityField = "a Play Activity CSV field of 2 GB"
    case blankLines = "500 MB of blank lines inside a Play Activity CSV"
    case healthAttribute = "a Health record attribute of 300 MB"
    case healthText = "300 MB of text in an element Health does not define"
    case libraryString = "a Library.xml song name of 300 MB"
    case lastFMField = "a Last.fm CSV field of 2 GB after a good row"

    var testDescription: String { rawValue }
  }

  @Test(
    "one huge entry, field or gap is refused at FILE:LINE:COL (65), or passed, in bounded memory",
    arguments: Oversized.allCases)
  func oversizedEntries(input: Oversized) throws {
    let folder = try TemporaryFolder()
    let db = folder.file("x.sqlite")
    let entry = #"{"ts":"2024-03-11T18:03:20Z","ms_played":200000,"master_metadata_track_name":"#
    let header = try String(
      contentsOfFile: listeningFixturePath("play-activity-quirks.csv"), encoding: .utf8
    ).prefix { $0 != "\n" }
    let path: String
    switch input {
    case .spotifyTitle:
      path = try Self.gzipFile(
        in: folder, "[\n" + entry + "\"", filler: "a", byteCount: 2_000_000_000, "\"}]\n")
    case .spotifyWhitespace:
      path = try Self.gzipFile(
        in: folder, "[" + entry + "\"A\"},", filler: " ", byteCount: 500_000_000,
        entry + "\"B\"}]")
    case .accountTitle:
      path = try Self.gzipFile(
        in: folder,
        #"[{"endTime":"2023-04-01 18:22","artistName":"X","msPlayed":9000,"trackName":""#,
        filler: "a", byteCount: 2_000_000_000, "\"}]")
    case .playActivityField:
      path = try Self.gzipFile(
        in: folder, header + "\n\"", filler: "a", byteCount: 2_000_000_000, "\"\n")
    case .blankLines:
      path = try Self.gzipFile(
        in: folder, header + "\n", filler: "\n", byteCount: 500_000_000, "")
    case .healthAttribute:
      path = try Self.gzipFile(
        in: folder,
        "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n<ExportDate value=\"2024-02-01 09:00:00 -0800\"/>\n<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"",
        filler: "a", byteCount: 300_000_000,
        "\" unit=\"count/min\" startDate=\"2024-01-20 08:00:00 -0800\" endDate=\"2024-01-20 08:00:00 -0800\" value=\"64\"/>\n</HealthData>\n"
      )
    case .healthText:
      path = try Self.gzipFile(
        in: folder,
        "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n<ExportDate value=\"2024-02-01 09:00:00 -0800\"/>\n<Note>",
        filler: "a", byteCount: 300_000_000, "</Note>\n</HealthData>\n")
    case .lastFMField:
      path = try Self.gzipFile(
        in: folder, "Artist,Album,Track,11 Mar 2024 18:03\n\"", filler: "a",
        byteCount: 2_000_000_000, "\",Album,Track,11 Mar 2024 18:07\n")
    case .libraryString:
      path = try Self.gzipFile(
        in: folder,
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>Tracks</key>\n<dict>\n<key>1</key>\n<dict>\n<key>Track ID</key><integer>1</integer>\n<key>Name</key><string>",
        filler: "a", byteCount: 300_000_000, "</string>\n</dict>\n</dict>\n</dict>\n</plist>\n")
    }
    let run = try ChildRun.resonance(["ingest", path, "--db", db], in: folder)
    let measured = "\(input.rawValue): \(run)"
    #expect(!run.isTimedOut && run.signal == nil, "\(measured)")
    #expect(run.isPeak(under: Self.residentLimitKilobytes), "\(measured)")
    switch input {
    case .spotifyTitle:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(run.err.contains("error: \(path):2:1: an entry longer than 1 MiB"), "\(measured)")
    case .accountTitle:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(run.err.contains("error: \(path):1:2:"), "\(measured)")
      #expect(run.err.contains("an entry longer than 1 MiB"), "\(measured)")
    case .playActivityField:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(run.err.contains("error: \(path):2:1: a row longer than 1 MiB"), "\(measured)")
    case .spotifyWhitespace:
      #expect(run.exitCode == 0, "\(measured)")
      #expect(
        try Store(path: db).connection.row("SELECT COUNT(*) FROM playback_events")?.int(0) == 2)
    case .healthAttribute:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(
        run.err.contains("error: \(path):4:") && run.err.contains("longer than libxml2's limit"),
        "\(measured)")
    case .healthText:
      #expect(run.exitCode == 0, "\(measured)")
    case .lastFMField:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(run.err.contains("error: \(path):2:1: a row longer than 1 MiB"), "\(measured)")
    case .libraryString:
      #expect(run.exitCode == 65, "\(measured)")
      #expect(run.err.contains("error: \(path):9: a value longer than 1 MiB"), "\(measured)")
    case .blankLines:
      // A header and nothing else: no plays, and no error.
      #expect(run.exitCode == 0 || run.exitCode == 65, "\(measured)")
      #expect(!run.err.contains("longer than"), "\(measured)")
    }
  }

  @Test("standard input is read once and named 'standard input' in the ledger")
  func standardInput() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("s.sqlite")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: listeningFixturePath("decisions.jsonl")))
    let errPath = folder.file("stdin.err")
    #expect(FileManager.default.createFile(atPath: errPath, contents: nil))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    defer { try? errors.close() }
    let process = Process()
    process.executableURL = try #require(Binary.url as URL?)
    process.arguments = ["ingest", "-", "--db", db]
    process.environment = ["PATH": "/usr/bin:/bin"]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    // The recording is far smaller than a pipe's buffer: this write does not wait for the child.
    try input.fileHandleForWriting.write(contentsOf: bytes)
    try input.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(30)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    let isHung = process.isRunning
    if isHung { process.terminate() }
    process.waitUntilExit()
    let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    #expect(!isHung, "still running after 30 s reading standard input")
    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(err)")
    let imports = try Store(path: db).summary().imports
    #expect(imports.map(\.file) == ["standard input"])
    #expect(imports.map(\.importer) == ["resonance.decision-log"])
    #expect(imports.map(\.sha256) == [Self.sha256(bytes)])
  }

  @Test("a FIFO is opened once and read to its end: the import ends when the writer closes")
  func fifo() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("f.sqlite")
    let fifo = folder.file("recording.fifo")
    try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: listeningFixturePath("decisions.jsonl"))))
    let writer = FIFOWriter(path: fifo, bytes: bytes)
    writer.start()
    let run = try ChildRun.resonance(
      ["ingest", fifo, "--db", db], in: folder, timeoutSeconds: 30)
    let writerError = writer.finish()
    #expect(!run.isTimedOut, "the child did not end within 30 s (opened the FIFO twice?); \(run)")
    #expect(writerError == nil, "writing the FIFO: \(writerError ?? "")")
    #expect(run.exitCode == 0, "\(run)")
    let imports = try Store(path: db).summary().imports
    #expect(imports.map(\.file) == [fifo])
    #expect(imports.map(\.sha256) == [Self.sha256(Data(bytes))])
  }

  @Test("a gzipped recording given by path imports; its ledger digest is the compressed file's")
  func gzipByPath() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("g.sqlite")
    let gz = folder.file("decisions.jsonl.gz")
    try Self.gzip(listeningFixturePath("decisions.jsonl")).write(to: URL(fileURLWithPath: gz))
    let result = runResonance(["ingest", gz, "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    let imports = try Store(path: db).summary().imports
    #expect(imports.map(\.file) == [gz])
    #expect(imports.map(\.importer) == ["resonance.decision-log"])
    #expect(imports.map(\.sha256) == [try SHA256.hexDigest(ofFileAt: gz)])
    #expect(
      imports.map(\.sha256)
        != [try SHA256.hexDigest(ofFileAt: listeningFixturePath("decisions.jsonl"))])
  }

  @Test("a zip of files no reader knows exits 65, names the zip and leaves no ledger row")
  func unknownZip() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("u.sqlite")
    let path = folder.file("notes.zip")
    let zip = try ZipWriter(path: path, modificationTime: 1_685_000_000)
    try zip.add(name: "notes.txt", bytes: Array("buy milk\n".utf8))
    try zip.add(name: "todo.txt", bytes: Array("call the plumber\n".utf8))
    try zip.close()
    let result = runResonance(["ingest", path, "--db", db])
    #expect(result.status.code == 65, "\(result.err)")
    #expect(
      result.err.contains("error: \(path): nothing in it is an export the tool reads"),
      "\(result.err)")
    #expect(result.err.contains("\(path)!notes.txt") && result.err.contains("\(path)!todo.txt"))
    #expect(try Store(path: db).summary().imports.isEmpty)
  }

  @Test("a gzipped zip inside a zip is opened, and its recording imported under its full name")
  func gzippedZipInZip() throws {
    let folder = try TemporaryFolder()
    let inner = folder.file("inner.zip")
    let innerZip = try ZipWriter(path: inner, modificationTime: 1_685_000_000)
    try innerZip.add(
      name: "decisions.jsonl", contentsOfFile: listeningFixturePath("decisions.jsonl"))
    try innerZip.close()
    let outer = folder.file("outer.zip")
    let outerZip = try ZipWriter(path: outer, modificationTime: 1_685_000_000)
    try outerZip.add(name: "inner.zip.gz", bytes: Array(try Self.gzip(inner)))
    try outerZip.close()
    let db = folder.file("z.sqlite")
    let result = runResonance(["ingest", outer, "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    #expect(
      try Store(path: db).summary().imports.map(\.file) == [
        "\(outer)!inner.zip.gz!decisions.jsonl"
      ])
  }

  @Test("hidden files and folders are left out of a folder; a missing path is named in --json")
  func hiddenAndMissing() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("data")
    let hidden = data + "/.cache"
    try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: listeningFixturePath("decisions.jsonl"), toPath: hidden + "/decisions.jsonl")
    try FileManager.default.copyItem(
      atPath: listeningFixturePath("decisions.jsonl"), toPath: data + "/decisions.jsonl")
    let db = folder.file("h.sqlite")
    let missing = folder.file("nowhere.csv")
    let result = runResonance(["ingest", data, missing, "--db", db, "--json"])
    #expect(result.status == .noInput, "\(result.err)")
    #expect(try Store(path: db).summary().imports.map(\.file) == [data + "/decisions.jsonl"])
    let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
    let failed = object?["failed"] as? [[String: Any]]
    #expect(failed?.first?["file"] as? String == missing)
    #expect(failed?.first?["exit_status"] as? Int == 66)
  }

  @Test("an empty folder exits 65 and says it holds no files")
  func emptyFolder() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("e.sqlite")
    let empty = folder.file("empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    let result = runResonance(["ingest", empty, "--db", db])
    #expect(result.status.code == 65, "\(result.err)")
    #expect(result.err.contains("error: \(empty): nothing in it"), "\(result.err)")
    #expect(result.err.contains("it holds no files"), "\(result.err)")
    #expect(try Store(path: db).summary().imports.isEmpty)
  }
}

// MARK: - Building the inputs

extension StreamingInputTests {
  static let mebibyte = 1 << 20

  /// A file of gzip members, each 1 MiB of zeros deflated (about 1 KB), repeated until they
  /// inflate to at least `byteCount` bytes (2,000,000,000 makes a file of about 2 MB); first,
  /// when given, a member holding the file at `after`.
  static func gzipOfZeros(
    in folder: TemporaryFolder, byteCount: Int = 2_000_000_000, after first: String? = nil
  ) throws -> String {
    let zeros = folder.file("zeros.bin")
    try Data(count: mebibyte).write(to: URL(fileURLWithPath: zeros))
    let member = try gzip(zeros)
    try FileManager.default.removeItem(atPath: zeros)
    let count = (byteCount + mebibyte - 1) / mebibyte
    var file = try first.map(gzip) ?? Data()
    file.reserveCapacity(file.count + member.count * count)
    for _ in 0..<count { file.append(member) }
    let path = folder.file("zeros.gz")
    try file.write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A gzip of `prefix`, then `byteCount` bytes of `filler` (1 MiB members, each deflated
  /// once and repeated), then `suffix`.
  static func gzipFile(
    in folder: TemporaryFolder, _ prefix: String, filler: Character, byteCount: Int,
    _ suffix: String
  ) throws -> String {
    func member(_ data: Data) throws -> Data {
      let part = folder.file("part.bin")
      try data.write(to: URL(fileURLWithPath: part))
      defer { try? FileManager.default.removeItem(atPath: part) }
      return try gzip(part)
    }
    let block = try member(Data(repeating: filler.asciiValue!, count: mebibyte))
    var file = try member(Data(prefix.utf8))
    for _ in 0..<((byteCount + mebibyte - 1) / mebibyte) { file.append(block) }
    if !suffix.isEmpty { file.append(try member(Data(suffix.utf8))) }
    let path = folder.file("huge.gz")
    try file.write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A zip holding one entry of 1 GiB of zeros, written 1 MiB at a time: about 1 MB on disk.
  static func zipOfZeros(in folder: TemporaryFolder) throws -> String {
    let path = folder.file("zeros.zip")
    let zip = try ZipWriter(path: path, modificationTime: 1_685_000_000)
    let zeros = [UInt8](repeating: 0, count: mebibyte)
    var left = 1 << 30
    try zip.add(name: "zeros.bin", size: Int64(left)) {
      guard left > 0 else { return nil }
      left -= zeros.count
      return zeros
    }
    try zip.close()
    return path
  }

  /// a.zip ⊃ b.zip ⊃ c.zip ⊃ d.zip ⊃ {e.zip ⊃ mood.jsonl, decisions.jsonl}: e.zip is the zip
  /// inside the fourth level, and the decision log beside it is the one file the walk reads.
  static func nestedZips(in folder: TemporaryFolder) throws -> String {
    let mood = folder.file("mood.jsonl")
    try """
    {"format":"resonance.mood","version":1,"generator":"test"}
    {"t":"2022-06-01T18:32:45.374Z","offset":-25200,"device":"watch","tap":"😐"}

    """.write(toFile: mood, atomically: true, encoding: .utf8)
    var inner = folder.file("e.zip")
    var zip = try ZipWriter(path: inner, modificationTime: 1_685_000_000)
    try zip.add(name: "mood.jsonl", contentsOfFile: mood)
    try zip.close()
    zip = try ZipWriter(path: folder.file("d.zip"), modificationTime: 1_685_000_000)
    try zip.add(name: "e.zip", contentsOfFile: inner)
    try zip.add(name: "decisions.jsonl", contentsOfFile: listeningFixturePath("decisions.jsonl"))
    try zip.close()
    inner = zip.path
    for (outer, member) in [("c.zip", "d.zip"), ("b.zip", "c.zip"), ("a.zip", "b.zip")] {
      zip = try ZipWriter(path: folder.file(outer), modificationTime: 1_685_000_000)
      try zip.add(name: member, contentsOfFile: inner)
      try zip.close()
      inner = zip.path
    }
    return inner
  }

  /// The gzip stream `/bin/gzip -c -n` makes of the file at `path`.
  static func gzip(_ path: String) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-n", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "gzip failed on \(path)")
    return data
  }

  static func sha256(_ data: Data) -> String {
    let hash = SHA256()
    hash.update([UInt8](data))
    return hash.finalize()
  }
}

// MARK: - Running the executable as a child

/// One run of the built `resonance`, its own peak resident set measured.
///
/// `wait4` on a direct child does not give that child's peak alone: posix_spawn shares the
/// runner's memory until `exec`, and Linux carries the runner's high-water mark into the child's
/// `ru_maxrss` (with the whole target running, every child here reported the runner's 273 MB).
/// So the child runs under GNU time, a process of about 2 MB that forks it and reports its
/// `ru_maxrss` from `wait4`; the runner reaps time, and kills its process group on a timeout.
private struct ChildRun: CustomStringConvertible {
  /// GNU time (Debian's `time` package), which `make bench` needs too.
  static let timer = "/usr/bin/time"

  /// The exit status when the child exited, nil when a signal ended it.
  var exitCode: Int32?
  /// The signal that ended the child, nil when it exited.
  var signal: Int32?
  /// The child's peak resident set in KiB (`ru_maxrss`), nil when time could not report it.
  var peakKilobytes: Int?
  /// Whether the child outlived its deadline and was killed.
  var isTimedOut: Bool
  var err: String

  var description: String {
    let ending = exitCode.map { "exit \($0)" } ?? "signal \(signal.map(String.init) ?? "?")"
    let peak = peakKilobytes.map { "\($0 / 1024) MiB (\($0) KiB)" } ?? "not measured"
    return "\(ending), peak RSS \(peak)" + (isTimedOut ? ", killed after its deadline" : "")
      + "; stderr: \(err)"
  }

  /// Whether the peak was measured and is under `limit` KiB.
  func isPeak(under limit: Int) -> Bool { peakKilobytes.map { $0 < limit } ?? false }

  /// Runs `resonance ARGUMENTS` with standard input from /dev/null and standard output and
  /// error into files in `folder`; a run still going after `timeoutSeconds` is killed.
  static func resonance(
    _ arguments: [String], in folder: TemporaryFolder, timeoutSeconds: Double = 120
  ) throws -> ChildRun {
    let binary = try #require(Binary.url as URL?).path
    try #require(
      FileManager.default.isExecutableFile(atPath: timer),
      "measuring the child's memory needs GNU time at \(timer) (Debian's 'time' package)")
    let tag = UUID().uuidString
    let outPath = folder.file("child-\(tag).out")
    let errPath = folder.file("child-\(tag).err")
    let reportPath = folder.file("child-\(tag).time")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // Not the runner's other descriptors: a pipe another test is writing must not stay open in
    // this child. (Swift does not import `posix_spawn_file_actions_addclosefrom_np`; closing a
    // descriptor that has gone meanwhile is not an error for posix_spawn.)
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap(Int32.init) where fd > 2 {
      posix_spawn_file_actions_addclose(&actions, fd)
    }
    // An empty signal mask and default dispositions, as a shell would give (the runner's threads
    // block signals, and a child inherits the mask); a process group of its own, to kill.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    let command = [timer, "-f", "peak %M", "-o", reportPath, binary] + arguments
    var argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var environment = [strdup("PATH=/usr/bin:/bin")] + [nil]
    defer { environment.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, timer, &actions, &attributes, &argv, &environment)
    try #require(spawned == 0, "posix_spawn: \(String(cString: strerror(spawned)))")

    var status: Int32 = 0
    var isTimedOut = false
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { break }
      try #require(reaped == 0 || errno == EINTR, "waitpid: \(String(cString: strerror(errno)))")
      if Date() > deadline {
        isTimedOut = true
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        break
      }
      usleep(10_000)
    }
    // time writes "Command terminated by signal N" when the child was killed, then "peak KIB".
    let report = ((try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? "")
      .split(separator: "\n")
    let killer = report.first { $0.hasPrefix("Command terminated by signal ") }
      .flatMap { Int32($0.split(separator: " ").last ?? "") }
    let peak = report.last { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) }
    // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
    let timerSignal = status & 0x7F
    let signal = killer ?? (timerSignal == 0 ? nil : timerSignal)
    return ChildRun(
      exitCode: signal == nil ? (status >> 8) & 0xFF : nil, signal: signal,
      peakKilobytes: peak, isTimedOut: isTimedOut,
      err: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
  }
}

/// Writes bytes into a FIFO from a thread of its own, once a reader has opened it.
///
/// The FIFO is opened without blocking, retried until a reader is there, so that a child that
/// never opens it cannot leave this thread stuck in `open`; and close-on-exec, so that no other
/// test's child holds the write end open and keeps the reader from its end of file.
private final class FIFOWriter: Sendable {
  let path: String
  let bytes: [UInt8]
  private let state = Mutex<(isCancelled: Bool, error: String?)>((false, nil))
  private let done = DispatchSemaphore(value: 0)

  init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  func start() {
    Thread.detachNewThread { [self] in
      defer { done.signal() }
      if let error = deliver() { state.withLock { $0.error = error } }
    }
  }

  /// Stops waiting for a reader, waits for the thread, and returns what went wrong, if anything.
  func finish() -> String? {
    state.withLock { $0.isCancelled = true }
    done.wait()
    return state.withLock { $0.error }
  }

  private func deliver() -> String? {
    // A reader that goes away makes `write` fail with EPIPE here instead of killing the runner.
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    var fd: Int32 = -1
    while fd < 0 {
      fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if fd >= 0 { break }
      guard errno == ENXIO else { return "open: \(String(cString: strerror(errno)))" }
      if state.withLock({ $0.isCancelled }) { return "no reader opened the FIFO" }
      usleep(5_000)
    }
    defer { close(fd) }
    _ = fcntl(fd, F_SETFL, 0)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        return "write: \(String(cString: strerror(errno)))"
      }
      offset += n
    }
    return nil
  }
}
