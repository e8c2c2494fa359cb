import ResonanceBrain
import ResonanceModel

/// The decision log laid out for evaluating many preference vectors at once
/// (`SweepKernel`): a row's final score under weights w is one dot product plus an offset,
///
///     final[r] = Σₖ folded[r, k]·wₖ + offset[r]
///     folded[r, k] = sₖ·c[r, k]·(k = familiarity ? boost[d] : 1)·(blends[d] ? 0.7 : 1)
///     offset[r] = blends[d] ? 0.3·smoothness[r] : 0
///
/// with sₖ = +1 for the five matches and −1 for the two penalties (`SongScorer.baseScore`,
/// `TransitionController.finalScore`). The folded values are computed from the log's
/// components where they are read (`folded(row:component:decision:)`), never stored: a copy
/// would be another 64 bytes a candidate row, and a decade's log has tens of millions.
///
/// The input may cover the first `count` decisions of a longer log, so that the months before
/// a judged month are evaluated without copying them out of the whole history.
package struct SweepInput: Sendable {
  package let decisions: LoggedDecisions
  /// Decisions evaluated: the first `count` of `decisions`.
  package let count: Int
  /// Per decision: the chosen row (absolute) and its logged propensity.
  package let chosenRow: [Int]
  package let loggedPropensity: [Double]
  /// Per decision: its group (a month, a context), 0 ..< `groups`.
  package let group: [Int]
  package let groups: Int
  /// Per reward: the value per decision (NaN where not measured).
  package let rewards: [[Double]]
  /// The reward models' predictions row by row, one value per reward:
  /// `predictions[r * rewards.count + k]` for reward k.
  package let predictions: [Double]
  /// Whether the kernel also sums Switch-DR's and DRos's terms over their parameter grid
  /// (`EstimatorSums.stride(grid:)`).
  package let grid: Bool
  /// Whether the kernel sums the reward models' features in place of their predictions
  /// (`LinearSums`; `predictions` is then empty).
  package let linear: Bool

  /// The score's signs, in `ScoringWeights`' order: the five matches add, the two penalties
  /// subtract.
  static let signs: [Double] = [1, 1, 1, 1, 1, -1, -1]

  /// Lays out the first `count` decisions of `decisions` (all of them when nil; the log must
  /// pass `checkConsistency()`) with the rewards and models to estimate and each decision's
  /// group, all given for those decisions and their rows only; with `grid`, for Switch-DR
  /// and DRos too.
  package init(
    _ decisions: LoggedDecisions, count: Int? = nil, rewards: [[Double?]],
    predictions: [[Double]], group: [Int], groups: Int, grid: Bool = false
  ) {
    let count = count ?? decisions.count
    precondition(rewards.count == predictions.count, "one model per reward")
    let rows = decisions.rowStart[count]
    let models = predictions.count
    var interleaved = [Double](repeating: 0, count: models * rows)
    for k in 0..<models {
      precondition(predictions[k].count == rows, "one prediction per row")
      for r in 0..<rows { interleaved[r * models + k] = predictions[k][r] }
    }
    self.init(
      decisions, count: count, rewards: rewards, interleaved: interleaved, group: group,
      groups: groups, grid: grid)
  }

  /// Lays out the first `count` decisions of `decisions` (all of them when nil) with the
  /// rewards to estimate, each predicted row by row by its model (`RewardModel.predict`:
  /// the fit of the decision's month, the pooled fit for a month the model was not fitted
  /// on), without a copy of the predictions per model.
  package init(
    _ decisions: LoggedDecisions, count: Int? = nil, rewards: [[Double?]],
    models: [RewardModel], group: [Int], groups: Int, grid: Bool = false
  ) {
    let count = count ?? decisions.count
    let rows = decisions.rowStart[count]
    let k = models.count
    var interleaved = [Double](repeating: 0, count: k * rows)
    for (m, model) in models.enumerated() {
      let fitOf = Dictionary(uniqueKeysWithValues: model.months.enumerated().map { ($1, $0) })
      for d in 0..<count {
        let fit = fitOf[CalendarMonth(decisions.time[d])].map { model.fits[$0] } ?? model.pooled
        for r in decisions.rows(of: d) {
          interleaved[r * k + m] = fit.predict(RewardModel.features(decisions, row: r, decision: d))
        }
      }
    }
    self.init(
      decisions, count: count, rewards: rewards, interleaved: interleaved, group: group,
      groups: groups, grid: grid)
  }

  /// Lays out the first `count` decisions of `decisions` (all of them when nil) with the
  /// rewards to estimate, for the kernel's linear sums (`LinearSums`): no reward model yet,
  /// the features it will weigh instead.
  package init(
    linear decisions: LoggedDecisions, count: Int? = nil, rewards: [[Double?]], group: [Int],
    groups: Int
  ) {
    self.init(
      decisions, count: count ?? decisions.count, rewards: rewards, interleaved: [],
      group: group, groups: groups, grid: false, linear: true)
  }

  private init(
    _ decisions: LoggedDecisions, count: Int, rewards: [[Double?]], interleaved: [Double],
    group: [Int], groups: Int, grid: Bool, linear: Bool = false
  ) {
    precondition(count <= decisions.count, "a prefix of the log")
    precondition(group.count == count, "one group per decision")
    self.decisions = decisions
    self.count = count
    var chosenRow = [Int](repeating: 0, count: count)
    var logged = [Double](repeating: 0, count: count)
    for d in 0..<count {
      chosenRow[d] = decisions.rowStart[d] + decisions.chosen[d]
      logged[d] = decisions.propensity[chosenRow[d]]
    }
    self.chosenRow = chosenRow
    self.loggedPropensity = logged
    self.group = group
    self.groups = groups
    self.grid = grid
    self.linear = linear
    self.rewards = rewards.map { $0.map { $0 ?? .nan } }
    self.predictions = interleaved
  }

  /// Candidate rows of the decisions evaluated.
  package var rows: Int { decisions.rowStart[count] }

  /// `folded[r, k]` of row `r`, which belongs to decision `d`.
  @inline(__always)
  package func folded(row r: Int, component k: Int, decision d: Int) -> Double {
    Self.folded(
      decisions.components[7 * r + k], component: k, boost: decisions.familiarityBoost[d],
      blends: decisions.blends[d])
  }

  /// `offset[r]` of row `r`, which belongs to decision `d`.
  @inline(__always)
  package func offset(row r: Int, decision d: Int) -> Double {
    Self.offset(smoothness: decisions.smoothness[r], blends: decisions.blends[d])
  }

  /// A component value folded with its sign, the decision's familiarity boost and the
  /// transition blend's share.
  @inline(__always)
  static func folded(_ value: Double, component k: Int, boost: Double, blends: Bool) -> Double {
    var v = signs[k] * value
    if k == 2 { v *= boost }
    return blends ? TransitionController.baseShare * v : v
  }

  /// A row's offset: the transition blend's share of its smoothness, 0 without a blend.
  @inline(__always)
  static func offset(smoothness: Double, blends: Bool) -> Double {
    blends ? (1 - TransitionController.baseShare) * smoothness : 0
  }
}
