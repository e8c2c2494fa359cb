import Testing

@testable import ResonanceModel

@Suite("Stage progress")
struct StageProgressTests {
  @Test("a step ends however its body leaves")
  func stepEnds() throws {
    let recorder = ProgressRecorder()
    struct Failure: Error {}
    #expect(throws: Failure.self) {
      try recorder.step("work", total: 2, unit: .items("parts")) { throw Failure() }
    }
    #expect(recorder.events == ["begin work 2", "end"])
  }
}
