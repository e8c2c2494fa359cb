import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Store: what resonance report reads, as Model values")
struct StoreReportsTests {
  @Test("a session's context reads back as the context; one this build does not know is left out")
  func sessionContexts() throws {
    let store = try Store(path: ":memory:")
    for (start, context) in [(Int64(0), "deep-work"), (60_000, "party"), (120_000, "pre-sleep")] {
      try store.connection.execute(
        """
        INSERT INTO historical_sessions (start_ms, start_offset_s, end_ms, end_offset_s,
          context, play_count, skip_rate)
        VALUES (?, 0, ?, 0, ?, 3, 0.5)
        """, [start, start + 30_000, context])
    }
    let sessions = try store.sessionRecords()
    #expect(sessions.map(\.context) == [.deepWork, .preSleep])
    #expect(sessions.map(\.start.millisecondsSinceEpoch) == [0, 120_000])
  }

  @Test("a session's quality basis reads back as the components the analysis stored")
  func qualityBasis() throws {
    let store = try Store(path: ":memory:")
    try DerivedWriteTests.replace(store, DerivedWriteTests.derived)
    let sessions = try store.sessionRecords()
    #expect(sessions.map(\.qualityBasis) == [[.skip, .engagement, .sleep], []])
  }
}
