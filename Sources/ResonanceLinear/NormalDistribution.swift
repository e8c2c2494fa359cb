internal import CGSL

/// The standard normal distribution's quantiles, from GSL (`gsl_cdf_ugaussian_Pinv`).
package enum NormalDistribution {
  /// The value below which a standard normal variable falls with probability `p`, for `p`
  /// strictly between 0 and 1: `quantile(0.95)` is 1.6449, `quantile(0.975)` 1.9600.
  package static func quantile(_ p: Double) -> Double {
    precondition(p > 0 && p < 1, "a normal quantile needs 0 < p < 1, got \(p)")
    return gsl_cdf_ugaussian_Pinv(p)
  }
}
