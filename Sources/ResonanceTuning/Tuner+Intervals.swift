import ResonanceBrain
import ResonanceModel

/// The intervals of `tune`: paired gains with the day-batch standard error of their days.
extension Tuner {
  /// The paired gain `a − b` with its interval from the day batches of its days
  /// (`pooledInterval`).
  package static func interval(
    _ a: PolicyEstimate, _ b: PolicyEstimate, days: [CalendarDay], level: Double
  ) -> TuningEvidence.Interval {
    precondition(a.decisions == b.decisions, "paired estimates cover the same decisions")
    return pooledInterval([(a, b, days)], level: level)
  }

  /// The pooled paired gain — each estimate's parts (`EstimatorForm`), Σ numerators /
  /// Σ denominators over every judged month, added — of the choices less the same of the
  /// preferences in force, with a two-sided interval at `level`: estimate ± t·se, se the
  /// day-batch standard error of the days' first-order contributions (the delta method's, as
  /// `EstimatorForm.influence` gives them, here part by part because the months' forms may
  /// read different slots; chosen less in force, at the pooled totals; `DayBlocks.spread`, the
  /// judged months its strata) and t Student's quantile at its degrees of freedom. No interval (NaN ends) when no
  /// month spans two days.
  static func pooledInterval(
    _ months: [(chosen: PolicyEstimate, current: PolicyEstimate, days: [CalendarDay])],
    level: Double
  ) -> TuningEvidence.Interval {
    // Each month's estimates may read different slots (Switch-DR's and DRos's parameter is
    // chosen fold by fold), but every one has the same parts: pooled, part by part, each
    // part's numerator and denominator sums run over every month's decisions, kept per day.
    let parts = months.first?.chosen.form.parts.count ?? 0
    var dayList: [CalendarDay] = []
    var dayIndex: [CalendarDay: Int] = [:]
    var chosen: [Double] = []  // per day, per part: numerator, denominator
    var current: [Double] = []
    func add(_ e: PolicyEstimate, position i: Int, day g: Int, to sums: inout [Double]) {
      for (p, part) in e.form.parts.enumerated() {
        sums[(g * parts + p) * 2] +=
          e.terms[part.numerator][i] - (part.less.map { e.terms[$0][i] } ?? 0)
        sums[(g * parts + p) * 2 + 1] += e.terms[part.denominator][i]
      }
    }
    for month in months {
      for (i, day) in month.days.enumerated() {
        let g: Int
        if let known = dayIndex[day] {
          g = known
        } else {
          g = dayList.count
          dayIndex[day] = g
          dayList.append(day)
          chosen += repeatElement(0, count: 2 * parts)
          current += repeatElement(0, count: 2 * parts)
        }
        add(month.chosen, position: i, day: g, to: &chosen)
        add(month.current, position: i, day: g, to: &current)
      }
    }
    // Per part, the totals over every day, and the ratio they give.
    func totals(_ sums: [Double]) -> [(n: Double, d: Double)] {
      (0..<parts).map { p in
        dayList.indices.reduce((0.0, 0.0)) { t, g in
          (t.0 + sums[(g * parts + p) * 2], t.1 + sums[(g * parts + p) * 2 + 1])
        }
      }
    }
    let a = totals(chosen)
    let b = totals(current)
    guard !dayList.isEmpty, (a + b).allSatisfy({ $0.d != 0 }) else {
      return .init(estimate: .nan, lower: .nan, upper: .nan, level: level)
    }
    let estimate =
      a.reduce(0) { $0 + $1.n / $1.d } - b.reduce(0) { $0 + $1.n / $1.d }
    // A day's first-order contribution: Σ parts (nᵍ − V·dᵍ) / D, chosen less in force.
    let influences = dayList.indices.map { g in
      (0..<parts).reduce(0.0) { sum, p in
        let i = (g * parts + p) * 2
        return sum + (chosen[i] - a[p].n / a[p].d * chosen[i + 1]) / a[p].d
          - (current[i] - b[p].n / b[p].d * current[i + 1]) / b[p].d
      }
    }
    let spread = DayBlocks(dayList).spread(Array(dayList.indices), influences)
    guard let half = spread.halfWidth(level: level) else {
      return .init(estimate: estimate, lower: .nan, upper: .nan, level: level)
    }
    return .init(
      estimate: estimate, lower: estimate - half, upper: estimate + half, level: level)
  }
}
