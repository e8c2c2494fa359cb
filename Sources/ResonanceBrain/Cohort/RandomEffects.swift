import ResonanceLinear
import ResonanceModel

/// The random-effects meta-analysis `resonance cohort pool` runs on each person-level effect:
/// each person i gives an estimate yᵢ with a known variance vᵢ (their SE²), and the true
/// person effects are drawn from N(μ, τ²).
///
/// - τ² by restricted maximum likelihood: the fixed point
///   τ² = Σ wᵢ²((yᵢ − μ̂)² − vᵢ) / Σ wᵢ² + 1 / Σ wᵢ, wᵢ = 1/(vᵢ + τ²), μ̂ = Σ wᵢyᵢ / Σ wᵢ,
///   iterated from the DerSimonian–Laird value and kept ≥ 0 (Viechtbauer 2005);
/// - μ's interval by Hartung–Knapp: SE² = max(1, Σ wᵢ(yᵢ − μ̂)² / (k − 1)) / Σ wᵢ, with
///   Student's t on k − 1 degrees of freedom (the modified form, Röver, Knapp & Friede 2015:
///   the plain one, without the max, fell to 91% at 10 persons here; IntHout et al. 2014 show
///   the normal interval far below its level with few persons);
/// - the prediction interval for a new person's effect: μ̂ ± t(k − 2) √(τ² + SE²) (Higgins,
///   Thompson & Spiegelhalter 2009), with three persons or more;
/// - I² = max(0, (Q − (k − 1)) / Q), Q Cochran's statistic about the fixed-effect mean.
///
/// Pure numerics over values: it lives in the Brain beside the report's other statistics.
package enum RandomEffects {
  /// The pooled effect of `estimates` (each with its SE > 0) at `level`; nil with fewer than
  /// two persons.
  package static func pool(_ estimates: [(estimate: Double, se: Double)], level: Double = 0.95)
    -> PooledEffect?
  {
    let rows = estimates.filter { $0.estimate.isFinite && $0.se.isFinite && $0.se > 0 }
    let k = rows.count
    guard k >= 2 else { return nil }
    let y = rows.map(\.estimate)
    let v = rows.map { $0.se * $0.se }

    // Cochran's Q about the fixed-effect mean, and the DerSimonian–Laird start.
    let fixedW = v.map { 1 / $0 }
    let fixedMu = weightedMean(y, fixedW)
    let q = zip(y, fixedW).reduce(0) { $0 + $1.1 * ($1.0 - fixedMu) * ($1.0 - fixedMu) }
    let sumW = fixedW.reduce(0, +)
    let c = sumW - fixedW.reduce(0) { $0 + $1 * $1 } / sumW
    var tau2 = max(0, (q - Double(k - 1)) / c)

    for _ in 0..<200 {
      let w = v.map { 1 / ($0 + tau2) }
      let mu = weightedMean(y, w)
      let sw = w.reduce(0, +)
      var numerator = 0.0
      var sw2 = 0.0
      for i in 0..<k {
        numerator += w[i] * w[i] * ((y[i] - mu) * (y[i] - mu) - v[i])
        sw2 += w[i] * w[i]
      }
      let next = max(0, numerator / sw2 + 1 / sw)
      let done = abs(next - tau2) <= 1e-12 * max(1, tau2)
      tau2 = next
      if done { break }
    }

    let w = v.map { 1 / ($0 + tau2) }
    let mu = weightedMean(y, w)
    let sw = w.reduce(0, +)
    let spread = zip(y, w).reduce(0) { $0 + $1.1 * ($1.0 - mu) * ($1.0 - mu) }
    // Hartung–Knapp's scale factor, kept at 1 or more (the modified form): with few persons
    // and a τ² estimated near 0 the plain factor falls below 1 and the interval below its
    // level (91% measured at 10 persons, `RandomEffectsTests`).
    let scale = max(1, spread / Double(k - 1))
    let se = (scale / sw).squareRoot()
    let t = StudentDistribution.quantile((1 + level) / 2, degreesOfFreedom: Double(k - 1))
    var pooled = PooledEffect(
      persons: k, mu: mu, se: se, lower: mu - t * se, upper: mu + t * se, tau2: tau2,
      predictionLower: nil, predictionUpper: nil, q: q,
      i2: q > 0 ? max(0, (q - Double(k - 1)) / q) : 0, level: level)
    if k >= 3 {
      let tp = StudentDistribution.quantile((1 + level) / 2, degreesOfFreedom: Double(k - 2))
      let half = tp * (tau2 + se * se).squareRoot()
      pooled.predictionLower = mu - half
      pooled.predictionUpper = mu + half
    }
    return pooled
  }

  private static func weightedMean(_ y: [Double], _ w: [Double]) -> Double {
    zip(y, w).reduce(0) { $0 + $1.0 * $1.1 } / w.reduce(0, +)
  }
}
