import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceIO
@testable import ResonanceModel
@testable import ResonanceStore

@Suite("Progress reporter")
struct ProgressReporterTests {
  @Test("a frame shows the bar, done/total, rate and ETA")
  func frame() {
    let line = ProgressReporter.line(
      label: "ingest export.xml", done: 150_000_000, total: 300_000_000, unit: .bytes,
      elapsedSeconds: 1)
    #expect(
      line
        == "ingest export.xml  [==========>         ]   50%  150.0/300.0 MB  150.0 MB/s  ETA 0:01")
  }

  @Test("counts are grouped, fast rates in thousands, long waits in hours")
  func counts() {
    let line = ProgressReporter.line(
      label: "analyze", done: 1_234_567, total: 100_000_000, unit: .items("plays"),
      elapsedSeconds: 10)
    #expect(line.contains("1,234,567/100,000,000 plays"))
    #expect(line.contains("123.5k plays/s"))
    #expect(line.contains("ETA 13:21"))
    let slow = ProgressReporter.line(
      label: "sweep", done: 1, total: 4000, unit: .items("blocks"), elapsedSeconds: 1)
    #expect(slow.hasSuffix("ETA 1:06:39"))
  }

  @Test("without a total there is no bar and no ETA")
  func unknownTotal() {
    let line = ProgressReporter.line(
      label: "read", done: 500, total: nil, unit: .items("rows"), elapsedSeconds: 2)
    #expect(line == "read  500 rows  250 rows/s")
  }

  @Test("draws nothing when standard error is not a terminal, or under --quiet")
  func silence() {
    for (terminal, enabled) in [(false, true), (true, false)] {
      let console = CapturingConsole(isErrorTerminal: terminal)
      let progress = ProgressReporter(
        label: "x", total: 10, unit: .items("rows"), console: console, isEnabled: enabled)
      progress.update(5)
      progress.finish()
      #expect(console.standardError.isEmpty)
    }
    let console = CapturingConsole(isErrorTerminal: true)
    let progress = ProgressReporter(
      label: "x", total: 10, unit: .items("rows"), console: console, isEnabled: true)
    progress.update(5)
    progress.finish()
    #expect(console.standardError.contains("5/10 rows"))
  }
}

@Suite("Exit status")
struct ExitCodeTests {
  @Test("each error maps to its documented code")
  func mapping() {
    #expect(ExitCode.of(UsageError("x")) == .usage)
    #expect(ExitCode.of(IOError(.missing, path: "a", reason: "")) == .noInput)
    #expect(ExitCode.of(IOError(.unreadable, path: "a", reason: "")) == .ioError)
    #expect(ExitCode.of(StoreError(.busy, message: "")) == .storeBusy)
    #expect(ExitCode.of(StoreError(.newerSchema(found: 9, known: 4), message: "")) == .dataError)
    #expect(ExitCode.of(StoreError(.sqlite(code: 10), message: "disk I/O error")) == .ioError)
    #expect(ExitCode.of(StoreError(.sqlite(code: 1), message: "")) == .failure)
    #expect(ExitCode.of(StageError(.missingInput, "gone")) == .noInput)
    #expect(ExitCode.of(StageError(.badData, "log")) == .dataError)
    #expect([ExitCode.noInput, .ioError, .dataError].max() == .ioError)
  }
}

@Suite("Terminal safety")
struct TerminalSafetyTests {
  @Test("control characters, C1 and bidi overrides are shown as escapes; text, newlines, tabs pass")
  func escaping() {
    #expect(
      TerminalText.escapingControls("a\u{1B}]0;x\u{07}b\rc\u{08}\u{7F}\u{9B}2J\u{202E}d")
        == #"a\u{1B}]0;x\u{7}b\u{D}c\u{8}\u{7F}\u{9B}2J\u{202E}d"#)
    #expect(TerminalText.escapingControls("Jane’s Watch\t72\n导出") == "Jane’s Watch\t72\n导出")
  }

  @Test("a file's ESC and BEL quoted in an error never reach the terminal raw")
  func quotedContent() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("title.txt")
    try "hello\u{1B}]0;pwned\u{07}\u{1B}[2J\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = runResonance(["ingest", file, "--db", folder.file("s.sqlite")])
    #expect(result.status == .dataError)
    #expect(!result.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    #expect(result.err.contains(#"found 'hello\u{1B}]0;pwned\u{7}\u{1B}[2J"#), "\(result.err)")
  }

  @Test("a file named with control characters: escaped in text, \\u escapes in valid JSON")
  func controlName() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("evil\u{1B}[31m\u{202E}.csv")
    try "not,an,export\n".write(toFile: file, atomically: true, encoding: .utf8)
    let text = runResonance(["ingest", file, "--db", folder.file("s.sqlite")])
    #expect(!text.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    #expect(text.err.contains(#"evil\u{1B}[31m\u{202E}.csv"#), "\(text.err)")
    let json = runResonance(["ingest", file, "--db", folder.file("s.sqlite"), "--json"])
    #expect(!json.out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let failed = try #require(object["failed"] as? [[String: Any]])
    #expect((failed.first?["error"] as? String)?.contains("evil\u{1B}[31m\u{202E}.csv") == true)
  }

  @Test("a progress frame keeps its own carriage return and erase, and escapes its label")
  func progressFrame() {
    let console = CapturingConsole(isErrorTerminal: true)
    console.progress("ingest a\u{1B}[2Jb.xml  50%")
    #expect(console.standardError == "\r" + #"ingest a\u{1B}[2Jb.xml  50%"# + "\u{1B}[K")
  }
}
