import ResonanceLinear
import ResonanceModel

extension TuningSettings {
  /// Whether forward chaining evaluates the points in one pass over the history
  /// (`Tuner.onePassChoices`): unless the reference is asked for, or the estimator's grid
  /// (Switch-DR, DRos) needs its sums once per threshold.
  var onePass: Bool { !foldByFold && !estimator.isTuned }
}

extension Tuner {
  /// Points the kernel evaluates at once on the one pass: four vector blocks, the preferences
  /// in force and 63 design points, so that two threads share them evenly and the sums of a
  /// decade's days stay tens of megabytes.
  static let pointsPerPass = 4 * SweepKernel.vectorBlock

  /// The rule's choice on every fold, from one pass of the kernel over the decisions `mine`
  /// (indices into `log`) per part of the design, not one per fold over the months before
  /// it: the kernel's linear sums (`LinearSums`) are made once, and each fold's reward model
  /// turns them into that fold's sums (`LinearSums.project`). Keyed by judged month; a fold
  /// whose month holds none of `mine`, or with none of them before it, has no entry.
  ///
  /// What `Stage` finds fold by fold, up to rounding: the days, their months and the rule are
  /// the same, and the points are taken in the same order, each part's choice the bar for the
  /// next.
  ///
  /// - Complexity: O(rows × points) for the passes, and O(points × days before it) a fold.
  static func onePassChoices(
    log: LoggedDecisions, mine: [Int], monthOf: [Int], months: [CalendarMonth],
    folds: [FoldModels], reward: Reward, points: [ScoringWeights], factors: [Double]?,
    settings: TuningSettings, level: Double, passDone: (_ done: Int, _ total: Int) -> Void
  ) -> [Int: Choice] {
    let included = mine.count == log.count ? log : log.subset(mine)
    let monthOfIncluded = mine.map { monthOf[$0] }
    let days = Days(
      included, count: included.count, monthOf: monthOfIncluded, months: months)
    let rewards = (0..<included.count).map { reward.value(included, decision: $0) }
    let counts = LinearSums.oneHotCounts(
      included, count: included.count, reward: rewards, group: days.group,
      groups: days.list.count)
    var judged = [Int](repeating: 0, count: months.count)
    for m in monthOfIncluded { judged[m] += 1 }

    // Per fold judged: the days before its month (a prefix, the days being in order) and
    // the fit that predicts each earlier month's rows.
    struct Fold {
      let month: Int
      let groups: Int
      let fits: [RidgeFit]
    }
    let judgedFolds: [Fold] = folds.compactMap { fold in
      let j = fold.month
      let groups = days.month.firstIndex { $0 >= j } ?? days.list.count
      guard judged[j] > 0, groups > 0 else { return nil }
      let model = fold.models[0]
      let fits = (0..<j).map { m in
        model.months.firstIndex(of: months[m]).map { model.fits[$0] } ?? model.pooled
      }
      return Fold(month: j, groups: groups, fits: fits)
    }
    guard !judgedFolds.isEmpty, points.count > 1 else {
      // Nothing to evaluate: the passes are over before they start.
      passDone(1, 1)
      return [:]
    }

    let input = SweepInput(
      linear: included, rewards: [rewards], group: days.group, groups: days.list.count)
    let perPass = pointsPerPass - 1
    let passes = (points.count - 1 + perPass - 1) / perPass
    var choices: [Int: Choice] = [:]
    for pass in 0..<passes {
      let start = 1 + pass * perPass
      let end = min(start + perPass, points.count)
      let sums = SweepKernel.evaluate(
        input, weights: [points[0]] + points[start..<end],
        temperatureFactors: factors.map { [$0[0]] + $0[start..<end] },
        product: settings.product)
      for fold in judgedFolds {
        let totals = LinearSums.project(sums, groups: fold.groups, counts: counts) { g in
          fold.fits[days.month[g]]
        }
        let stage = Stage(settings: settings, totals: totals, days: days, groups: fold.groups)
        choices[fold.month] = stage.choose(
          months: 0..<fold.month, judged: judged[fold.month], level: level,
          among: 1..<(end - start + 1), index: { start - 1 + $0 }, over: choices[fold.month])
      }
      passDone(pass + 1, passes)
    }
    return choices
  }
}
