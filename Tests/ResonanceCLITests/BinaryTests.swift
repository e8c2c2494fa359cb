import Foundation
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

  /// Runs the executable and returns its exit code and standard error.
  static func run(_ arguments: [String], in folder: String) throws -> (code: Int32, err: String) {
    let process = Process()
    guard let url else { throw CocoaError(.fileNoSuchFile) }
    process.executableURL = url
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.environment = ["PATH": "/usr/bin:/bin"]
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
      (["status"], 0),
      (["frobnicate"], 64),
      (["status", "--bogus"], 64),
      (["demo", "--data", "no-such-folder"], 66),
    ] as [([String], Int32)])
  func exitCodes(arguments: [String], expected: Int32) throws {
    let folder = try TemporaryFolder()
    let result = try Binary.run(arguments, in: folder.path)
    #expect(result.code == expected, "\(arguments): \(result.err)")
    if expected != 0 { #expect(result.err.hasPrefix("error: ")) }
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
    process.arguments = ["status", "--db", path]
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
}
