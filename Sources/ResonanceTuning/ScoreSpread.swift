import ResonanceModel

/// How widely final scores spread among a decision's candidates, as a function of the weights
/// (`docs/tuning.md`, "Why scale matters under a softmax"). With a fixed temperature, a wider
/// spread is a greedier policy; `SweepDesign`'s points are rescaled to spread as much as the
/// logging preferences' scores do, so that a sweep compares tastes at the same greediness.
///
/// With rows a (the folded components) and offsets o, centred within each decision, the
/// pooled within-decision variance of w·a + o is wᵀΣw + 2wᵀσ + v, with Σ the covariance of a,
/// σ that of a with o and v the variance of o.
package struct ScoreSpread: Sendable {
  package let covariance: [Double]
  package let crossCovariance: [Double]
  package let offsetVariance: Double

  /// The spread over `decisions` (indices into the input's log; every decision when nil).
  package init(_ input: SweepInput, decisions: [Int]? = nil) {
    let log = input.decisions
    var sigma = [Double](repeating: 0, count: 49)
    var cross = [Double](repeating: 0, count: 7)
    var v = 0.0
    var rows = 0
    for d in decisions ?? Array(0..<input.count) {
      let range = log.rows(of: d)
      guard range.count > 1 else { continue }
      var mean = [Double](repeating: 0, count: 7)
      var meanOffset = 0.0
      for r in range {
        for k in 0..<7 { mean[k] += input.folded(row: r, component: k, decision: d) }
        meanOffset += input.offset(row: r, decision: d)
      }
      let n = Double(range.count)
      for k in 0..<7 { mean[k] /= n }
      meanOffset /= n
      for r in range {
        let o = input.offset(row: r, decision: d) - meanOffset
        var a = SIMD8<Double>()
        for k in 0..<7 { a[k] = input.folded(row: r, component: k, decision: d) - mean[k] }
        for i in 0..<7 {
          cross[i] += a[i] * o
          for j in 0..<7 { sigma[7 * i + j] += a[i] * a[j] }
        }
        v += o * o
      }
      rows += range.count
    }
    let scale = 1 / Double(max(1, rows))
    covariance = sigma.map { $0 * scale }
    crossCovariance = cross.map { $0 * scale }
    offsetVariance = v * scale
  }

  /// The pooled within-decision variance of the final scores under `w`.
  package func variance(_ w: ScoringWeights) -> Double {
    let (quadratic, linear) = forms(w)
    return quadratic + 2 * linear + offsetVariance
  }

  /// wᵀΣw and wᵀσ.
  private func forms(_ w: ScoringWeights) -> (quadratic: Double, linear: Double) {
    let x = w.vector
    var quadratic = 0.0
    var linear = 0.0
    for i in 0..<7 {
      linear += x[i] * crossCovariance[i]
      for j in 0..<7 { quadratic += x[i] * covariance[7 * i + j] * x[j] }
    }
    return (quadratic, linear)
  }

  /// `w` scaled by the s > 0 that gives its scores the variance `target`:
  /// s²·wᵀΣw + 2s·wᵀσ + v = target; `w` unchanged when no such s exists.
  package func matched(_ w: ScoringWeights, to target: Double) -> ScoringWeights {
    let (a, linear) = forms(w)
    let b = 2 * linear
    let c = offsetVariance - target
    guard a > 0 else { return w }
    let discriminant = b * b - 4 * a * c
    guard discriminant >= 0 else { return w }
    let s = (-b + discriminant.squareRoot()) / (2 * a)
    guard s > 0, s.isFinite else { return w }
    return ScoringWeights(vector: w.vector.map { $0 * s })
  }
}
