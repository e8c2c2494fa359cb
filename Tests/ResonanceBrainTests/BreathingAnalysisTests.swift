import Foundation
import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Breathing analysis on bad input")
struct BreathingAnalysisTests {
  typealias Sample = BreathingRecording.Sample

  /// A 6 breaths/min chest following a Relaxed pacer for `seconds`, sampled at 30 Hz.
  func relaxed(seconds: Double = 120, transform: (Double, Double) -> Double? = { _, v in v })
    -> BreathingRecording
  {
    var recording = BreathingRecording(
      session: 1, pattern: "relaxed", schedule: [.init(.inhale, 5), .init(.exhale, 5)])
    var t = 0.0
    while t < seconds {
      recording.pacer.append(.init(t, .inhale))
      recording.pacer.append(.init(t + 5, .exhale))
      t += 10
    }
    for i in 0..<Int(seconds * 30) {
      let time = Double(i) / 30
      let value = 0.5 - 0.5 * cos(2 * Double.pi * time / 10)
      if let v = transform(time, value) { recording.trace.append(Sample(time, v)) }
    }
    for second in 0..<Int(seconds) {
      let t = Double(second)
      recording.pulse.append(Sample(t, 70 + 4 * sin(2 * Double.pi * t / 10)))
    }
    return recording
  }

  @Test("a clean session: score 100, 6 breaths/min, locked, coherent at 0.1 Hz")
  func clean() {
    let a = BreathingAnalysis(relaxed())
    #expect(a.score.score == 100)
    #expect(abs((a.breathsPerMinute ?? 0) - 6) < 0.1)
    #expect((a.phaseLocking ?? 0) > 0.95)
    #expect(abs((a.coherencePeakHz ?? 0) - 0.1) < 0.01)
    #expect((a.rsaAmplitude ?? 0) > 6)
    #expect(a.notes.isEmpty)
  }

  @Test("a flat waveform: no rate, no locking, and a note saying why")
  func flat() {
    let a = BreathingAnalysis(relaxed { _, _ in 0.5 })
    #expect(a.breathsPerMinute == nil && a.phaseLocking == nil)
    #expect(a.score.score == 0)
    #expect(a.notes.contains("the waveform is flat: no breathing rate or phase locking"))
  }

  @Test("a clipped waveform is analysed, with a note")
  func clipped() {
    let a = BreathingAnalysis(relaxed { _, v in min(0.8, max(0.2, v)) })
    #expect(a.notes.contains { $0.hasPrefix("the waveform is clipped") })
    #expect(abs((a.breathsPerMinute ?? 0) - 6) < 0.2)
  }

  @Test("gaps are interpolated across and named")
  func gaps() {
    let a = BreathingAnalysis(relaxed { t, v in (t > 40 && t < 43) ? nil : v })
    #expect(a.notes.contains { $0.contains("gaps of more than 1 s") })
    #expect(abs((a.breathsPerMinute ?? 0) - 6) < 0.3)
  }

  @Test("no pacer schedule: rate still measured; no score or locking, with a note")
  func noPacer() {
    var recording = relaxed()
    recording.pacer = []
    let a = BreathingAnalysis(recording)
    #expect(a.score.score == nil && a.phaseLocking == nil)
    #expect(a.breathsPerMinute != nil)
    #expect(a.notes.contains("no pacer schedule: no Resonance Score or phase locking"))
  }

  @Test("a 60 s session is too short for coherence: null with the reason")
  func shortCoherence() {
    let a = BreathingAnalysis(relaxed(seconds: 60))
    #expect(a.coherence == nil)
    #expect(a.notes.contains { $0.hasPrefix("coherence needs 64 s of pulse") })
  }
}
