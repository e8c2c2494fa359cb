import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("SNDR, Switch-DR, DRos and SLOPE")
struct ShrinkageEstimatorTests {
  /// Three decisions' slot sums, worked by hand: weights 0.5, 2 and 8; rewards 1, 0, 1; the
  /// model's value of the logged choice 0.6, 0.3, 0.2 (residuals +0.4, −0.3, +0.8); the direct
  /// method's terms 0.5, 0.4, 0.3.
  static func handSums(_ slot: Int) -> Double {
    let w = [0.5, 2.0, 8.0]
    let residual = [0.4, -0.3, 0.8]
    let direct = [0.5, 0.4, 0.3]
    func total(_ term: (Int) -> Double) -> Double { (0..<3).reduce(0) { $0 + term($1) } }
    switch slot {
    case EstimatorSums.measured: return 3
    case EstimatorSums.weight: return total { w[$0] }
    case EstimatorSums.direct: return total { direct[$0] }
    case EstimatorSums.doublyRobust: return total { direct[$0] + w[$0] * residual[$0] }
    default:
      if let k = (0..<EstimatorSums.switchThresholds.count).first(where: {
        EstimatorSums.switched($0) == slot
      }) {
        let tau = EstimatorSums.switchThresholds[k]
        return total { direct[$0] + (w[$0] <= tau ? w[$0] : 0) * residual[$0] }
      }
      let k = (0..<EstimatorSums.shrinkages.count).first { EstimatorSums.shrunk($0) == slot }!
      let lambda = EstimatorSums.shrinkages[k]
      return total { direct[$0] + lambda * w[$0] / (w[$0] * w[$0] + lambda) * residual[$0] }
    }
  }

  @Test("each estimator's form gives the value worked by hand")
  func handWorkedValues() throws {
    // Direct method: (0.5 + 0.4 + 0.3)/3 = 0.4. Weighted residuals: 0.2, −0.6, 6.4 (sum 6.0).
    let dm = try #require(EstimatorForm(.dm).value(Self.handSums))
    #expect(abs(dm - 0.4) < 1e-12)
    // DR: 0.4 + 6.0/3 = 2.4.
    #expect(abs(try #require(EstimatorForm(.dr).value(Self.handSums)) - 2.4) < 1e-12)
    // SNDR: 0.4 + 6.0/10.5.
    let sndr = try #require(EstimatorForm(.sndr).value(Self.handSums))
    #expect(abs(sndr - (0.4 + 6.0 / 10.5)) < 1e-12)
    // Switch-DR at τ = 5 (index 4 of ∞, 50, 20, 10, 5, 2): the weight-8 correction is dropped,
    // 0.4 + (0.2 − 0.6)/3; at τ = 2 the weight-2 one stays (w ≤ τ), the same.
    let tau5 = EstimatorForm(.switchDR, parameter: 4)
    #expect(tau5.parameter == 5)
    #expect(abs(try #require(tau5.value(Self.handSums)) - (0.4 - 0.4 / 3)) < 1e-12)
    let tau2 = EstimatorForm(.switchDR, parameter: 5)
    #expect(abs(try #require(tau2.value(Self.handSums)) - (0.4 - 0.4 / 3)) < 1e-12)
    // At τ = ∞ (index 0) Switch-DR and DRos are DR itself.
    #expect(
      EstimatorForm(.switchDR).value(Self.handSums) == EstimatorForm(.dr).value(Self.handSums))
    #expect(EstimatorForm(.dros).parameter == .infinity)
    // DRos at λ = 1 (index 4 of ∞, 100, 20, 5, 1, 0.25): shrunk weights 0.4, 0.4, 8/65.
    let shrunk = 0.4 * 0.4 + 0.4 * -0.3 + 8.0 / 65 * 0.8
    let lambda1 = EstimatorForm(.dros, parameter: 4)
    #expect(lambda1.parameter == 1)
    #expect(abs(try #require(lambda1.value(Self.handSums)) - (0.4 + shrunk / 3)) < 1e-12)
  }

  @Test(
    "the evaluator computes SNDR, Switch-DR and DRos as their formulas say, decision by decision")
  func evaluatorMatchesFormulas() throws {
    let log = SyntheticLogs.engineLog(
      count: 400, preferences: .appDefault,
      policy: LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0), seed: 5)
    let evaluator = try OffPolicyEvaluator(log, reward: .keep)
    let target = TargetPolicy.evaluate(
      log,
      UserPreferences.appDefault.with(
        weights: ScoringWeights(vector: [0.05, 0.05, 0.1, 0.1, 0.7, 0.3, 0.2])))
    let q = evaluator.rewardModel.predictions
    var w: [Double] = []
    var residual: [Double] = []
    var direct: [Double] = []
    for d in 0..<log.count {
      let rows = log.rows(of: d)
      let chosen = rows.lowerBound + log.chosen[d]
      w.append(target.probabilities[chosen] / log.propensity[chosen])
      residual.append(evaluator.rewards[d]! - q[chosen])
      direct.append(rows.reduce(0) { $0 + target.probabilities[$1] * q[$1] })
    }
    let n = Double(log.count)
    func mean(_ f: (Int) -> Double) -> Double { (0..<log.count).reduce(0) { $0 + f($1) } / n }
    #expect(w.max()! > 5, "some weights are heavy enough for the grid to matter")
    let sndr =
      mean { direct[$0] } + (0..<log.count).reduce(0) { $0 + w[$1] * residual[$1] }
      / w.reduce(0, +)
    #expect(abs(try #require(evaluator.estimate(target, estimator: .sndr).value) - sndr) < 1e-12)
    for (k, tau) in EstimatorSums.parameters(.switchDR).enumerated() {
      let byHand = mean { direct[$0] + (w[$0] <= tau ? w[$0] * residual[$0] : 0) }
      let value = try #require(evaluator.estimate(target, estimator: .switchDR, parameter: k).value)
      #expect(abs(value - byHand) < 1e-12, "τ = \(tau)")
    }
    for (k, lambda) in EstimatorSums.parameters(.dros).enumerated() {
      let shrunk = { (x: Double) in lambda.isInfinite ? x : lambda * x / (x * x + lambda) }
      let byHand = mean { direct[$0] + shrunk(w[$0]) * residual[$0] }
      let value = try #require(evaluator.estimate(target, estimator: .dros, parameter: k).value)
      #expect(abs(value - byHand) < 1e-12, "λ = \(lambda)")
    }
    // Left to choose, the evaluator takes a value of the grid and says which.
    let chosen = evaluator.estimate(target, estimator: .dros)
    #expect(chosen.form.parameter.map { EstimatorSums.parameters(.dros).contains($0) } == true)
  }

  @Test("SLOPE walks from the widest estimate and stops at the first that moves too far")
  func slopeByHand() {
    // Widths 0.4, 0.2, 0.1, 0.05 (given out of order); values drift 0, 0.1, 0.25, 0.6.
    // 0.1: |0.1 − 0| ≤ 0.2 + 1.449·0.4 — admitted. 0.25: ≤ 0.1 + 1.449·0.4 against 0 and
    // ≤ 0.1 + 1.449·0.2 against 0.1 — admitted. 0.6: |0.6 − 0.1| = 0.5 > 0.05 + 1.449·0.2
    // — the walk stops; the third widest (0.25, given first) is chosen.
    let values = [0.25, 0, 0.6, 0.1]
    let widths = [0.1, 0.4, 0.05, 0.2]
    #expect(SLOPE.choose(values: values, widths: widths) == 0)
    // With no drift the narrowest wins; with a far jump at the second, the widest does.
    #expect(SLOPE.choose(values: [0, 0, 0], widths: [0.3, 0.2, 0.1]) == 2)
    #expect(SLOPE.choose(values: [0, 1, 1], widths: [0.3, 0.2, 0.1]) == 0)
    // A value that is not finite is passed over; nothing usable, nothing chosen.
    #expect(SLOPE.choose(values: [0, .nan, 0], widths: [0.3, 0.2, 0.1]) == 2)
    #expect(SLOPE.choose(values: [.nan], widths: [1]) == nil)
    #expect(abs(SLOPE.constant - (6.0.squareRoot() - 1)) < 1e-15)
  }

  @Test("a unit's influence is the estimate's derivative in that unit's weight")
  func influenceIsTheDerivative() throws {
    // SNDR over two units: moving unit 0's slots by ε moves the value by ε·influence₀/unit₀.
    let units: [[Double]] = [
      [1, 0, 0.5, 0.2, 0.6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      [1, 0, 3.0, 0.4, 0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
    let form = EstimatorForm(.sndr)
    let total = { (slot: Int) in units[0][slot] + units[1][slot] }
    let base = try #require(form.value(total))
    let epsilon = 1e-7
    let moved = try #require(form.value { total($0) + epsilon * units[0][$0] })
    let influence = form.influence({ units[0][$0] }, total: total)
    #expect(abs((moved - base) / epsilon - influence) < 1e-5)
  }
}
