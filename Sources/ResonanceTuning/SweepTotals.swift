import ResonanceLinear
import ResonanceModel

/// Per preference vector and group, the sums every estimate and diagnostic is a ratio of
/// (`SweepTotals.estimate`).
package struct SweepTotals: Sendable {
  /// Sums per (point, group): Σw, Σw², max w, agreements, decisions; then per reward k, from
  /// `commonFields + stride · k`, the reward's `EstimatorSums`.
  package static let commonFields = 5

  package let points: Int
  package let groups: Int
  package let rewards: Int
  /// Whether each reward's sums include the parameter grid of Switch-DR and DRos.
  package let grid: Bool
  /// Whether each reward's sums are the linear ones (`LinearSums`), which make the direct
  /// and doubly robust terms once a reward model's fit is given (`LinearSums.project`).
  package let linear: Bool
  package var values: [Double]

  /// Slots a reward (`EstimatorSums.stride(grid:)`, or `LinearSums.stride`).
  package var stride: Int { Self.stride(grid: grid, linear: linear) }
  package var fields: Int { Self.commonFields + stride * rewards }

  /// Slots a reward of sums with or without the grid, plain or linear.
  package static func stride(grid: Bool, linear: Bool) -> Int {
    linear ? LinearSums.stride : EstimatorSums.stride(grid: grid)
  }

  package init(points: Int, groups: Int, rewards: Int, grid: Bool = false, linear: Bool = false) {
    precondition(!(grid && linear), "the linear sums have no grid")
    self.points = points
    self.groups = groups
    self.rewards = rewards
    self.grid = grid
    self.linear = linear
    values = [Double](
      repeating: 0,
      count: points * groups
        * (Self.commonFields + Self.stride(grid: grid, linear: linear) * rewards))
  }

  /// The sums of `point` over `groups`, field by field (max w is a maximum).
  package func sums(point: Int, groups chosen: some Sequence<Int>) -> [Double] {
    var result = [Double](repeating: 0, count: fields)
    for g in chosen {
      let base = (point * groups + g) * fields
      for f in 0..<fields {
        result[f] = f == 2 ? max(result[f], values[base + f]) : result[f] + values[base + f]
      }
    }
    return result
  }

  /// The field of reward k's slot.
  package func field(reward k: Int, slot: Int) -> Int { Self.commonFields + stride * k + slot }

  /// One point's estimate over `groups` (every group when nil). Switch-DR and DRos take the
  /// value of their grid SLOPE chooses on those groups
  /// (`form(point:reward:estimator:groups:days:)`).
  package func estimate(
    point: Int, reward k: Int, estimator: Estimator, groups chosen: [Int]? = nil,
    days: DayBlocks? = nil
  ) -> SweepEstimate {
    let chosen = chosen ?? Array(0..<groups)
    return estimate(
      point: point, reward: k,
      form: form(point: point, reward: k, estimator: estimator, groups: chosen, days: days),
      groups: chosen)
  }

  /// One point's estimate by `form` over `groups` (every group when nil).
  package func estimate(point: Int, reward k: Int, form: EstimatorForm, groups chosen: [Int]? = nil)
    -> SweepEstimate
  {
    let s = sums(point: point, groups: chosen ?? Array(0..<groups))
    let measured = s[field(reward: k, slot: EstimatorSums.measured)]
    let value = measured > 0 ? form.value { s[field(reward: k, slot: $0)] } : nil
    return SweepEstimate(
      value: value, decisions: Int(s[4]), measured: Int(measured),
      effectiveSampleSize: s[1] > 0 ? s[0] * s[0] / s[1] : 0, largestWeight: s[2],
      agreementShare: s[4] > 0 ? s[3] / s[4] : 0, parameter: form.parameter)
  }

  /// The form `estimator` takes for one point's value over `groups`: for Switch-DR and DRos,
  /// the grid's value SLOPE chooses with each candidate's width 1.645 standard errors from the
  /// groups' influences (`SLOPE.delta`) — summed in day batches, month by month, when the groups are the days
  /// `days` lists (`DayBlocks.standardError`), independent ones otherwise;
  /// the estimator's one form otherwise. Needs the grid's sums and, to choose, more than one
  /// group.
  package func form(
    point: Int, reward k: Int, estimator: Estimator, groups chosen: [Int], days: DayBlocks? = nil
  ) -> EstimatorForm {
    guard estimator.isTuned, chosen.count > 1 else { return EstimatorForm(estimator) }
    precondition(grid, "Switch-DR and DRos need the kernel's parameter grid")
    precondition(days.map { $0.days.count == groups } ?? true, "one day per group")
    let total = sums(point: point, groups: chosen)
    let n = Double(chosen.count)
    let index = SLOPE.parameter(estimator, z: NormalDistribution.quantile(1 - SLOPE.delta)) {
      form in
      let influences = chosen.map { g in
        let base = (point * groups + g) * fields
        return form.influence(
          { values[base + field(reward: k, slot: $0)] },
          total: { total[field(reward: k, slot: $0)] })
      }
      let se =
        days.map { $0.standardError(chosen, influences) }
        ?? (influences.reduce(0) { $0 + $1 * $1 } * n / (n - 1)).squareRoot()
      return (form.value { total[field(reward: k, slot: $0)] }, se)
    }
    return EstimatorForm(estimator, parameter: index)
  }
}

/// One preference vector's estimate from the kernel's sums.
package struct SweepEstimate: Sendable, Equatable {
  package var value: Double?
  package var decisions: Int
  package var measured: Int
  package var effectiveSampleSize: Double
  package var largestWeight: Double
  package var agreementShare: Double
  /// The parameter (τ, λ) the estimate used; nil for the estimators without one.
  package var parameter: Double?
}
