import ResonanceLinear
import ResonanceModel

/// A ridge regression that predicts a decision's reward from a candidate row's features,
/// cross-fitted by month: the direct method's and the doubly robust estimator's model of what
/// any candidate would have earned.
///
/// Features of row r in decision d (`featureNames`, 19 of them): the seven components, the
/// row's smoothness, and one-hot context (7) and need (4). The fit is
/// `RidgeRegression.fit(X:y:lambda:)` over the decisions whose reward was measured, one row
/// each (the chosen row's features, the decision's reward), with an unpenalised intercept
/// and penalty λ (`defaultPenalty`, 1) on every feature; the one-hot columns are collinear
/// with the intercept, which the penalty resolves.
///
/// **Cross-fitting.** The model that predicts the rows of month m (`CalendarMonth`, the local
/// month) is fitted on the other months' decisions only, so no decision's own outcome enters
/// its prediction. A month whose other months hold no measured reward is predicted by the fit
/// on every month (`monthsFittedOnAll`). With one month only there are no other months: the
/// model is fitted on all of it and says so (`isCrossFitted` false).
package struct RewardModel: Sendable {
  /// The feature names, in column order.
  package static let featureNames: [String] =
    ScoringComponents.componentNames + ["smoothness"]
    + ActivityContext.allCases.map { "context_\($0.rawValue)" }
    + Need.allCases.map { "need_\($0.rawValue)" }
  /// The ridge penalty on every feature when none is given.
  package static let defaultPenalty = 1.0

  /// The reward modelled.
  package let reward: Reward
  /// The ridge penalty used.
  package let penalty: Double
  /// Per row of the log it was fitted on: the predicted reward of choosing that row (from
  /// the model of the row's month).
  package let predictions: [Double]
  /// The log's months, in order.
  package let months: [CalendarMonth]
  /// Per month (parallel to `months`): the fit that predicts its rows.
  package let fits: [RidgeFit]
  /// Per month (parallel to `months`): how many measured decisions that fit used.
  package let trainingCounts: [Int]
  /// The fit on every month's measured decisions (what a month outside the log would use).
  package let pooled: RidgeFit
  /// Whether every month's rows are predicted by a fit without that month's decisions: false
  /// with a single month, or when some month had to use the pooled fit.
  package var isCrossFitted: Bool { months.count > 1 && monthsFittedOnAll.isEmpty }
  /// The months predicted by the pooled fit because their other months have no measured
  /// reward (every month when the log spans only one).
  package let monthsFittedOnAll: [CalendarMonth]

  /// The features of row `r` of decision `d`, in `featureNames`' order.
  ///
  /// - Complexity: O(1).
  package static func features(_ decisions: LoggedDecisions, row r: Int, decision d: Int)
    -> [Double]
  {
    var x = [Double](repeating: 0, count: featureNames.count)
    for k in 0..<7 { x[k] = decisions.components[7 * r + k] }
    x[7] = decisions.smoothness[r]
    let contextIndex = ActivityContext.allCases.firstIndex(of: decisions.context[d]) ?? 0
    let needIndex = Need.allCases.firstIndex(of: decisions.need[d]) ?? 0
    x[8 + contextIndex] = 1
    x[8 + ActivityContext.allCases.count + needIndex] = 1
    return x
  }

  /// Fits the month-by-month models of `reward` on `decisions` and predicts every row.
  ///
  /// - Complexity: O(M·n·p² + rows·p) for M months, n measured decisions and p = 19 features.
  /// - Parameters:
  ///   - decisions: a log that passes `checkConsistency()`.
  ///   - reward: what to predict.
  ///   - penalty: the ridge penalty λ ≥ 0 on every feature (the intercept is unpenalised).
  ///   - predicts: whether to predict every row now (`predictions`); without, `predictions`
  ///     is empty and the fits predict a row when it is needed (`predict(_:row:decision:)`,
  ///     `SweepInput`), so that models kept for many folds do not each hold a value per row.
  /// - Throws: `TuningError` of kind `noMeasuredReward` when no decision has the reward
  ///   measured, `fitFailed` when a ridge system is singular (possible only with λ = 0).
  package static func fit(
    _ decisions: LoggedDecisions, reward: Reward, penalty: Double = defaultPenalty,
    predicts: Bool = true
  ) throws(TuningError) -> RewardModel {
    let rewards = reward.values(decisions)
    let monthOf = decisions.time.map(CalendarMonth.init)
    let months = Array(Set(monthOf)).sorted()
    let measured = (0..<decisions.count).filter { rewards[$0] != nil }
    guard !measured.isEmpty else {
      throw TuningError(.noMeasuredReward, "no decision has the \(reward.rawValue) reward measured")
    }

    func ridge(_ training: [Int]) throws(TuningError) -> RidgeFit {
      let p = featureNames.count
      var elements = [Double]()
      elements.reserveCapacity(training.count * p)
      var y = [Double]()
      y.reserveCapacity(training.count)
      for d in training {
        let r = decisions.rowStart[d] + decisions.chosen[d]
        elements += features(decisions, row: r, decision: d)
        y.append(rewards[d]!)
      }
      let x = Matrix(rows: training.count, columns: p, elements: elements)
      do {
        return try RidgeRegression.fit(X: x, y: y, lambda: penalty)
      } catch .noResidualDegreesOfFreedom {
        // Too few decisions to estimate σ²; the predictions do not need it.
        do {
          return try RidgeRegression.fit(X: x, y: y, lambda: penalty, noiseVariance: 0)
        } catch {
          throw TuningError(.fitFailed, "reward model: \(error)")
        }
      } catch {
        throw TuningError(.fitFailed, "reward model: \(error)")
      }
    }

    let pooled = try ridge(measured)
    var fits = [RidgeFit]()
    var trainingCounts = [Int]()
    var monthsFittedOnAll = [CalendarMonth]()
    for month in months {
      let training = measured.filter { monthOf[$0] != month }
      if months.count > 1, !training.isEmpty {
        fits.append(try ridge(training))
        trainingCounts.append(training.count)
      } else {
        fits.append(pooled)
        trainingCounts.append(measured.count)
        monthsFittedOnAll.append(month)
      }
    }

    let monthIndex = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
    var predictions = [Double](repeating: 0, count: predicts ? decisions.rows : 0)
    for d in 0..<decisions.count where predicts {
      let fit = fits[monthIndex[monthOf[d]]!]
      for r in decisions.rows(of: d) {
        predictions[r] = fit.predict(features(decisions, row: r, decision: d))
      }
    }
    return RewardModel(
      reward: reward, penalty: penalty, predictions: predictions, months: months, fits: fits,
      trainingCounts: trainingCounts, pooled: pooled, monthsFittedOnAll: monthsFittedOnAll)
  }

  /// The predicted reward of row `r` of decision `d` in another log (or this one): by the
  /// fit of the decision's month when it is one of `months`, else by the pooled fit.
  ///
  /// - Complexity: O(months) to find the month, O(p) to predict.
  package func predict(_ decisions: LoggedDecisions, row r: Int, decision d: Int) -> Double {
    let month = CalendarMonth(decisions.time[d])
    let fit = months.firstIndex(of: month).map { fits[$0] } ?? pooled
    return fit.predict(Self.features(decisions, row: r, decision: d))
  }
}

extension RewardModel {
  /// The same fits predicting the rows of another log: rows of a month this model was fitted
  /// on by that month's fit, any other month's (a held-out month) by the pooled fit, so no
  /// decision of a month outside the fit enters its own prediction.
  ///
  /// - Complexity: O(rows·p).
  package func predicting(_ other: LoggedDecisions) -> RewardModel {
    var predictions = [Double](repeating: 0, count: other.rows)
    for d in 0..<other.count {
      for r in other.rows(of: d) { predictions[r] = predict(other, row: r, decision: d) }
    }
    return RewardModel(
      reward: reward, penalty: penalty, predictions: predictions, months: months, fits: fits,
      trainingCounts: trainingCounts, pooled: pooled, monthsFittedOnAll: monthsFittedOnAll)
  }
}
