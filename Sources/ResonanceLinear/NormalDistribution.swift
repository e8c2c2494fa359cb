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

/// Student's t distribution's quantiles, from GSL (`gsl_cdf_tdist_Pinv`): the multiplier of a
/// standard error estimated from few independent pieces.
package enum StudentDistribution {
  /// The value below which a t variable with `degreesOfFreedom` (> 0, not necessarily whole)
  /// falls with probability `p`, 0 < p < 1: `quantile(0.95, degreesOfFreedom: 3)` is 2.3534;
  /// infinite degrees of freedom give the normal quantile.
  package static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
    precondition(p > 0 && p < 1, "a t quantile needs 0 < p < 1, got \(p)")
    precondition(nu > 0, "a t quantile needs positive degrees of freedom, got \(nu)")
    return nu.isFinite ? gsl_cdf_tdist_Pinv(p, nu) : gsl_cdf_ugaussian_Pinv(p)
  }
}
