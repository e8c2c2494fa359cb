import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Heart rate and HRV around a play")
struct PlayBiometricsTests {
  let minute = Int64(60_000)

  @Test("heart rate: the 10 minutes before against the play, with the sample counts")
  func heartRate() {
    let start = 100 * minute
    let samples = [
      SignalSample(timeMs: start - 11 * minute, value: 90),  // too early
      SignalSample(timeMs: start - 8 * minute, value: 70),
      SignalSample(timeMs: start - 1 * minute, value: 72),
      SignalSample(timeMs: start, value: 80),  // at the start: during
      SignalSample(timeMs: start + 2 * minute, value: 84),
      SignalSample(timeMs: start + 4 * minute, value: 99),  // after the end
    ]
    let change = SongImpactCalculator.heartRate(samples, startMs: start, endMs: start + 3 * minute)
    #expect(change.before == 71 && change.samplesBefore == 2)
    #expect(change.during == 82 && change.samplesDuring == 2)
    #expect(change.delta == 11)
  }

  @Test("HRV: most plays have no sample, and then there is no value, never an invented one")
  func sparseHRV() {
    let start = 500 * minute
    let samples = [SignalSample(timeMs: start - 20 * minute, value: 42)]
    let change = SongImpactCalculator.hrv(samples, startMs: start, endMs: start + 3 * minute)
    #expect(change.before == 42 && change.samplesBefore == 1)
    #expect(change.during == nil && change.samplesDuring == 0)
    #expect(change.delta == nil)
    // A reading 4 minutes after the end still counts (the response may lag).
    let later = samples + [SignalSample(timeMs: start + 7 * minute, value: 50)]
    #expect(SongImpactCalculator.hrv(later, startMs: start, endMs: start + 3 * minute).delta == 8)
    #expect(SongImpactCalculator.hrv([], startMs: start, endMs: start).samplesBefore == 0)
  }

  @Test("NaN readings are left out, not averaged in")
  func notANumber() {
    let samples = [
      SignalSample(timeMs: 0, value: .nan), SignalSample(timeMs: 60_000, value: 60),
      SignalSample(timeMs: 600_000, value: 66),
    ]
    let change = SongImpactCalculator.heartRate(samples, startMs: 300_000, endMs: 700_000)
    #expect(change.before == 60 && change.samplesBefore == 1 && change.delta == 6)
  }
}
