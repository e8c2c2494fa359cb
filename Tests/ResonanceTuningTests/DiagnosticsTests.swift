import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Diagnostics: effective sample size, largest weight, agreement, clipping")
struct DiagnosticsTests {
  static let softmax = LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0)
  static let greedy = LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0)
  static let other = UserPreferences.appDefault.with(
    weights: ScoringWeights(vector: [0.1, 0.1, 0.1, 0.6, 0.1, 0.3, 0.2]))

  @Test("the logging policy keeps every decision's weight: ESS = n, largest weight 1")
  func loggingPolicyESS() throws {
    let log = SyntheticLogs.engineLog(
      count: 1_000, preferences: .appDefault, policy: Self.softmax, seed: 31)
    let estimate = try OffPolicyEvaluator(log, reward: .keep).estimate(.appDefault)
    #expect(abs(estimate.diagnostics.effectiveSampleSize - 1_000) < 1e-9)
    #expect(abs(estimate.diagnostics.largestWeight - 1) < 1e-12)
    #expect(!estimate.diagnostics.isEffectiveSampleSizeLow)
  }

  @Test("a different target concentrates the weights: ESS falls, the largest weight grows")
  func otherTargetESS() throws {
    let log = SyntheticLogs.engineLog(
      count: 1_000, preferences: .appDefault, policy: Self.softmax, seed: 31)
    let estimate = try OffPolicyEvaluator(log, reward: .keep).estimate(Self.other)
    #expect(estimate.diagnostics.effectiveSampleSize < 900)
    #expect(estimate.diagnostics.largestWeight > 2)
    #expect(estimate.diagnostics.agreementShare < 1)
    // Weights far from the logging ones lean on a few decisions: flagged.
    let far = UserPreferences.appDefault.with(
      weights: ScoringWeights(vector: [0, 0, 3, 0, 0, -1, -1]))
    let flagged = try OffPolicyEvaluator(log, reward: .keep).estimate(far)
    #expect(flagged.diagnostics.isEffectiveSampleSizeLow)
    #expect(!estimate.diagnostics.isEffectiveSampleSizeLow)
  }

  @Test("with greedy logging the logging preferences agree with every logged choice")
  func greedyAgreement() throws {
    let log = SyntheticLogs.engineLog(
      count: 500, preferences: .appDefault, policy: Self.greedy, seed: 8)
    let evaluator = try OffPolicyEvaluator(log, reward: .keep)
    let same = evaluator.estimate(.appDefault)
    #expect(same.diagnostics.agreementShare == 1)
    #expect(same.diagnostics.effectiveSampleSize == 500)
    // Greedy against greedy: a weight is 1 where the target picks the logged song, else 0,
    // so IPS keeps only the matches and the ESS counts them.
    let other = evaluator.estimate(Self.other, estimator: .ips)
    let matches = other.diagnostics.agreementShare * 500
    #expect(matches < 500)
    #expect(abs(other.diagnostics.effectiveSampleSize - matches) < 1e-9)
  }

  @Test("the clipping table: IPS falls as the threshold tightens; a loose one changes nothing")
  func clippingTable() throws {
    let (log, _) = EstimatorTests.world
    let evaluator = try OffPolicyEvaluator(log, reward: .keep)
    let estimate = evaluator.estimate(Self.other)
    let table = estimate.diagnostics.clippingTable
    #expect(table.map(\.threshold) == [nil, 100, 20, 10, 5])
    #expect(table[0].dr == estimate.value)
    #expect(table[0].ips == evaluator.estimate(Self.other, estimator: .ips).value)
    // Rewards are ≥ 0, so lowering weights can only lower IPS.
    let ips = table.map { $0.ips! }
    #expect(zip(ips, ips.dropFirst()).allSatisfy { $0 >= $1 })
    #expect(ips.last! < ips.first!)
    // A threshold above every weight is no clipping.
    let largest = estimate.diagnostics.largestWeight
    let loose = evaluator.estimate(Self.other, clipping: largest + 1)
    #expect(loose.value == estimate.value)
    #expect(loose.diagnostics.clippedDecisions == 0)
    let tight = evaluator.estimate(Self.other, estimator: .ips, clipping: 5)
    #expect(tight.value == table[4].ips)
    #expect(tight.diagnostics.clippedDecisions > 0)
    #expect(tight.weights.allSatisfy { $0 <= 5 })
    #expect(tight.diagnostics.largestWeight == largest)
  }
}
