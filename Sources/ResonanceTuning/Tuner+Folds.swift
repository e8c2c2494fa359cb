import ResonanceModel

extension Tuner {
  /// The reward models of one forward-chaining fold: fitted on the months before `month`
  /// alone (cross-fitted among them), so that nothing from `month` or later enters the choice
  /// judged on it. A fold keeps its fits, not their predictions: a decade's folds would each
  /// hold a value per candidate row before their month.
  struct FoldModels {
    /// The judged month (an index into the months).
    let month: Int
    /// Per reward: fitted on the months before `month`, without predictions.
    let models: [RewardModel]

    /// From the months' sums (`RewardModel.MonthSums`, one per reward, over the log whose
    /// months `month` counts): each fold's fits without a pass over its decisions.
    init(sums: [RewardModel.MonthSums], month: Int) throws(TuningError) {
      self.month = month
      var models: [RewardModel] = []
      for reward in sums { models.append(try RewardModel.fit(reward, before: month)) }
      self.models = models
    }

    /// Fitted on the decisions themselves: the reference the months' sums are held to.
    init(log: LoggedDecisions, monthOf: [Int], month: Int, rewards: [Reward]) throws(TuningError) {
      self.month = month
      let selectionLog = log.chosenRows((0..<log.count).filter { monthOf[$0] < month })
      var models: [RewardModel] = []
      for reward in rewards {
        models.append(try RewardModel.fit(selectionLog, reward: reward, predicts: false))
      }
      self.models = models
    }
  }
}
