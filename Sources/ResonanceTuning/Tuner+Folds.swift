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

    /// Every reward's predictions for the rows of `decisions` (indices into the whole log, all
    /// before the judged month), in their order: each row by the fit of its own month, as
    /// the model fitted on the selection would have predicted it.
    func predictions(_ decisions: [Int], of log: LoggedDecisions) -> [[Double]] {
      models.map { model in
        let fitOf = Dictionary(uniqueKeysWithValues: model.months.enumerated().map { ($1, $0) })
        var values: [Double] = []
        values.reserveCapacity(decisions.reduce(0) { $0 + log.rows(of: $1).count })
        for d in decisions {
          let fit = model.fits[fitOf[CalendarMonth(log.time[d])]!]
          for r in log.rows(of: d) {
            values.append(fit.predict(RewardModel.features(log, row: r, decision: d)))
          }
        }
        return values
      }
    }
  }
}
