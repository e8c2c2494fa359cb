import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceTuning
import Testing

@Suite("greediness: design points as greedy as the preferences in force")
struct GreedinessTests {
  static let softmax = LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0)
  static let log = SyntheticLogs.engineLog(
    count: 600, preferences: .appDefault, policy: softmax, days: 90, seed: 11)
  static let design = SweepDesign(kind: .sobol, points: 64).weights()

  static func input(_ log: LoggedDecisions) -> SweepInput {
    SweepInput(
      log, rewards: [log.kept.map { $0 ? 1 : 0 }],
      predictions: [.init(repeating: 0.5, count: log.rows)],
      group: .init(repeating: 0, count: log.count), groups: 1)
  }

  /// The target's probabilities under `weights`, by the evaluator's own path.
  static func probabilities(_ log: LoggedDecisions, _ weights: ScoringWeights) -> [Double] {
    TargetPolicy.probabilities(log, UserPreferences.appDefault.with(weights: weights))
  }

  /// The decisions with a choice to make: more than one candidate.
  static func choices(_ log: LoggedDecisions) -> [Int] {
    (0..<log.count).filter { log.rows(of: $0).count > 1 }
  }

  /// The mean entropy of the target's choice over the decisions with a choice to make, from
  /// its probabilities.
  static func meanEntropy(_ log: LoggedDecisions, _ weights: ScoringWeights) -> Double {
    let p = probabilities(log, weights)
    var total = 0.0
    for d in choices(log) {
      for r in log.rows(of: d) where p[r] > 0 { total -= p[r] * Foundation.log(p[r]) }
    }
    return total / Double(choices(log).count)
  }

  @Test("every matched point's policy has the mean entropy of the preferences in force")
  func entropyMatched() {
    let greediness = Greediness(Self.input(Self.log))
    let reference = UserPreferences.appDefault.weights
    let target = Self.meanEntropy(Self.log, reference)
    #expect(abs(greediness.meanEntropy(reference) - target) < 1e-12)
    let matched = greediness.matched(Self.design, to: reference, threads: 2)
    #expect(matched.count == Self.design.count)
    for (point, original) in zip(matched, Self.design) {
      #expect(abs(Self.meanEntropy(Self.log, point) - target) < 1e-8)
      // Only the scale changes: the taste (the weights' proportions) is the design's.
      let ratio = point.vector[0] / original.vector[0]
      for (a, b) in zip(point.vector, original.vector) { #expect(abs(a - ratio * b) < 1e-12) }
    }
    // One thread or two, the same scales.
    #expect(greediness.matched(Self.design, to: reference, threads: 1) == matched)
  }

  @Test("a point that is the preferences in force at another scale becomes them again")
  func scaleUndone() {
    let reference = UserPreferences.appDefault.weights
    let scaled = [3.0, 0.4, 1.7].map { k in ScoringWeights(vector: reference.vector.map { $0 * k })
    }
    let matched = Greediness(Self.input(Self.log)).matched(scaled, to: reference)
    for point in matched {
      for (a, b) in zip(point.vector, reference.vector) { #expect(abs(a - b) < 1e-7 * b) }
    }
  }

  /// For a person whose taste is the app's scoring (the null person), no design point at the
  /// app's entropy chooses better than the app itself: the Gibbs variational principle.
  @Test("for a person whose taste is the app's scoring, no entropy-matched point beats the app")
  func nullPersonCannotGain() {
    let log = Self.log
    let reference = UserPreferences.appDefault.weights
    // What each candidate is worth to the person: the app's own final score.
    let utility = TargetPolicy.finalScores(log, .appDefault)
    func value(_ weights: ScoringWeights) -> Double {
      let p = Self.probabilities(log, weights)
      return (0..<log.rows).reduce(0) { $0 + p[$1] * utility[$1] } / Double(log.count)
    }
    let own = value(reference)
    let input = Self.input(log)
    let matched = Greediness(input).matched(Self.design, to: reference)
    let best = matched.map(value).max()!
    #expect(best <= own + 1e-9, "a point gains \(best - own) over the app's own policy")
    // Greedier than the app, the same taste does gain: the bound is the entropy's doing.
    let greedier = ScoringWeights(vector: reference.vector.map { $0 * 1.5 })
    #expect(value(greedier) > own + 1e-3)
  }

  @Test("greedy and ε-greedy policies match the score variance")
  func greedyPoliciesMatchVariance() {
    for policy in [
      LoggingPolicy(kind: .greedy, temperature: 0.05, epsilon: 0),
      LoggingPolicy(kind: .epsilonGreedy, temperature: 0.05, epsilon: 0.1),
    ] {
      let log = SyntheticLogs.engineLog(
        count: 200, preferences: .appDefault, policy: policy, days: 30, seed: 5)
      let input = Self.input(log)
      let reference = UserPreferences.appDefault.weights
      let spread = ScoreSpread(input)
      let matched = Greediness(input).matched(Self.design, to: reference)
      for (point, original) in zip(matched, Self.design) {
        #expect(point == spread.matched(original, to: spread.variance(reference)))
        #expect(abs(spread.variance(point) - spread.variance(reference)) < 1e-12)
      }
    }
  }

  @Test("the entropy is averaged over at most the sample limit, spread through the log")
  func sampled() {
    let input = Self.input(Self.log)
    let reference = UserPreferences.appDefault.weights
    let choices = Self.choices(Self.log)
    let limit = choices.count / 4
    let whole = Greediness(input)
    let sampled = Greediness(input, sampleLimit: limit)
    // Every fourth decision with a choice: the sample's mean entropy is theirs.
    let every4 = Self.log.subset((0..<limit).map { choices[$0 * choices.count / limit] })
    #expect(abs(sampled.meanEntropy(reference) - Self.meanEntropy(every4, reference)) < 1e-12)
    #expect(whole.meanEntropy(reference) != sampled.meanEntropy(reference))
    // Points are matched on the sample.
    let target = Self.meanEntropy(every4, reference)
    for point in sampled.matched(Self.design, to: reference) {
      #expect(abs(Self.meanEntropy(every4, point) - target) < 1e-8)
    }
  }
}
