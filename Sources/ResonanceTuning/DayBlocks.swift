import ResonanceLinear
import ResonanceModel

/// Days in calendar order, for uncertainty that respects how a person's days hang together.
/// - `spread` is the **day-batch** standard error of a sum over days, the one every interval of
///   `tune` uses: each calendar month is a stratum, each calendar day from the month's first
///   day with a group to its last is one observation (its groups' sum of x), and the variance
///   is the months' sample variances of those day sums added, with Welch–Satterthwaite degrees
///   of freedom. It is valid for the sums `tune` forms because their errors are martingale
///   differences: the judged month's preferences and reward model are fixed before it, and the
///   propensities are the log's own, so each decision's error has mean zero given everything
///   before it, whatever the DJ carried over from earlier days. The errors of a time series
///   whose noise itself persists across days are not: for those it is too narrow (the tests
///   show by how much), and `docs/tuning.md` says why `tune`'s are not of that kind.
/// - `resample` is the circular block bootstrap (Politis & Romano 1992) that `sweep
///   --intervals` uses for its exploratory view of a whole log: lay the span's calendar days on
///   a circle, draw block starts uniformly, take each block's consecutive days, until as many
///   calendar days are drawn as the span has. A day without decisions is drawn like any other
///   and adds nothing.
package struct DayBlocks: Sendable, Equatable {
  /// The bootstrap's block length when the span allows it: a week, the period of the strongest
  /// cycle a listening history has.
  package static let week = 7

  /// Each group's day, as days since 1970-01-01 (not necessarily sorted).
  package let days: [Int64]

  package init(_ days: [CalendarDay]) { self.days = days.map(\.daysSinceEpoch) }

  /// The block length for `span` calendar days: a week, or a third of the span when that is
  /// shorter (at least one day), so that a resample is made of at least three blocks.
  package static func length(span: Int) -> Int { max(1, min(week, span / 3)) }

  /// The first day of `chosen` and the calendar days from it to the last; nil for none.
  private func bounds(_ chosen: [Int]) -> (first: Int64, span: Int)? {
    guard let first = chosen.map({ days[$0] }).min(), let last = chosen.map({ days[$0] }).max()
    else { return nil }
    return (first, Int(last - first) + 1)
  }

  /// A standard error with the degrees of freedom its variance estimate has.
  package struct Spread: Sendable, Equatable {
    /// Infinite when no month has two batches.
    package var standardError: Double
    /// Welch–Satterthwaite's: (Σ Vₘ)² / Σ Vₘ² / (bₘ − 1) over the months' variances Vₘ and
    /// batch (day) counts bₘ; 0 when no month has two.
    package var degreesOfFreedom: Double

    /// The half-width of a two-sided interval at `level`: t at 1 − (1 − level)/2 times the
    /// standard error; nil without one.
    package func halfWidth(level: Double) -> Double? {
      guard standardError.isFinite, degreesOfFreedom > 0 else { return nil }
      return StudentDistribution.quantile(1 - (1 - level) / 2, degreesOfFreedom: degreesOfFreedom)
        * standardError
    }

    /// The distance below an estimate of its one-sided lower bound at `level`; infinite
    /// without a standard error.
    package func lowerDistance(level: Double) -> Double {
      guard standardError.isFinite, degreesOfFreedom > 0 else { return .infinity }
      return StudentDistribution.quantile(level, degreesOfFreedom: degreesOfFreedom)
        * standardError
    }
  }

  /// How many batches a month's `span` calendar days (first day with a group to last) are cut
  /// into: one a day; none for a single day, which says nothing about its own spread.
  package static func batches(span: Int) -> Int { span < 2 ? 0 : span }

  /// The day-batch standard error of Σ `x` over `chosen` (`x` aligned with `chosen`). Each
  /// calendar month of the chosen days is a stratum of b = `batches(span:)` days, its first
  /// day with a group to its last; with Sₖ a day's sum of x and S̄ their mean, the month's
  /// variance is Vₘ = b/(b − 1) · Σₖ (Sₖ − S̄)², and the sum's is Σ Vₘ. A day with no chosen
  /// group counts as a sum of 0; a month with one day adds nothing.
  package func spread(_ chosen: [Int], _ x: [Double]) -> Spread {
    precondition(chosen.count == x.count, "one value per chosen group")
    var months: [CalendarMonth: [Int]] = [:]  // positions in chosen
    for (i, g) in chosen.enumerated() {
      let date = Timestamp.civil(fromDays: days[g])
      months[CalendarMonth(year: date.year, month: date.month), default: []].append(i)
    }
    var variance = 0.0
    var squares = 0.0  // Σ Vₘ² / (bₘ − 1)
    var dof = 0  // Σ (bₘ − 1), for a variance of 0
    for key in months.keys.sorted() {
      let positions = months[key]!
      let first = positions.map { days[chosen[$0]] }.min()!
      let span = Int(positions.map { days[chosen[$0]] }.max()! - first) + 1
      let b = Self.batches(span: span)
      guard b >= 2 else { continue }
      var sums = [Double](repeating: 0, count: b)
      for i in positions { sums[Int(days[chosen[i]] - first)] += x[i] }
      let mean = sums.reduce(0, +) / Double(b)
      let v = sums.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } * Double(b) / Double(b - 1)
      variance += v
      squares += v * v / Double(b - 1)
      dof += b - 1
    }
    guard dof > 0 else { return Spread(standardError: .infinity, degreesOfFreedom: 0) }
    return Spread(
      standardError: variance.squareRoot(),
      degreesOfFreedom: squares > 0 ? variance * variance / squares : Double(dof))
  }

  /// `spread`'s standard error alone.
  package func standardError(_ chosen: [Int], _ x: [Double]) -> Double {
    spread(chosen, x).standardError
  }

  /// One circular block resample of `chosen`: how many times each of its groups (by position
  /// in `chosen`) is drawn. As many calendar days are drawn as the span has.
  package func resample(_ chosen: [Int], rng: inout SplitMix64) -> [Int] {
    var counts = [Int](repeating: 0, count: chosen.count)
    guard let (first, span) = bounds(chosen) else { return counts }
    var at = [Int](repeating: -1, count: span)
    for (i, g) in chosen.enumerated() { at[Int(days[g] - first)] = i }
    let length = Self.length(span: span)
    var drawn = 0
    while drawn < span {
      let start = Int(rng.next() % UInt64(span))
      for k in 0..<min(length, span - drawn) {
        let i = at[(start + k) % span]
        if i >= 0 { counts[i] += 1 }
      }
      drawn += length
    }
    return counts
  }
}
