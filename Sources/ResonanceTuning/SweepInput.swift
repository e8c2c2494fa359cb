import ResonanceBrain
import ResonanceModel

/// The decision log laid out for evaluating many preference vectors at once
/// (`SweepKernel`): each row's components with the score's signs, the decision's familiarity
/// boost and the transition blend folded in, so that a row's final score under weights w is
/// one dot product plus an offset:
///
///     final[r] = Σₖ folded[r, k]·wₖ + offset[r]
///     folded[r, k] = sₖ·c[r, k]·(k = familiarity ? boost[d] : 1)·(blends[d] ? 0.7 : 1)
///     offset[r] = blends[d] ? 0.3·smoothness[r] : 0
///
/// with sₖ = +1 for the five matches and −1 for the two penalties (`SongScorer.baseScore`,
/// `TransitionController.finalScore`).
package struct SweepInput: Sendable {
  package let decisions: LoggedDecisions
  package let folded: [Double]
  package let offset: [Double]
  /// Per decision: the chosen row (absolute) and its logged propensity.
  package let chosenRow: [Int]
  package let loggedPropensity: [Double]
  /// Per decision: its group (a month, a context), 0 ..< `groups`.
  package let group: [Int]
  package let groups: Int
  /// Per reward: the value per decision (NaN where not measured) and the reward model's
  /// prediction per row.
  package let rewards: [[Double]]
  package let predictions: [[Double]]
  /// Whether the kernel also sums Switch-DR's and DRos's terms over their parameter grid
  /// (`EstimatorSums.stride(grid:)`).
  package let grid: Bool

  /// Lays out `decisions` (which must pass `checkConsistency()`) with the rewards and models
  /// to estimate and each decision's group; with `grid`, for Switch-DR and DRos too.
  package init(
    _ decisions: LoggedDecisions, rewards: [[Double?]], predictions: [[Double]], group: [Int],
    groups: Int, grid: Bool = false
  ) {
    precondition(rewards.count == predictions.count, "one model per reward")
    precondition(group.count == decisions.count, "one group per decision")
    self.decisions = decisions
    let signs: [Double] = [1, 1, 1, 1, 1, -1, -1]
    var folded = [Double](repeating: 0, count: decisions.rows * 7)
    var offset = [Double](repeating: 0, count: decisions.rows)
    var chosenRow = [Int](repeating: 0, count: decisions.count)
    var logged = [Double](repeating: 0, count: decisions.count)
    let share = TransitionController.baseShare
    for d in 0..<decisions.count {
      let blend = decisions.blends[d]
      for r in decisions.rows(of: d) {
        for k in 0..<7 {
          var value = signs[k] * decisions.components[7 * r + k]
          if k == 2 { value *= decisions.familiarityBoost[d] }
          folded[7 * r + k] = blend ? share * value : value
        }
        offset[r] = blend ? (1 - share) * decisions.smoothness[r] : 0
      }
      chosenRow[d] = decisions.rowStart[d] + decisions.chosen[d]
      logged[d] = decisions.propensity[chosenRow[d]]
    }
    self.folded = folded
    self.offset = offset
    self.chosenRow = chosenRow
    self.loggedPropensity = logged
    self.group = group
    self.groups = groups
    self.grid = grid
    self.rewards = rewards.map { $0.map { $0 ?? .nan } }
    self.predictions = predictions
  }
}
