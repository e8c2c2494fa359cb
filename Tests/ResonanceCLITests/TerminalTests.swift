import Testing

@testable import ResonanceCLI
@testable import ResonanceIO
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
    #expect(ExitCode.of(CommandError(.noInput, "gone")) == .noInput)
    #expect([ExitCode.noInput, .ioError, .dataError].max() == .ioError)
  }
}
