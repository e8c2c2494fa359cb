import ResonanceLinear
import ResonanceModel

/// The sums of one reward that make every fold's direct and doubly robust terms without its
/// reward model: what the sweep kernel adds up in its linear mode (`SweepInput.linear`), and
/// how a fold's fits turn them into `EstimatorSums`' slots (`project`).
///
/// The reward model predicts a row linearly (`RewardModel`): q̂(r) = b + β·x(r) + γ·h(d), with
/// x the row's seven components and smoothness and h the decision's one-hot context and need.
/// With π the target's probabilities, w its importance weight and c the chosen row, a measured
/// decision's terms are
///
///     direct = Σ_r π(r)·q̂(r) = b + γ·h + β·x̄,      x̄ = Σ_r π(r)·x(r)
///     DR     = direct + w·(R − q̂(c)) = w·R + (1 − w)·(b + γ·h) + β·(x̄ − w·x(c))
///
/// so a day's sums of them are a dot product of the fit with the day's sums of x̄, w·x(c) and
/// w·h (which depend on the target, not on the model) and its count of each context and need
/// (which depend on neither). One pass of the kernel over the whole history then serves every
/// forward-chaining fold, where a pass per fold over all the months before it grew with the
/// square of the months. The grids of Switch-DR and DRos would need these sums once per
/// threshold; `Tuner` evaluates them fold by fold instead.
///
/// | slot | holds, per measured decision |
/// |---|---|
/// | `EstimatorSums.measured`, `.weightedReward`, `.weight` | 1, w·R, w, as there |
/// | `means + f` | x̄_f, f over the seven components and smoothness |
/// | `chosen + f` | w·x_f(c) |
/// | `oneHot + j` | w·h_j, j over the seven contexts and four needs |
package enum LinearSums {
  /// The continuous features (the seven components and smoothness), `RewardModel`'s first.
  package static let features = 8
  /// The one-hot features, context then need, after them in `RewardModel.featureNames`.
  package static let oneHots = ActivityContext.allCases.count + Need.allCases.count
  /// The first slot of x̄.
  @inline(__always) package static var means: Int { 3 }
  /// The first slot of w·x(c).
  @inline(__always) package static var chosen: Int { means + features }
  /// The first slot of w·h.
  @inline(__always) package static var oneHot: Int { chosen + features }
  /// Slots a reward.
  @inline(__always) package static var stride: Int { oneHot + oneHots }

  /// Decision d's one-hot positions: its context's, then its need's, among the one-hot slots.
  package static func oneHotPositions(_ log: LoggedDecisions, decision d: Int) -> (Int, Int) {
    (
      ActivityContext.allCases.firstIndex(of: log.context[d]) ?? 0,
      ActivityContext.allCases.count + (Need.allCases.firstIndex(of: log.need[d]) ?? 0)
    )
  }

  /// Per group, how many of the decisions with `reward` measured have each context and need
  /// (`oneHots` counts a group): the part of the one-hot sums no target changes.
  package static func oneHotCounts(
    _ log: LoggedDecisions, count: Int, reward: [Double?], group: [Int], groups: Int
  ) -> [Double] {
    var counts = [Double](repeating: 0, count: groups * oneHots)
    for d in 0..<count where reward[d] != nil {
      let (c, n) = oneHotPositions(log, decision: d)
      counts[group[d] * oneHots + c] += 1
      counts[group[d] * oneHots + n] += 1
    }
    return counts
  }

  /// The kernel's linear sums of reward 0 (`linear`, whose groups are days) turned into the
  /// plain sums (`EstimatorSums`' five slots, no grid) of the first `groups` groups, each by
  /// `fit(g)`, the fit that predicts group g's rows; `counts` from `oneHotCounts`.
  ///
  /// - Complexity: O(points × groups × features).
  package static func project(
    _ linear: SweepTotals, groups: Int, counts: [Double], fit: (Int) -> RidgeFit
  ) -> SweepTotals {
    precondition(linear.linear && groups <= linear.groups, "the kernel's linear sums")
    var totals = SweepTotals(points: linear.points, groups: groups, rewards: 1)
    let from = linear.fields
    let to = totals.fields
    let common = SweepTotals.commonFields
    let fits = (0..<groups).map(fit)
    linear.values.withUnsafeBufferPointer { source in
      totals.values.withUnsafeMutableBufferPointer { target in
        for p in 0..<linear.points {
          for g in 0..<groups {
            let s = source.baseAddress! + (p * linear.groups + g) * from
            let t = target.baseAddress! + (p * groups + g) * to
            for f in 0..<common { t[f] = s[f] }
            let u = s + common
            let v = t + common
            let n = u[EstimatorSums.measured]
            let weighted = u[EstimatorSums.weightedReward]
            let w = u[EstimatorSums.weight]
            let b = fits[g].intercept ?? 0
            let beta = fits[g].coefficients
            var direct = n * b
            var robust = weighted + (n - w) * b
            for j in 0..<oneHots {
              let gamma = beta[features + j]
              let count = counts[g * oneHots + j]
              direct += gamma * count
              robust += gamma * (count - u[oneHot + j])
            }
            for f in 0..<features {
              direct += beta[f] * u[means + f]
              robust += beta[f] * (u[means + f] - u[chosen + f])
            }
            v[EstimatorSums.measured] = n
            v[EstimatorSums.weightedReward] = weighted
            v[EstimatorSums.weight] = w
            v[EstimatorSums.direct] = direct
            v[EstimatorSums.doublyRobust] = robust
          }
        }
      }
    }
    return totals
  }
}
