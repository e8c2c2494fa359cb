#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Robust empirical Bayes confidence intervals (Armstrong, Kolesár & Plagborg-Møller 2022,
/// "Robust Empirical Bayes Confidence Intervals", Econometrica 90(6)), with the second-moment
/// constraint only.
///
/// A shrunken estimate θ̂ = μ + w·(Y − μ), w = μ₂/(μ₂ + σ²), of Y ~ N(θ, σ²) has error
/// w·σ·(Z + b) with normalised bias b = σ·(μ − θ)/μ₂, and E[b²] = t = σ²/μ₂ over the songs. The
/// usual posterior interval assumes θ normal around μ; when most songs do little and a few a lot,
/// the few are pulled too far and their intervals miss. The robust interval θ̂ ± cva(t)·w·σ
/// covers at least 1 − α on average over the songs whatever the shape of θ's distribution, given
/// only E[b²] = t: cva(t) solves ρ(t, χ) = α, where ρ is the largest average non-coverage
/// P(|Z + b| > χ) any distribution of b with E[b²] = t can reach — the least concave majorant in
/// t of r(√t, χ), r(b, χ) = Φ(−χ − b) + Φ(−χ + b).
package enum RobustEBCI {
  /// The probability that |Z + b| exceeds χ, Z standard normal.
  static func nonCoverage(bias b: Double, _ chi: Double) -> Double {
    normalCDF(-chi - b) + normalCDF(-chi + b)
  }

  /// The largest average non-coverage with E[b²] = t: the least concave majorant of
  /// t ↦ r(√t, χ), the sup over u ≥ t of the chord from (0, r(0, χ)) through (u, r(√u, χ))
  /// evaluated at t — a mass t/u at bias √u, the rest at none.
  static func maximalNonCoverage(_ t: Double, _ chi: Double) -> Double {
    let r0 = nonCoverage(bias: 0, chi)
    guard t > 0 else { return r0 }
    func chord(_ b: Double) -> Double {
      let u = b * b
      return r0 + t / u * (nonCoverage(bias: b, chi) - r0)
    }
    // The chord is single-peaked in the bias b = √u: it rises while r climbs steeply (b below
    // about χ) and falls as 1/u once r saturates. Golden-section search on [√t, χ + 8].
    var low = t.squareRoot()
    var high = max(low, chi + 8)
    let ratio = (5.0.squareRoot() - 1) / 2
    var a = high - ratio * (high - low)
    var b = low + ratio * (high - low)
    var fa = chord(a)
    var fb = chord(b)
    for _ in 0..<80 {
      if fa < fb {
        low = a
        a = b
        fa = fb
        b = low + ratio * (high - low)
        fb = chord(b)
      } else {
        high = b
        b = a
        fb = fa
        a = high - ratio * (high - low)
        fa = chord(a)
      }
    }
    return max(nonCoverage(bias: t.squareRoot(), chi), fa, fb)
  }

  /// cva_α(t): the critical value that keeps average non-coverage at most α when the normalised
  /// bias has second moment t. cva(0) is the normal z of 1 − α/2; for large t it grows like
  /// √(t/α), since a share α of the songs could carry all the bias.
  package static func criticalValue(t: Double, alpha: Double = 0.1) -> Double {
    precondition(t >= 0 && alpha > 0 && alpha < 1)
    var low = 0.0
    var high = (t / alpha).squareRoot() + 10
    for _ in 0..<50 {
      let mid = (low + high) / 2
      if maximalNonCoverage(t, mid) > alpha { low = mid } else { high = mid }
    }
    return high
  }

  static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }
}
