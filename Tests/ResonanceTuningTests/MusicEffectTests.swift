import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("The effect of music before bed: the calm arm's evenings against the no-music arm's")
struct MusicEffectTests {
  /// Cycles of seven calm and seven no-music evenings: music on a calm evening with chance
  /// 0.9 and on a no-music one with 0.2 (by hand), minutes asleep N(430, 45) plus `effect`
  /// after music; each cycle's contrasts in minutes asleep and in the share with music.
  static func cycles(_ n: Int, effect: Double, rng: inout SplitMix64) -> ([Double], [Double]) {
    var y: [Double] = []
    var d: [Double] = []
    for _ in 0..<n {
      var sums = (calm: (0.0, 0.0), none: (0.0, 0.0))
      for _ in 0..<7 {
        let calm = rng.chance(0.9) ? 1.0 : 0
        let none = rng.chance(0.2) ? 1.0 : 0
        sums.calm.0 += rng.normal(430, 45) + effect * calm
        sums.calm.1 += calm
        sums.none.0 += rng.normal(430, 45) + effect * none
        sums.none.1 += none
      }
      y.append((sums.calm.0 - sums.none.0) / 7)
      d.append((sums.calm.1 - sums.none.1) / 7)
    }
    return (y, d)
  }

  @Test(
    "its interval covers the planted minutes per evening with music, not the diluted contrast, on at least 95% of simulated experiments looked at after every cycle"
  )
  func coverage() {
    var rng = SplitMix64(seed: 3, stream: "music-effect")
    let sequence = ConfidenceSequence(alpha: 0.0125, tunedFor: 20)
    var missed = 0
    var dilutedMissed = 0
    for _ in 0..<300 {
      let (y, d) = Self.cycles(20, effect: 15, rng: &rng)
      var ever = false
      for c in 4...20 {
        let effect = MusicEffect(
          asleep: Array(y[..<c]), music: Array(d[..<c]), sequence: sequence,
          prior: (24, 4))!
        if let lower = effect.lower, let upper = effect.upper, !(lower...upper).contains(15) {
          ever = true
        }
      }
      if ever { missed += 1 }
      let mean = y.reduce(0, +) / 20
      if abs(mean - 15) > abs(mean - 15 * 0.7) { dilutedMissed += 1 }
    }
    #expect(missed <= 15, "missed the planted effect in \(missed) of 300")
    // The plain contrast estimates 15 × 0.7 = 10.5 (the arms' difference in music), which the
    // ratio corrects.
    #expect(dilutedMissed > 150)
  }

  @Test("unbounded while the arms' music hardly differs; nil before four cycles")
  func unbounded() {
    let sequence = ConfidenceSequence(alpha: 0.0125, tunedFor: 5)
    let flat = MusicEffect(
      asleep: [10, -20, 30, -5, 12], music: [0.02, -0.01, 0.03, 0, 0.01], sequence: sequence,
      prior: (24, 4))!
    #expect(flat.lower == nil && flat.upper == nil && flat.estimate != nil)
    #expect(
      MusicEffect(asleep: [1, 2, 3], music: [1, 1, 1], sequence: sequence, prior: nil) == nil)
  }

  @Test("an evening's music is the union of what every source heard in the hour before bed")
  func evenings() {
    let bed = Timestamp(
      millisecondsSinceEpoch: 10 * 86_400_000 + 6 * 3_600_000, utcOffsetSeconds: 0)
    let night = NightSleep(
      bedtime: bed,
      wake: Timestamp(millisecondsSinceEpoch: bed.millisecondsSinceEpoch + 8 * 3_600_000),
      eveningDay: 9, sleepOnset: nil, asleepMs: 7 * 3_600_000,
      stagedMs: nil, deepMs: nil, remMs: nil, primarySource: "Watch")
    let b = bed.millisecondsSinceEpoch
    // The same play from two sources, another before the window, one after bedtime.
    let spans: [(start: Int64, end: Int64)] = [
      (b - 30 * 60_000, b - 10 * 60_000), (b - 25 * 60_000, b - 5 * 60_000),
      (b - 90 * 60_000, b - 70 * 60_000), (b + 60_000, b + 5 * 60_000),
    ]
    let record = EveningRecord.evenings(nights: [night], spans: spans, windowMinutes: 60)[9]
    #expect(record?.musicMinutes == 25)
    #expect(record?.asleepMinutes == 420)
    #expect(record?.bedtimeMinutes == 1800.0)
  }
}
