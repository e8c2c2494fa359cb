import Foundation
import ResonanceIO
import ResonanceModel
import Synchronization
import Testing

@testable import ResonanceIngest

/// The store's side as a list of what the walk told it, each event in a word or two.
final class RecordingSink: ImportSink {
  private let events = Mutex<[String]>([])

  var said: [String] { events.withLock { $0 } }

  func emit(_ event: ImportEvent) -> Bool {
    let word: String =
      switch event {
      case .begin(let file, let format, _): "begin \(name(file)) \(format.name)"
      case .batch: "batch"
      case .end: "end"
      case .failed(let error, _): "failed \(error)"
      case .skipped(let input): "skipped \(name(input.name))"
      case .notImported(let file, _): "not imported \(name(file))"
      case .unchanged(let file, let sha256): "unchanged \(name(file)) \(sha256)"
      case .sourceEnded(let file, let digest):
        "ended \(name(file)) " + (digest.map { "\($0.sha256) \($0.bytes)" } ?? "unread")
      }
    events.withLock { $0.append(word) }
    return true
  }

  func reusableHealthBatch() -> [HealthItem] { [] }
  func progress(_ bytesRead: Int64) {}

  /// The file's name without its folder (`history.zip!Last.fm/scrobbles.csv` for a member).
  private func name(_ path: String) -> String {
    let parts = path.split(separator: "!", maxSplits: 1).map(String.init)
    let file = parts[0].split(separator: "/").last.map(String.init) ?? parts[0]
    return parts.count > 1 ? file + "!" + parts[1] : file
  }

  /// Whether any reader began on an input.
  var readerRan: Bool { said.contains { $0.hasPrefix("begin ") } }
}

@Suite("Files already imported whole are passed over unread")
struct UnchangedFileTests {
  let folder: String

  init() throws {
    folder =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("resonance-unchanged-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  /// A Last.fm CSV of two scrobbles: small, and read by a reader of its own.
  func lastFM(_ name: String = "scrobbles.csv", extra: String = "") throws -> String {
    let path = folder + "/" + name
    try
      ("uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\n"
      + "1654092000,01 Jun 2022 14:00,Nils Frahm,,Spaces,,Says,\n"
      + "1654092400,01 Jun 2022 14:06,Nils Frahm,,Spaces,,Familiar\(extra),\n")
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func digest(_ path: String) throws -> (sha256: String, bytes: Int64) {
    let bytes = try InputFile.open(path: path).readAll()
    let hash = SHA256()
    hash.update(bytes)
    return (hash.finalize(), Int64(bytes.count))
  }

  func walk(_ path: String, known: ImportedSources = ImportedSources(), forced: ImportFormat? = nil)
    -> RecordingSink
  {
    let sink = RecordingSink()
    InputWalker(sink: sink, forced: forced, known: known).walk(path: path)
    return sink
  }

  @Test(
    "a plain file's walk ends with the digest of its bytes; known, it is passed over and no reader runs"
  )
  func plainFile() throws {
    let path = try lastFM()
    let (sha256, bytes) = try Self.digest(path)
    let first = walk(path)
    #expect(first.readerRan)
    #expect(first.said.last == "ended scrobbles.csv \(sha256) \(bytes)")
    let again = walk(path, known: ImportedSources([(bytes, sha256)]))
    #expect(again.said == ["unchanged scrobbles.csv \(sha256)"])
    #expect(!again.readerRan)
  }

  @Test(
    "a zip's digest is of the zip's own bytes, never inflated; known, none of its members is read")
  func zip() throws {
    let csv = try lastFM()
    let path = folder + "/history.zip"
    let zip = try ZipWriter(path: path, modificationTime: 0)
    try zip.add(name: "Last.fm/scrobbles.csv", contentsOfFile: csv)
    try zip.add(name: "notes.txt", bytes: Array("not an export\n".utf8))
    try zip.close()
    let (sha256, bytes) = try Self.digest(path)
    let first = walk(path)
    #expect(first.said.contains { $0.hasPrefix("begin history.zip!Last.fm/scrobbles.csv") })
    #expect(first.said.last == "ended history.zip \(sha256) \(bytes)")
    let again = walk(path, known: ImportedSources([(bytes, sha256)]))
    #expect(again.said == ["unchanged history.zip \(sha256)"])
  }

  @Test("a file of a known size but other bytes is hashed, then read as usual")
  func sameSizeOtherBytes() throws {
    let path = try lastFM()
    let (_, bytes) = try Self.digest(path)
    let other = walk(path, known: ImportedSources([(bytes, String(repeating: "0", count: 64))]))
    #expect(other.readerRan)
  }

  @Test("--as asks for another reading: a known file is read again")
  func forcedFormatReadsAgain() throws {
    let path = try lastFM()
    let (sha256, bytes) = try Self.digest(path)
    let forced = walk(
      path, known: ImportedSources([(bytes, sha256)]), forced: .listening(.lastFM))
    #expect(forced.readerRan)
  }

  @Test("an unchanged Health export in a folder is passed over with its folder's parts")
  func healthFolder() throws {
    let export = folder + "/apple_health_export"
    try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
    let xml = export + "/export.xml"
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 10:00:00 -0700" endDate="2024-03-01 10:00:00 -0700" value="61"/>
    </HealthData>

    """.write(toFile: xml, atomically: true, encoding: .utf8)
    try "<ClinicalDocument/>\n".write(
      toFile: export + "/export_cda.xml", atomically: true, encoding: .utf8)
    let (sha256, bytes) = try Self.digest(xml)
    let first = walk(folder)
    #expect(first.said.contains("ended export.xml \(sha256) \(bytes)"))
    let again = walk(folder, known: ImportedSources([(bytes, sha256)]))
    #expect(again.said == ["unchanged export.xml \(sha256)"])
  }
}
