import Foundation
import ResonanceIO
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

/// Inputs written to hurt: what an export's DTD could make an XML parser do, and archive member
/// names that point outside the folder.
@Suite("ingest: hostile inputs")
struct HostileInputTests {
  static let record =
    #"<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="SOURCE" unit="count/min" startDate="2024-01-15 08:30:00 -0800" endDate="2024-01-15 08:30:00 -0800" value="72"/>"#

  func export(dtd: String, source: String) -> String {
    "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n\(dtd)]>\n<HealthData locale=\"en_US\">\n "
      + Self.record.replacingOccurrences(of: "SOURCE", with: source) + "\n</HealthData>\n"
  }

  /// The store's source names, as stored.
  func sources(_ db: String) throws -> [String] {
    try Store(path: db).connection.rows("SELECT name FROM health_sources").map { $0.string(0) }
  }

  @Test("entities declared in the DTD are never expanded: no billion laughs, no file read")
  func entities() throws {
    let folder = try TemporaryFolder()
    var lol = "<!ENTITY lol \"lol\">\n"
    var previous = "lol"
    for level in 1...9 {
      lol += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
      previous = "lol\(level)"
    }
    let secret = folder.file("secret.txt")
    try "TOP-SECRET-CONTENT\n".write(toFile: secret, atomically: true, encoding: .utf8)
    let cases = [
      ("laughs.xml", export(dtd: lol, source: "&lol9;")),
      (
        "external.xml",
        export(dtd: "<!ENTITY xxe SYSTEM \"file://\(secret)\">\n", source: "Watch &xxe;")
      ),
      (
        "parameter.xml",
        export(
          dtd: "<!ENTITY % p SYSTEM \"file://\(secret)\">\n%p;\n", source: "Watch")
      ),
    ]
    for (name, text) in cases {
      let path = folder.file(name)
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let db = folder.file(name + ".sqlite")
      let result = runResonance(["ingest", path, "--db", db])
      // The internal subset is set aside before parsing, so a reference to its entities is
      // an undefined entity (exit 65), and a parameter entity is never read.
      if name == "parameter.xml" {
        #expect(result.status == .ok, "\(name): \(result.err)")
      } else {
        #expect(result.status == .dataError, "\(name): \(result.err)")
        #expect(result.err.contains("not defined"), "\(name): \(result.err)")
      }
      if FileManager.default.fileExists(atPath: db) {
        let names = try sources(db)
        #expect(!names.contains { $0.contains("lollol") || $0.contains("TOP-SECRET") }, "\(names)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        #expect(bytes.range(of: Data("TOP-SECRET".utf8)) == nil)
        #expect(bytes.count < 2_000_000)
      }
      #expect(!result.out.contains("TOP-SECRET") && !result.err.contains("TOP-SECRET"))
    }
  }

  /// What the two XML readers do with a declared entity however it is hidden: refuse the file
  /// (65) at the declaration's line, naming it, and leave the store as it was.
  @Test("an entity declaration in Health's export or Music's Library.xml is refused at its line")
  func declaredEntities() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("store.sqlite")
    let seed = folder.file("seed.xml")
    try export(dtd: "", source: "Watch").write(toFile: seed, atomically: true, encoding: .utf8)
    #expect(runResonance(["ingest", seed, "--db", db, "-q"]).status == .ok)
    let before = try storeBytes(db)
    let secret = folder.file("secret.txt")
    try "TOP-SECRET-CONTENT\n".write(toFile: secret, atomically: true, encoding: .utf8)
    var laughs = "<!ENTITY lol \"lol\">"
    for level in 1...9 {
      laughs +=
        "<!ENTITY lol\(level) \""
        + String(repeating: "&lol\(level == 1 ? "" : "\(level - 1)");", count: 10)
        + "\">"
    }
    func library(_ subset: String, title: String) -> String {
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist [\(subset)]>
      <plist version="1.0"><dict><key>Tracks</key><dict><key>1</key><dict>
      <key>Track ID</key><integer>1</integer><key>Name</key><string>\(title)</string>
      <key>Artist</key><string>A</string><key>Kind</key><string>MPEG audio file</string>
      </dict></dict></dict></plist>

      """
    }
    let health = export(dtd: laughs, source: "&lol9;")
    let cases: [(name: String, text: String, entity: String, line: Int)] = [
      ("Library.xml", library("<!ENTITY x SYSTEM \"file://\(secret)\">", title: "&x;"), "x", 2),
      ("laughs/Library.xml", library(laughs, title: "&lol9;"), "lol", 2),
      (
        "behind-pi.xml",
        health.replacingOccurrences(
          of: "<?xml version=\"1.0\"?>\n",
          with: "<?xml version=\"1.0\"?>\n<?x <!DOCTYPE y [ ]> ?>\n"),
        "lol", 4
      ),
      (
        "behind-comment.xml",
        health.replacingOccurrences(
          of: "<?xml version=\"1.0\"?>\n",
          with: "<?xml version=\"1.0\"?>\n<!-- <!DOCTYPE y [ ]> -->\n"),
        "lol", 4
      ),
    ]
    for c in cases {
      let path = folder.file(c.name)
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try c.text.write(toFile: path, atomically: true, encoding: .utf8)
      let clock = ContinuousClock()
      let start = clock.now
      let result = runResonance(["ingest", path, "--db", db])
      #expect(clock.now - start < .seconds(30), "\(c.name)")
      #expect(result.status == .dataError, "\(c.name): \(result.err)")
      #expect(result.err.contains("\(path):\(c.line):"), "\(c.name): \(result.err)")
      #expect(
        result.err.contains("'\(c.entity)'") && result.err.contains("refused"), "\(result.err)")
      #expect(!result.out.contains("TOP-SECRET") && !result.err.contains("TOP-SECRET"))
      #expect(try storeBytes(db) == before, "\(c.name)")
    }
  }

  @Test("member names that climb out of the folder are names only: nothing is written anywhere")
  func traversal() throws {
    let folder = try TemporaryFolder()
    let inside = folder.file("in")
    try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
    let zip = try ZipWriter(path: inside + "/export.zip", modificationTime: 0)
    let xml = export(dtd: "", source: "Watch")
    for name in [
      "../../evil/export.xml", "/tmp/absolute-evil.xml", "apple_health_export/../../x.xml",
    ] {
      try zip.add(name: name, bytes: Array(xml.utf8))
    }
    try zip.close()
    let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let result = runResonance(["ingest", inside + "/export.zip", "--db", inside + "/s.sqlite"])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.out.contains("export.zip!../../evil/export.xml"), "\(result.out)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute-evil.xml"))
    #expect(try sources(inside + "/s.sqlite") == ["Watch"])
  }
}
