import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceTuning
import Testing

@Suite("the sweep kernel")
struct SweepKernelTests {
  static let logging = LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0)
  static let log = SyntheticLogs.engineLog(
    count: 600, preferences: .appDefault, policy: logging, days: 90, seed: 7)

  /// Two rewards and their cross-fitted models, as the sweep lays them out.
  static func input(_ log: LoggedDecisions, group: [Int], groups: Int, grid: Bool = false) throws
    -> (SweepInput, [RewardModel])
  {
    let models = try [Reward.keep, .composite].map { try RewardModel.fit(log, reward: $0) }
    let input = SweepInput(
      log, rewards: models.map { $0.reward.values(log) }, predictions: models.map(\.predictions),
      group: group, groups: groups, grid: grid)
    return (input, models)
  }

  static let points: [ScoringWeights] =
    [UserPreferences.appDefault.weights]
    + SweepDesign(kind: .sobol, points: 70).weights()

  @Test(
    "every vector's IPS, SNIPS, DM and DR, ESS, largest weight and agreement equal the reference evaluator's",
    arguments: SweepProduct.allCases)
  func matchesEvaluator(product: SweepProduct) throws {
    let log = Self.log
    let (input, models) = try Self.input(
      log, group: .init(repeating: 0, count: log.count), groups: 1)
    let totals = SweepKernel.evaluate(input, weights: Self.points, product: product, threads: 2)
    for (k, model) in models.enumerated() {
      let evaluator = try OffPolicyEvaluator(log, reward: model.reward, rewardModel: model)
      for (p, weights) in Self.points.enumerated() {
        let target = UserPreferences.appDefault.with(weights: weights)
        for estimator in [Estimator.ips, .snips, .dm, .dr] {
          let reference = evaluator.estimate(target, estimator: estimator)
          let fused = totals.estimate(point: p, reward: k, estimator: estimator)
          let (a, b) = (try #require(reference.value), try #require(fused.value))
          #expect(abs(a - b) <= 1e-10 * max(1, abs(a)), "point \(p) \(estimator): \(a) vs \(b)")
          #expect(fused.measured == reference.diagnostics.decisions)
        }
        let reference = evaluator.estimate(target)
        let fused = totals.estimate(point: p, reward: k, estimator: .dr)
        if k == 0 {
          // The keep reward is measured everywhere: the diagnostics cover the same decisions.
          let ess = reference.diagnostics.effectiveSampleSize
          #expect(abs(fused.effectiveSampleSize - ess) <= 1e-9 * ess)
          #expect(abs(fused.largestWeight - reference.diagnostics.largestWeight) <= 1e-9)
          #expect(fused.agreementShare == reference.diagnostics.agreementShare)
        }
      }
    }
    // Under the logging preferences every weight is 1 (up to rounding): ESS = n.
    let own = totals.estimate(point: 0, reward: 0, estimator: .ips)
    #expect(abs(own.effectiveSampleSize - Double(log.count)) < 1e-6)
  }

  @Test(
    "with a temperature per vector, every vector's DR equals the evaluator's at that temperature, and a colder one is greedier",
    arguments: SweepProduct.allCases)
  func temperatureFactors(product: SweepProduct) throws {
    let log = Self.log
    let (input, models) = try Self.input(
      log, group: .init(repeating: 0, count: log.count), groups: 1)
    let weights = Array(repeating: UserPreferences.appDefault.weights, count: 5)
    let factors = [1, 0.5, 0.7, 1.4, 2.0]
    let totals = SweepKernel.evaluate(
      input, weights: weights, temperatureFactors: factors, product: product, threads: 2)
    let evaluator = try OffPolicyEvaluator(log, reward: models[0].reward, rewardModel: models[0])
    var ess: [Double] = []
    for (p, factor) in factors.enumerated() {
      let reference = evaluator.estimate(.appDefault, temperatureFactor: factor)
      let fused = totals.estimate(point: p, reward: 0, estimator: .dr)
      let (a, b) = (try #require(reference.value), try #require(fused.value))
      #expect(abs(a - b) <= 1e-10 * max(1, abs(a)), "factor \(factor): \(a) vs \(b)")
      ess.append(fused.effectiveSampleSize)
    }
    // At the log's own temperature every weight is 1; away from it the log supports it less.
    #expect(abs(ess[0] - Double(log.count)) < 1e-6)
    #expect(ess[1] < ess[2] && ess[2] < ess[0] && ess[4] < ess[3] && ess[3] < ess[0], "\(ess)")
  }

  @Test("the sums do not depend on the thread count or the product, and groups add up")
  func deterministic() throws {
    let log = Self.log
    let months = log.time.map { CalendarMonth($0) }
    let distinct = Array(Set(months)).sorted()
    let group = months.map { distinct.firstIndex(of: $0)! }
    let (input, _) = try Self.input(log, group: group, groups: distinct.count)
    let one = SweepKernel.evaluate(input, weights: Self.points, product: .simd, threads: 1)
    let two = SweepKernel.evaluate(input, weights: Self.points, product: .simd, threads: 2)
    #expect(one.values == two.values)
    let blas = SweepKernel.evaluate(input, weights: Self.points, product: .blas, threads: 2)
    for (a, b) in zip(one.values, blas.values) { #expect(abs(a - b) <= 1e-9 * max(1, abs(a))) }
    let (whole, _) = try Self.input(log, group: .init(repeating: 0, count: log.count), groups: 1)
    let pooled = SweepKernel.evaluate(whole, weights: Self.points, threads: 2)
    for p in Self.points.indices {
      let a = one.estimate(point: p, reward: 1, estimator: .dr).value ?? .nan
      let b = pooled.estimate(point: p, reward: 1, estimator: .dr).value ?? .nan
      #expect(abs(a - b) < 1e-12)
    }
    #expect(distinct.count >= 3)
  }

  @Test("a greedy log: the target's weight is 1/p on agreement and 0 elsewhere")
  func greedy() throws {
    let policy = LoggingPolicy(kind: .epsilonGreedy, temperature: 0, epsilon: 0.2)
    let log = SyntheticLogs.engineLog(
      count: 300, preferences: .appDefault, policy: policy, days: 60, seed: 3)
    let (input, models) = try Self.input(
      log, group: .init(repeating: 0, count: log.count), groups: 1)
    let totals = SweepKernel.evaluate(input, weights: Self.points, threads: 2)
    let evaluator = try OffPolicyEvaluator(log, reward: .keep, rewardModel: models[0])
    for (p, weights) in Self.points.enumerated().prefix(10) {
      let reference = evaluator.estimate(UserPreferences.appDefault.with(weights: weights))
      let fused = totals.estimate(point: p, reward: 0, estimator: .dr)
      #expect(abs((reference.value ?? .nan) - (fused.value ?? .nan)) < 1e-10)
    }
  }
}

@Suite("the kernel's vector exp")
struct VectorExpTests {
  @Test("within 4e-16 of glibc's exp over the softmax's range, 0 below −708, 1 at 0")
  func accuracy() {
    var worst = 0.0
    var x = -708.0
    while x <= 0 {
      let lanes = SIMD8<Double>((0..<8).map { x + Double($0) * 1.3e-5 })
      let e = VectorExp.exp(lanes)
      for lane in 0..<8 where lanes[lane] <= 0 {
        let reference = Foundation.exp(lanes[lane])
        worst = max(worst, abs(e[lane] - reference) / reference)
      }
      x += 0.0137
    }
    #expect(worst <= 4e-16, "largest relative error \(worst)")
    let edges = VectorExp.exp(SIMD8<Double>(0, -1e-300, -708.5, -745, -1e6, -.infinity, -0.5, -1))
    #expect(edges[0] == 1 && edges[1] == 1)
    #expect(edges[2] == 0 && edges[3] == 0 && edges[4] == 0 && edges[5] == 0)
    #expect(
      abs(edges[6] - Foundation.exp(-0.5)) <= 2e-16 && abs(edges[7] - Foundation.exp(-1)) <= 1e-16)
  }
}

@Suite("the sweep kernel's parameter grid")
struct SweepKernelGridTests {
  @Test(
    "with the grid, SNDR and every Switch-DR and DRos parameter equal the reference evaluator's",
    arguments: SweepProduct.allCases)
  func gridMatchesEvaluator(product: SweepProduct) throws {
    let log = SweepKernelTests.log
    let (input, models) = try SweepKernelTests.input(
      log, group: .init(repeating: 0, count: log.count), groups: 1, grid: true)
    let points = Array(SweepKernelTests.points.prefix(20))
    let totals = SweepKernel.evaluate(input, weights: points, product: product, threads: 2)
    #expect(totals.grid && totals.stride == EstimatorSums.stride(grid: true))
    for (k, model) in models.enumerated() {
      let evaluator = try OffPolicyEvaluator(log, reward: model.reward, rewardModel: model)
      for (p, weights) in points.enumerated() {
        let target = UserPreferences.appDefault.with(weights: weights)
        var forms: [(Estimator, Int)] = Estimator.allCases.filter { !$0.isTuned }.map { ($0, 0) }
        for estimator in [Estimator.switchDR, .dros] {
          forms += EstimatorSums.parameters(estimator).indices.map { (estimator, $0) }
        }
        for (estimator, index) in forms {
          let reference = evaluator.estimate(target, estimator: estimator, parameter: index)
          let fused = totals.estimate(
            point: p, reward: k, form: EstimatorForm(estimator, parameter: index))
          let (a, b) = (try #require(reference.value), try #require(fused.value))
          #expect(
            abs(a - b) <= 1e-10 * max(1, abs(a)), "point \(p) \(estimator) #\(index): \(a) vs \(b)")
        }
      }
    }
  }

  @Test("without the grid, the sums keep their old size, and the fixed estimators agree with it")
  func gridOnlyWhenAsked() throws {
    let log = SweepKernelTests.log
    let points = Array(SweepKernelTests.points.prefix(8))
    let plain = SweepKernel.evaluate(
      try SweepKernelTests.input(log, group: .init(repeating: 0, count: log.count), groups: 1).0,
      weights: points)
    let gridded = SweepKernel.evaluate(
      try SweepKernelTests.input(
        log, group: .init(repeating: 0, count: log.count), groups: 1, grid: true
      ).0, weights: points)
    #expect(plain.fields == SweepTotals.commonFields + 2 * EstimatorSums.baseStride)
    #expect(gridded.fields > plain.fields)
    for p in points.indices {
      for estimator in [Estimator.ips, .snips, .dm, .dr, .sndr] {
        #expect(
          plain.estimate(point: p, reward: 1, estimator: estimator).value
            == gridded.estimate(point: p, reward: 1, estimator: estimator).value)
      }
    }
  }
}
