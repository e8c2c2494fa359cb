import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Target policy: the app's policy under other preferences, replayed on the log")
struct TargetPolicyTests {
  static let policies = [
    LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0),
    LoggingPolicy(kind: .softmax, temperature: 0.3, epsilon: 0),
    LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0),
    LoggingPolicy(kind: .epsilonGreedy, temperature: 0, epsilon: 0.1),
  ]

  @Test(
    "under the logging preferences the target gives every candidate its logged propensity",
    arguments: policies)
  func reproducesLoggedPropensities(policy: LoggingPolicy) throws {
    let log = SyntheticLogs.engineLog(
      count: 400, preferences: .appDefault, policy: policy, seed: 11)
    try log.checkConsistency()
    #expect(log.familiarityBoost.contains { $0 != 1 })
    #expect(log.blends.contains(true) && log.blends.contains(false))
    let target = TargetPolicy.evaluate(log, .appDefault)
    #expect(target.probabilities.count == log.rows)
    let worst = zip(target.probabilities, log.propensity).map { abs($0 - $1) }.max() ?? 0
    #expect(worst <= 1e-12)
    // The likeliest row is the logged policy's favourite.
    for d in 0..<log.count {
      let p = Array(log.propensity[log.rows(of: d)])
      #expect(p[target.likeliest[d]] == p.max())
    }
  }

  @Test("final scores blend 0.7 base + 0.3 smoothness only after a song, with the boost")
  func finalScores() {
    var log = LoggedDecisions(policy: LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0))
    let c = [1.0, 0.5, 0.4, 0.5, 1, 0.5, 1]
    log.components = c + c
    log.smoothness = [0.8, 0.8]
    log.propensity = [1, 1]
    log.rowStart = [0, 1, 2]
    log.blends = [true, false]
    log.familiarityBoost = [1.5, 1]
    log.chosen = [0, 0]
    let base = 0.25 + 0.125 + 0.15 * 1.5 * 0.4 + 0.1 + 0.15 - 0.15 - 0.2
    let scores = TargetPolicy.finalScores(log, .appDefault)
    #expect(abs(scores[0] - (0.7 * base + 0.3 * 0.8)) < 1e-12)
    let plain = 0.25 + 0.125 + 0.15 * 0.4 + 0.1 + 0.15 - 0.15 - 0.2
    #expect(abs(scores[1] - plain) < 1e-12)
  }

  @Test("weights that favour tempo choose the tempo match; weights that favour context, the other")
  func preferencesMoveProbability() {
    var log = LoggedDecisions(
      policy: LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0))
    // Row 0 matches the tempo, row 1 the context.
    log.components = [1, 0.5, 0.5, 0.5, 0.2, 0, 0] + [0.2, 0.5, 0.5, 0.5, 1, 0, 0]
    log.smoothness = [0, 0]
    log.propensity = [0.5, 0.5]
    log.rowStart = [0, 2]
    log.blends = [false]
    log.familiarityBoost = [1]
    log.chosen = [0]
    let tempo = UserPreferences.appDefault.with(
      weights: ScoringWeights(vector: [0.6, 0.1, 0.1, 0.1, 0.1, 0.3, 0.2]))
    let context = UserPreferences.appDefault.with(
      weights: ScoringWeights(vector: [0.1, 0.1, 0.1, 0.1, 0.6, 0.3, 0.2]))
    let p = TargetPolicy.probabilities(log, tempo)
    let q = TargetPolicy.probabilities(log, context)
    #expect(p[0] > 0.99 && q[1] > 0.99)
    #expect(TargetPolicy.likeliest(log, tempo) == [0])
    #expect(TargetPolicy.likeliest(log, context) == [1])
    #expect(abs(p[0] + p[1] - 1) < 1e-15)
  }

  @Test("the log's policy kind and temperature decide, not the preferences' own policy")
  func logPolicyDecides() throws {
    let log = SyntheticLogs.engineLog(
      count: 50, preferences: .appDefault,
      policy: LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0), seed: 3)
    var greedy = UserPreferences.appDefault
    greedy.policy = LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0)
    #expect(TargetPolicy.probabilities(log, greedy) == TargetPolicy.probabilities(log, .appDefault))
  }
}
