import ResonanceModel

extension Tuner {
  /// The reward models of one forward-chaining fold: fitted on the months before `month`
  /// alone (cross-fitted among them), so that nothing from `month` or later enters the choice
  /// judged on it. A fold keeps its fits, not their predictions: a decade's folds would each
  /// hold a value per candidate row before their month.
  struct FoldModels {
    /// The judged month (an index into the months).
    let month: Int
    /// The decisions before it, as indices into the whole log.
    let selection: [Int]
    /// Per reward: fitted on the log of `selection`, without predictions.
    let models: [RewardModel]

    init(log: LoggedDecisions, monthOf: [Int], month: Int, rewards: [Reward]) throws(TuningError) {
      self.month = month
      selection = (0..<log.count).filter { monthOf[$0] < month }
      let selectionLog = log.chosenRows(selection)
      var models: [RewardModel] = []
      for reward in rewards {
        models.append(try RewardModel.fit(selectionLog, reward: reward, predicts: false))
      }
      self.models = models
    }
  }
}
