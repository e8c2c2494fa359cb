import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// The inputs `make fuzz` found that crashed a reader (docs/reliability.md, "Fuzzing"), as
/// libFuzzer minimised them: each now reads, or fails with a message, as bad input should.
@Suite("Inputs the fuzz harnesses found")
struct FuzzFindingTests {
  /// The recording's content and warnings, read as `resonance ingest` reads one.
  private func read(_ lines: [String]) throws -> (TraceContent, [Diagnostic]) {
    let (file, diagnostics) = try TraceReader.read(
      path: "fuzz.jsonl", data: Data(lines.joined(separator: "\n").utf8))
    return (file.content, diagnostics)
  }

  private func count(_ content: TraceContent) -> Int {
    switch content {
    case .watch(let readings): readings.count
    case .mac(let snapshots): snapshots.count
    case .mood(let inputs): inputs.count
    case .decisions(let decisions): decisions.count
    case .breathing(let recording): recording.trace.count
    }
  }

  /// Mood harness (the harnesses' first finding): an `offset` beyond 32 bits trapped in
  /// `Int32(_:)` (`Fatal error: Not enough bits to represent a signed value`).
  @Test("a mood line whose offset is beyond 32 bits is skipped with a warning")
  func moodOffsetBeyond32Bits() throws {
    let (content, diagnostics) = try read([
      #"{"format":"resonance.mood"}"#,
      #"{"t":"2022-06-01T18:32:45.","offset":27777771700,}"#,
    ])
    #expect(count(content) == 0)
    #expect(diagnostics.map(\.location?.line) == [2])
    #expect(diagnostics.first?.message.contains(#""offset""#) == true)
  }

  /// The same for every format whose lines carry `t` and `offset`: offsets within 18 hours
  /// (what a time zone can be) are read, and others skip their line.
  @Test(
    "a trace line's offset is read within 18 hours and skips the line beyond",
    arguments: ["resonance.watch-trace", "resonance.mac-context", "resonance.mood"],
    [
      (seconds: 64800, isRead: true), (seconds: -64800, isRead: true),
      (seconds: 64801, isRead: false), (seconds: -64801, isRead: false),
      (seconds: Int.max, isRead: false),
    ])
  func traceOffsets(format: String, offset: (seconds: Int, isRead: Bool)) throws {
    let (content, diagnostics) = try read([
      #"{"format":"\#(format)","version":1}"#,
      #"{"t":"2022-06-02T15:34:32.241Z","offset":\#(offset.seconds),"hr":86.5}"#,
    ])
    #expect(count(content) == (offset.isRead ? 1 : 0))
    #expect(diagnostics.map(\.location?.line) == (offset.isRead ? [] : [2]))
  }

  @Test("a decision whose offset is beyond 18 hours is skipped, naming the offset")
  func decisionOffset() throws {
    let line = DecisionLogVersion1Tests.first.replacingOccurrences(
      of: #""offset":-25200"#, with: #""offset":27777771700"#)
    let (content, diagnostics) = try read([DecisionLogVersion1Tests.header, line])
    #expect(count(content) == 0)
    #expect(
      diagnostics.map(\.message) == [
        "line skipped: offset: expected a UTC offset in seconds within 18 hours (±64800), found 27777771700"
      ])
  }

  @Test("a breathing header whose offset is beyond 18 hours gives no start, and the rest reads")
  func breathingHeaderOffset() throws {
    let (recording, diagnostics) = try BreathingRecordingReader.read(
      path: "b.jsonl",
      data: Data(
        """
        {"format":"resonance.breathing","version":1,"started":"2022-06-02T14:23:26.561Z",\
        "offset":27777771700}
        {"t":0,"trace":0.8587}
        """.utf8))
    #expect(recording.started == nil)
    #expect(recording.trace.count == 1)
    #expect(diagnostics.isEmpty)
  }

  /// HealthXML harness: a beat's `time` of twenty digits overflowed in
  /// `FixedDateParser.timeOfDay` (an arithmetic-overflow trap); found in a document cut short
  /// after the beat's attributes, and read here whole as well.
  @Test(
    "a beat whose time has twenty digits is skipped with a warning",
    arguments: [(ending: " ", isWhole: false), (ending: "/></Record>", isWhole: true)])
  func beatTimeOverflow(ending: String, isWhole: Bool) throws {
    let input =
      #"<Record type="" sourceName="" startDate="2022-06-01 10:28:25 -0700" "#
      + #"endDate="2022-06-01 10:29:26 -0700"><InstantaneousBeatsPerMinute "#
      + #"time="10000000000000000000""# + ending
    let reader = AppleHealthReader(file: "export.xml") { _ in }
    let parser = XMLPushParser(handler: reader)
    do {
      try parser.feed(array: Array(input.utf8))
      try parser.finish()
      #expect(isWhole)
    } catch {
      #expect(!isWhole, "\(error)")
    }
    #expect(reader.counts.beats == 0)
    #expect(
      reader.diagnostics.map(\.message) == [
        "beat skipped: expected a time like 6:14:48.94 PM, found '10000000000000000000'"
      ])
  }

  /// LastFM harness: a `uts` of seventeen digits overflowed in milliseconds.
  @Test("a scrobble whose uts is beyond year 9999 is skipped with a warning naming it")
  func lastFMSecondsOverflow() throws {
    let input = "Artist,Album,Track,uts\n,,6,16130600612306006\n,,7,1614931230\n"
    let (file, diagnostics) = try LastFMReader.read(path: "s.csv", bytes: Array(input.utf8))
    #expect(file.plays.map(\.startMs) == [1_614_931_230_000])
    #expect(diagnostics.map(\.location?.line) == [2])
    #expect(diagnostics.first?.message.contains("'16130600612306006'") == true)
  }
}
