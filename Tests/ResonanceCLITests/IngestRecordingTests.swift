import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite("ingest: the apps' recordings as they grow through the month")
struct IngestRecordingTests {
  /// A Watch trace of the month so far: its header, then a reading every 5 s for `count`
  /// readings from 2024-03-01T08:00:00Z.
  static func watchTrace(_ count: Int) -> String {
    var lines = [
      #"{"format":"resonance.watch-trace","version":1,"device":"Apple Watch","hr_interval_s":5}"#
    ]
    let start = Date(timeIntervalSince1970: 1_709_280_000)
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for i in 0..<count {
      let t = format.string(from: start.addingTimeInterval(Double(i) * 5))
      lines.append(
        #"{"t":"\#(t)","offset":3600,"hr":\#(60 + i % 25),"stationary":true,"workout":false}"#)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(
    "a month's Watch trace exported mid-month and again at its end: the second ingest adds and counts only the new readings; the same file again is passed over"
  )
  func grownWatchTrace() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("s.sqlite")
    let trace = folder.file("watch-2024-03.jsonl")
    try Self.watchTrace(300).write(toFile: trace, atomically: true, encoding: .utf8)
    let first = runResonance(["ingest", trace, "--db", db])
    #expect(first.status == .ok, "\(first.err)")
    #expect(first.out.contains("resonance.watch-trace, 300 samples"), "\(first.out)")

    try Self.watchTrace(1_000).write(toFile: trace, atomically: true, encoding: .utf8)
    let grown = runResonance(["ingest", trace, "--db", db])
    #expect(grown.status == .ok, "\(grown.err)")
    #expect(grown.out.contains("resonance.watch-trace, 700 samples"), "\(grown.out)")
    let rows = try Store(path: db).connection.row(
      "SELECT COUNT(*), COUNT(DISTINCT time_ms) FROM biometric_samples")
    #expect(rows?.int(0) == 1_000 && rows?.int(1) == 1_000, "every reading stored once")

    let again = runResonance(["ingest", trace, "--db", db])
    #expect(again.out.contains("unchanged since it was imported whole"), "\(again.out)")
    #expect(
      try Store(path: db).connection.row("SELECT COUNT(*) FROM biometric_samples")?.int(0)
        == 1_000)
  }
}
