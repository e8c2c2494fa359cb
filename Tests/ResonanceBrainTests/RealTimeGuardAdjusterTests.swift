import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Real-time adjuster")
struct RealTimeGuardAdjusterTests {
  @Test("a rising heart rate in a calm-need session lowers the ceiling, and only lowers it")
  func ceiling() {
    var state = RealTimeGuardAdjuster.start(heartRate: 70)
    state = RealTimeGuardAdjuster.beforeDecision(state, need: .calm, heartRate: 74)
    #expect(state.bpmCeiling == nil)
    state = RealTimeGuardAdjuster.beforeDecision(state, need: .calm, heartRate: 75)
    #expect(state.bpmCeiling == 98)
    state = RealTimeGuardAdjuster.beforeDecision(state, need: .calm, heartRate: 80)
    #expect(state.bpmCeiling == 83)
    // Heart rate falls again: the ceiling stays where it came down to.
    state = RealTimeGuardAdjuster.beforeDecision(state, need: .calm, heartRate: 71)
    #expect(state.bpmCeiling == 83)
    // Never below the calm target.
    state = RealTimeGuardAdjuster.beforeDecision(state, need: .calm, heartRate: 110)
    #expect(state.bpmCeiling == SongScorer.targetBPM(for: .calm))
  }

  @Test("other needs, or no heart rate, leave the ceiling alone")
  func otherNeeds() {
    let start = RealTimeGuardAdjuster.start(heartRate: 70)
    #expect(RealTimeGuardAdjuster.beforeDecision(start, need: .energy, heartRate: 120) == start)
    #expect(RealTimeGuardAdjuster.beforeDecision(start, need: .calm, heartRate: nil) == start)
    let unknown = RealTimeGuardAdjuster.start(heartRate: nil)
    #expect(RealTimeGuardAdjuster.beforeDecision(unknown, need: .calm, heartRate: 120) == unknown)
  }

  @Test("skips in a row boost familiarity 1.25 then 1.5; a kept song resets it")
  func skips() {
    var state = AdjusterState()
    let boosts = [true, true, true, true, false].map { skipped -> Double in
      state = RealTimeGuardAdjuster.afterPlay(state, skipped: skipped)
      return state.familiarityBoost
    }
    #expect(boosts == [1, 1.25, 1.5, 1.5, 1])
    #expect(state.consecutiveSkips == 0)
  }

  @Test("the ceiling rejects faster songs, and the boost multiplies the familiarity weight")
  func inTheEngine() {
    let moment = DecisionMoment(
      need: .calm, context: .relax, nowMs: 0, localHour: 15, stress: 0.3, previous: nil,
      recentArtists: [], maxPlayCount: 10)
    let candidates = [70.0, 90.0, 120.0].enumerated().map { i, bpm in
      Candidate(
        songID: "s\(i)", artist: "a\(i)",
        features: SongFeatures(bpm: bpm, energy: 0.3, valence: 0.5),
        playCount: 5, learnedEffect: nil, lastPlayedAtMs: nil)
    }
    let adjuster = AdjusterState(
      baselineHeartRate: 70, bpmCeiling: 98, consecutiveSkips: 3, familiarityBoost: 1.5)
    let scored = DecisionEngine.score(
      candidates, at: moment, preferences: .appDefault, adjuster: adjuster)
    #expect(scored.map(\.index) == [0, 1])
    #expect(
      GuardFilters.rejection(of: candidates[2], at: moment, adjuster: adjuster) == .bpmCeiling)
    let plain = DecisionEngine.score(candidates, at: moment, preferences: .appDefault)
    let boostedGain = scored[0].baseScore - plain[0].baseScore
    #expect(abs(boostedGain - 0.5 * 0.15 * scored[0].components.familiarity) < 1e-12)
  }
}
