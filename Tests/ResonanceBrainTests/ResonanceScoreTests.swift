import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Resonance Score, as the app computes it")
struct ResonanceScoreTests {
  typealias Sample = BreathingRecording.Sample

  /// A waveform through the given (time, value) corners, sampled every 0.5 s.
  func wave(_ corners: [(Double, Double)]) -> [Sample] {
    var samples: [Sample] = []
    for (a, b) in zip(corners, corners.dropFirst()) {
      var t = a.0
      while t < b.0 {
        samples.append(Sample(t, a.1 + (b.1 - a.1) * (t - a.0) / (b.0 - a.0)))
        t += 0.5
      }
    }
    if let last = corners.last { samples.append(Sample(last.0, last.1)) }
    return samples
  }

  @Test("relaxed 5-5: a chest that follows every phase scores 100")
  func followed() {
    let pacer: [BreathingRecording.PacerEvent] = [
      .init(0, .inhale), .init(5, .exhale), .init(10, .inhale), .init(15, .exhale),
    ]
    let trace = wave([(0, 0), (5, 1), (10, 0), (15, 1), (20, 0)])
    let score = ResonanceScore(pacer: pacer, trace: trace)
    #expect(score.events.count == 4 && score.matched == 4 && score.score == 100)
  }

  @Test("holds create no event, and a hold ends the window before it")
  func holds() {
    // Box breathing: in 4, hold 4, out 4, hold 4. The chest rises only in the first inhale.
    let pacer: [BreathingRecording.PacerEvent] = [
      .init(0, .inhale), .init(4, .hold), .init(8, .exhale), .init(12, .hold),
    ]
    let trace = wave([(0, 0), (4, 1), (8, 1), (12, 1), (16, 1)])
    let score = ResonanceScore(pacer: pacer, trace: trace)
    #expect(score.events.map(\.phase) == [.inhale, .exhale])
    #expect(score.events.map(\.end) == [4, 12])
    #expect(score.matched == 1 && score.score == 50)
  }

  @Test("a change must exceed 15% of the global range; exactly 15% does not match")
  func threshold() {
    let pacer: [BreathingRecording.PacerEvent] = [
      .init(0, .inhale), .init(2, .exhale), .init(4, .inhale),
    ]
    // Range 1 (0 … the spike at 1): the first inhale rises exactly 0.15, the exhale falls only
    // 0.05, the last inhale rises 0.2.
    let trace = [Sample(0, 0), Sample(1, 1), Sample(2, 0.15), Sample(4, 0.1), Sample(6, 0.3)]
    let score = ResonanceScore(pacer: pacer, trace: trace)
    #expect(score.events.map(\.matched) == [false, false, true])
  }

  @Test("a flat trace matches nothing")
  func flat() {
    let pacer: [BreathingRecording.PacerEvent] = [.init(0, .inhale), .init(5, .exhale)]
    let score = ResonanceScore(pacer: pacer, trace: wave([(0, 0.5), (10, 0.5)]))
    #expect(score.events.count == 2 && score.score == 0)
  }

  @Test("a one-event session runs its window to the end of the waveform")
  func oneEvent() {
    let score = ResonanceScore(pacer: [.init(0, .inhale)], trace: wave([(0, 0), (4, 1)]))
    #expect(score.events.count == 1 && score.events[0].end == 4 && score.score == 100)
  }

  @Test("no pacer events or no waveform: no score")
  func empty() {
    #expect(ResonanceScore(pacer: [], trace: wave([(0, 0), (4, 1)])).score == nil)
    #expect(ResonanceScore(pacer: [.init(0, .inhale)], trace: []).score == nil)
  }
}
