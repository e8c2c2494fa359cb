import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Rewards: what counts as a good outcome")
struct RewardTests {
  @Test("the composite is 0.4 kept + 0.3 share + 0.3 response score")
  func composite() {
    // Response +4 ms → 0.5 + 4/20 = 0.7.
    let value = Reward.composite(
      kept: true, listenShare: 0.5, responseScore: Reward.responseScore(4))
    #expect(abs(value - (0.4 + 0.15 + 0.21)) < 1e-12)
    // A response beyond ±10 saturates the score.
    #expect(
      abs(
        Reward.composite(
          kept: false, listenShare: 1, responseScore: Reward.responseScore(-30)) - 0.3) < 1e-12)
    #expect(
      abs(
        Reward.composite(
          kept: true, listenShare: 1, responseScore: Reward.responseScore(25)) - 1) < 1e-12)
    #expect(Reward.responseScore(0) == 0.5)
  }

  @Test("a missing response is left out and the other weights renormalised")
  func missingResponse() {
    let value = Reward.composite(kept: true, listenShare: 0.5, responseScore: nil)
    #expect(abs(value - (0.4 + 0.15) / 0.7) < 1e-12)
    #expect(Reward.composite(kept: true, listenShare: 0.5, responseScore: .nan) == value)
    // Without share and response, kept alone.
    #expect(Reward.composite(kept: true, listenShare: .nan, responseScore: nil) == 1)
    #expect(Reward.composite(kept: false, listenShare: .nan, responseScore: nil) == 0)
    // A share over 1 counts as 1.
    #expect(
      Reward.composite(kept: true, listenShare: 1.4, responseScore: nil)
        == Reward.composite(kept: true, listenShare: 1, responseScore: nil))
  }

  @Test("each reward reads its outcome, nil where it was not measured")
  func perDecision() {
    var log = LoggedDecisions(policy: LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0))
    log.kept = [true, false]
    log.listenShare = [0.9, .nan]
    log.response = [nil, -6]
    log.sessionQuality = [0.7, nil]
    log.rowStart = [0, 1, 2]
    #expect(Reward.keep.values(log) == [1, 0])
    #expect(Reward.listenShare.values(log) == [0.9, nil])
    #expect(Reward.response.values(log) == [nil, 0.2])
    #expect(Reward.sessionQuality.values(log) == [0.7, nil])
    let composite = Reward.composite.values(log)
    #expect(abs(composite[0]! - (0.4 + 0.27) / 0.7) < 1e-12)
    #expect(abs(composite[1]! - (0.3 * 0.2) / 0.7) < 1e-12)
  }

  @Test("a log the missing-response model filled is read through its response reward")
  func filledResponse() {
    var log = LoggedDecisions(policy: LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0))
    log.kept = [true, false]
    log.listenShare = [0.9, 0.02]
    log.response = [nil, -6]
    log.sessionQuality = [nil, nil]
    log.rowStart = [0, 1, 2]
    // The model's values replace the measured score and fill the missing one.
    log.responseReward = [0.6, 0.25]
    #expect(Reward.response.values(log) == [0.6, 0.25])
    let composite = Reward.composite.values(log)
    #expect(abs(composite[0]! - (0.4 + 0.27 + 0.18)) < 1e-12)
    #expect(abs(composite[1]! - (0.006 + 0.075)) < 1e-12)
  }
}
