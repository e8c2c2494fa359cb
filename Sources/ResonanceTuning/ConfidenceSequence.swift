import Foundation
import ResonanceLinear
import ResonanceModel

/// A two-sided asymptotic confidence sequence for the mean of independent (or martingale
/// difference) observations: intervals that hold at every sample size at once, so the
/// person may look after every observation and stop when they like without raising the
/// error rate above `alpha` (Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas 2021,
/// "Time-uniform central limit theory and asymptotic confidence sequences", the normal
/// mixture boundary). With n observations, their mean μ̂ and standard deviation σ̂:
///
///     μ̂ ± σ̂ · √( 2(nρ² + 1) / (n²ρ²) · log(√(nρ² + 1) / α) )
///
/// ρ sets the sample size where the sequence is narrowest; `init(alpha:tunedFor:)` picks it
/// for the planned length, ρ² = (2 log(1/α) + log(1 + 2 log(1/α))) / n*. The guarantee is
/// asymptotic, as a t interval's is; `docs/experiments.md` reports its coverage measured on
/// simulated persons.
package struct ConfidenceSequence: Sendable, Equatable, Codable {
  /// The error rate over all sample sizes together.
  package var alpha: Double
  /// The mixture's ρ².
  package var rho2: Double

  package init(alpha: Double, rho2: Double) {
    precondition(alpha > 0 && alpha < 1 && rho2 > 0, "0 < α < 1 and ρ² > 0")
    self.alpha = alpha
    self.rho2 = rho2
  }

  /// The sequence narrowest near `n` observations.
  package init(alpha: Double, tunedFor n: Int) {
    let l = log(1 / alpha)
    self.init(alpha: alpha, rho2: (2 * l + log(1 + 2 * l)) / Double(max(1, n)))
  }

  /// The half-width for n observations of unit standard deviation.
  package func margin(_ n: Int) -> Double {
    let t = Double(n)
    let a = t * rho2 + 1
    return (2 * a / (t * t * rho2) * log(a.squareRoot() / alpha)).squareRoot()
  }

  /// The interval after `values`: nil with fewer than two. With a `prior`, the standard
  /// deviation is the values' own pooled with `prior.sd` as if it came from `prior.weight`
  /// more degrees of freedom — σ̂² = (Σ(x − μ̂)² + w·s₀²)/(n − 1 + w) — which steadies the first
  /// few intervals, where a standard deviation from a handful of values is often far too small,
  /// and weighs less and less as the values come in.
  package func interval(_ values: [Double], prior: (sd: Double, weight: Double)? = nil)
    -> (estimate: Double, lower: Double, upper: Double)?
  {
    let n = values.count
    guard n >= 2 else { return nil }
    let mean = values.reduce(0, +) / Double(n)
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    let w = prior?.weight ?? 0
    let variance = (squares + w * (prior?.sd ?? 0) * (prior?.sd ?? 0)) / (Double(n - 1) + w)
    let half = variance.squareRoot() * margin(n)
    return (mean, mean - half, mean + half)
  }
}

/// How long an experiment must run to show a gain, from the person's own history
/// (`docs/experiments.md`, "How long").
///
/// The outcome's history, a value a day, is cut into cycles of the experiment's length
/// (`ExperimentSchedule.cycleDays`), and each is given `draws` random schedules from the
/// same generator: the spread of the cycle contrasts they give, with no arm doing anything,
/// is the contrast's standard deviation σ_c under this person's day-to-day variation and its
/// persistence from day to day within a cycle. With c cycles, the sequence's half-width is
/// σ_c·margin(c), and the contrast's estimate has standard error σ_c/√c; the experiment has
/// the power `power` to show a gain g when g ≥ σ_c·margin(c) + z_power·σ_c/√c. The cycles
/// needed are the least c for which it holds, the sequence tuned for c itself.
package struct ExperimentPower: Sendable, Equatable {
  /// The days of history used, and those with an outcome.
  package var days: Int
  package var observedDays: Int
  /// The outcome's mean and standard deviation across the observed days, and the lag-1
  /// autocorrelation of the days' deviations from the mean.
  package var mean: Double
  package var dailySD: Double
  package var autocorrelation: Double
  /// The cycles of history the contrast's spread was measured on, and that spread.
  package var historyCycles: Int
  package var contrastSD: Double

  /// The history `outcomes` (a value a day, nil without one) for an experiment of `arms`
  /// arms; nil when the history holds fewer than two whole cycles with outcomes.
  package init?(outcomes: [Double?], arms: Int, draws: Int = 200, seed: UInt64) {
    let observed = outcomes.compactMap { $0 }
    let length = ExperimentSchedule.cycleDays(arms: arms)
    guard observed.count >= 2 else { return nil }
    days = outcomes.count
    observedDays = observed.count
    mean = observed.reduce(0, +) / Double(observed.count)
    let m = mean
    dailySD =
      (observed.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(max(1, observed.count - 1)))
      .squareRoot()
    var products = 0.0
    var squares = 0.0
    for i in outcomes.indices {
      guard let y = outcomes[i] else { continue }
      squares += (y - m) * (y - m)
      if i > 0, let x = outcomes[i - 1] { products += (x - m) * (y - m) }
    }
    autocorrelation = squares > 0 ? products / squares : 0
    // The most recent whole cycles, the history's end aligned with a cycle's.
    let cycles = outcomes.count / length
    let offset = outcomes.count - cycles * length
    var random = SplitMix64(seed: seed, stream: "experiment-power")
    var contrasts: [Double] = []
    var used = 0
    for c in 0..<cycles {
      let window = Array(outcomes[(offset + c * length)..<(offset + (c + 1) * length)])
      var any = false
      for _ in 0..<draws {
        let schedule = ExperimentSchedule.cycle(arms: arms, random: &random)
        for arm in 1..<arms {
          if let contrast = ExperimentSchedule.contrasts(
            window, assignment: schedule, arms: arms, arm: arm)[0]
          {
            contrasts.append(contrast)
            any = true
          }
        }
      }
      if any { used += 1 }
    }
    guard used >= 2 else { return nil }
    historyCycles = used
    // The arms do nothing in the history, so the contrasts' mean is 0 by design: their
    // spread about 0 is the contrast's standard deviation.
    contrastSD = (contrasts.reduce(0) { $0 + $1 * $1 } / Double(contrasts.count)).squareRoot()
  }

  /// The gain detectable with probability `power` after `cycles` cycles, each contrast
  /// tested at `alpha`.
  package func detectable(cycles: Int, alpha: Double, power: Double) -> Double {
    let sequence = ConfidenceSequence(alpha: alpha, tunedFor: cycles)
    return contrastSD
      * (sequence.margin(cycles)
        + NormalDistribution.quantile(power) / Double(cycles).squareRoot())
  }

  /// The least number of cycles, from `ExperimentAnalysis.minimumCycles` up to `limit`, after
  /// which a gain of `gain` is shown with probability `power` at `alpha`; nil when `limit`
  /// cycles are not enough.
  package func cycles(toShow gain: Double, alpha: Double, power: Double, limit: Int) -> Int? {
    let least = ExperimentAnalysis.minimumCycles
    guard gain > 0, limit >= least else { return nil }
    return (least...limit).first { detectable(cycles: $0, alpha: alpha, power: power) <= gain }
  }
}
