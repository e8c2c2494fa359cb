import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Session quality: the seed's composite, with next-night sleep")
struct SessionQualityTests {
  static func close(_ a: Double?, _ b: Double) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= 1e-12 * max(1, abs(b))
  }

  @Test("all four components, by hand from the seed's weights")
  func allComponents() {
    // 1 − 0.2 = 0.8; 0.5 + 4/20 = 0.7; 0.9; 0.6.
    let q = SessionQualityScorer.quality(
      skipRate: 0.2, hrvDeltaMs: 4, engagement: 0.9, sleepScore: 0.6)
    #expect(q.basis == [.skip, .hrv, .engagement, .sleep])
    #expect(Self.close(q.values[.hrv], 0.7))
    // 0.25·0.8 + 0.30·0.7 + 0.25·0.9 + 0.20·0.6 = 0.2 + 0.21 + 0.225 + 0.12.
    #expect(Self.close(q.score, 0.755))
    #expect(Self.close(q.weight(of: .hrv), 0.30))
  }

  @Test("a missing component is left out and the others' weights renormalised")
  func missingComponents() {
    let noSleep = SessionQualityScorer.quality(
      skipRate: 0.2, hrvDeltaMs: 4, engagement: 0.9, sleepScore: nil)
    #expect(noSleep.basis == [.skip, .hrv, .engagement])
    // (0.2 + 0.21 + 0.225) / 0.8.
    #expect(Self.close(noSleep.score, 0.79375))
    #expect(Self.close(noSleep.weight(of: .hrv), 0.375))
    #expect(noSleep.weight(of: .sleep) == 0)

    let skipAndEngagement = SessionQualityScorer.quality(
      skipRate: 0.2, hrvDeltaMs: nil, engagement: 0.9, sleepScore: nil)
    #expect(skipAndEngagement.basis == [.skip, .engagement])
    #expect(Self.close(skipAndEngagement.score, 0.85))
    #expect(Self.close(skipAndEngagement.weight(of: .skip), 0.5))

    // NaN is missing, not a number.
    let nan = SessionQualityScorer.quality(
      skipRate: 0.5, hrvDeltaMs: .nan, engagement: nil, sleepScore: .infinity)
    #expect(nan.basis == [.skip])
    #expect(Self.close(nan.score, 0.5))
  }

  @Test("no component at all gives no score")
  func empty() {
    let q = SessionQualityScorer.quality(
      skipRate: nil, hrvDeltaMs: nil, engagement: nil, sleepScore: nil)
    #expect(q.score == nil && q.basis.isEmpty && q.weight(of: .skip) == 0)
    #expect(SessionQualityScorer.qualities([], nights: []).isEmpty)
    #expect(SleepBaseline(nights: []) == SleepBaseline(efficiency: nil, restorativeShare: nil))
  }

  @Test(
    "the HRV curve: 0.5 + ΔSDNN / 20 ms, clamped to 0…1",
    arguments: [
      (0.0, 0.5), (4.0, 0.7), (-5.0, 0.25), (10.0, 1.0), (15.0, 1.0), (-12.0, 0.0),
    ])
  func hrvCurve(delta: Double, expected: Double) {
    #expect(Self.close(SessionQualityScorer.hrvComponent(deltaMs: delta), expected))
  }

  static func night(asleepMin: Int64, inBedMin: Int64, deepMin: Int64?, remMin: Int64?)
    -> NightSleep
  {
    let bed = Timestamp(millisecondsSinceEpoch: 0)
    let m = Int64(60_000)
    return NightSleep(
      bedtime: bed, wake: Timestamp(millisecondsSinceEpoch: inBedMin * m), eveningDay: 0,
      sleepOnset: bed, asleepMs: asleepMin * m, stagedMs: deepMin == nil ? nil : asleepMin * m,
      deepMs: deepMin.map { $0 * m }, remMs: remMin.map { $0 * m }, primarySource: "Watch")
  }

  @Test("the sleep score: efficiency and deep + REM share against the person's medians")
  func sleepScore() {
    let baseline = SleepBaseline(efficiency: 0.85, restorativeShare: 0.40)
    // Efficiency 450/500 = 0.90 → 0.5 + 0.05/0.2 = 0.75; deep + REM (90 + 108)/450 = 0.44 →
    // 0.5 + 0.04/0.2 = 0.7; the mean 0.725.
    let staged = Self.night(asleepMin: 450, inBedMin: 500, deepMin: 90, remMin: 108)
    #expect(Self.close(SessionQualityScorer.sleepScore(staged, baseline: baseline), 0.725))
    // Before iOS 16: efficiency alone.
    let old = Self.night(asleepMin: 450, inBedMin: 500, deepMin: nil, remMin: nil)
    #expect(Self.close(SessionQualityScorer.sleepScore(old, baseline: baseline), 0.75))
    // Far below the median clamps to 0; a night at the median scores 0.5.
    let poor = Self.night(asleepMin: 300, inBedMin: 500, deepMin: 30, remMin: 30)
    #expect(SessionQualityScorer.sleepScore(poor, baseline: baseline) == 0)
    let typical = Self.night(asleepMin: 425, inBedMin: 500, deepMin: 85, remMin: 85)
    #expect(Self.close(SessionQualityScorer.sleepScore(typical, baseline: baseline), 0.5))
    // Nothing to compare with: no score.
    let none = SleepBaseline(efficiency: nil, restorativeShare: nil)
    #expect(SessionQualityScorer.sleepScore(staged, baseline: none) == nil)
  }

  @Test("the baseline is the median over the nights that have each value")
  func baseline() {
    let nights = [
      Self.night(asleepMin: 400, inBedMin: 500, deepMin: 80, remMin: 80),  // 0.8, 0.4
      Self.night(asleepMin: 450, inBedMin: 500, deepMin: nil, remMin: nil),  // 0.9
      Self.night(asleepMin: 425, inBedMin: 500, deepMin: 85, remMin: 170),  // 0.85, 0.6
      Self.night(asleepMin: 475, inBedMin: 500, deepMin: nil, remMin: nil),  // 0.95
    ]
    let b = SleepBaseline(nights: nights)
    #expect(Self.close(b.efficiency, 0.875))
    #expect(Self.close(b.restorativeShare, 0.5))
  }

  @Test("analysed sessions: one with its next night and HRV, one with neither")
  func analysedSessions() {
    let d = NightSleepTests.day
    let nights = SleepNights.nights(
      from: NightSleepTests.stagedNight(d) + NightSleepTests.stagedNight(d + 1))
    func session(_ start: Timestamp, _ end: Timestamp, skipRate: Double, hrv: SignalChange)
      -> SessionBiometrics
    {
      SessionBiometrics(
        session: ListeningSession(
          playIDs: [1], start: start, endMs: end.millisecondsSinceEpoch, context: .relax,
          skipRate: skipRate, engagement: 0.8),
        heartRate: SignalChange(before: nil, during: nil, samplesBefore: 0, samplesDuring: 0),
        hrv: hrv)
    }
    let evening = session(
      NightSleepTests.at(d, 20), NightSleepTests.at(d, 21), skipRate: 0.25,
      hrv: SignalChange(before: 40, during: 46, samplesBefore: 2, samplesDuring: 1))
    let late = session(
      NightSleepTests.at(d + 2, 20), NightSleepTests.at(d + 2, 21), skipRate: 0.5,
      hrv: SignalChange(before: 40, during: nil, samplesBefore: 2, samplesDuring: 0))
    let q = SessionQualityScorer.qualities([evening, late], nights: nights)
    // Both nights are alike, so each sits at the median: sleep 0.5.
    // 0.25·0.75 + 0.30·0.8 + 0.25·0.8 + 0.20·0.5 = 0.1875 + 0.24 + 0.2 + 0.1.
    #expect(q[0].basis == [.skip, .hrv, .engagement, .sleep])
    #expect(Self.close(q[0].values[.sleep], 0.5))
    #expect(Self.close(q[0].score, 0.7275))
    // No HRV after, no night within reach: (0.25·0.5 + 0.25·0.8) / 0.5.
    #expect(q[1].basis == [.skip, .engagement])
    #expect(Self.close(q[1].score, 0.65))
  }

  @Test(
    "a missing part is predicted from the person's sessions in the same context, else from all of them, else left out"
  )
  func completedPredictsMissingParts() {
    func q(_ hrv: Double?, sleep: Double? = nil) -> SessionQuality {
      SessionQualityScorer.quality(
        skipRate: 0.2, hrvDeltaMs: hrv, engagement: 0.9, sleepScore: sleep)
    }
    // Five relax sessions with HRV changes 0, 2, 4, 6, 8 ms (components 0.5 … 0.9, mean 0.7),
    // one relax session without; one workout session without (workout has no HRV at all).
    let relax = [0.0, 2, 4, 6, 8].map { q($0) }
    let qualities = relax + [q(nil), q(nil)]
    let contexts: [ActivityContext] = Array(repeating: .relax, count: 6) + [.workout]
    let done = SessionQualityScorer.completed(qualities, contexts: contexts)
    #expect(done.prefix(5).map(\.score) == relax.map(\.score), "measured sessions keep theirs")
    #expect(done[5].basis == [.skip, .engagement], "the basis is what was measured")
    #expect(Self.close(done[5].predicted[.hrv], 0.7))
    // (0.25·0.8 + 0.30·0.7 + 0.25·0.9) / 0.8: sleep is predicted for no one (never measured).
    #expect(Self.close(done[5].score, (0.2 + 0.21 + 0.225) / 0.8))
    // The workout falls back on all five measured sessions: the same mean here.
    #expect(Self.close(done[6].predicted[.hrv], 0.7))
    #expect(done[6].predicted[.sleep] == nil)
    // Fewer than five sessions measured it: nothing to predict from, so renormalised.
    let few = SessionQualityScorer.completed(
      [q(4), q(nil)], contexts: [.relax, .relax])
    #expect(few[1].predicted.isEmpty && few[1].score == q(nil).score)
  }

  @Test(
    "hiding HRV on sessions that measured it barely moves their mean quality under prediction, and moves it under renormalising"
  )
  func maskingShift() throws {
    // Ten relax sessions: skip 0.2 and engagement 0.9 (0.8 and 0.9), HRV components 0.1 … 0.19
    // — lower than the other parts, as a person whose HRV rarely rises would have.
    let qualities = (0..<10).map { i in
      SessionQualityScorer.quality(
        skipRate: 0.2, hrvDeltaMs: -8 + 0.2 * Double(i), engagement: 0.9, sleepScore: nil)
    }
    let contexts = Array(repeating: ActivityContext.relax, count: 10)
    let shift = try #require(
      SessionQualityScorer.maskingShift(qualities, contexts: contexts, component: .hrv))
    #expect(shift.sessions == 10)
    // Leave-one-out means average to the mean itself: the shift is 0 to rounding.
    #expect(abs(shift.predicted) < 1e-12, "\(shift.predicted)")
    // Renormalised, the score is (0.2 + 0.225) / 0.5 = 0.85 against a mean of about 0.55.
    #expect(shift.renormalised > 0.25, "\(shift.renormalised)")
  }
}
