import ResonanceLinear
import ResonanceModel

extension RewardModel {
  /// Per calendar month of a log, the sums a reward model's ridge fits are made of: over the
  /// decisions with the reward measured, DᵀD and Dᵀy of D = [1 | the chosen row's features]
  /// and y the reward, yᵀy and their count. Forward chaining fits a model on the months
  /// before each judged month, cross-fitted among them; from these sums a fold's fits cost
  /// O(months × p³), not a pass over every decision before it (`fit(_:before:penalty:)`).
  package struct MonthSums: Sendable {
    package let reward: Reward
    /// The log's months, in order.
    package let months: [CalendarMonth]
    /// Per month: DᵀD, row-major (p + 1)², Dᵀy, yᵀy and the measured decisions.
    package let gram: [[Double]]
    package let moment: [[Double]]
    package let squares: [Double]
    package let measured: [Int]

    /// The sums of `reward` on `decisions`, month by month (each decision's `CalendarMonth`).
    ///
    /// - Complexity: O(n·p²) for n decisions and p = 19 features.
    package init(_ decisions: LoggedDecisions, reward: Reward) {
      self.reward = reward
      let rewards = reward.values(decisions)
      let monthOf = decisions.time.map(CalendarMonth.init)
      months = Array(Set(monthOf)).sorted()
      let index = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
      let q = featureNames.count + 1
      var rows: [[Int]] = months.map { _ in [] }
      for d in 0..<decisions.count where rewards[d] != nil { rows[index[monthOf[d]]!].append(d) }
      var gram: [[Double]] = []
      var moment: [[Double]] = []
      var squares: [Double] = []
      for month in rows {
        // D and y of the month's measured decisions, and DᵀD, Dᵀy through BLAS as
        // `RidgeRegression` forms them.
        var design = Matrix(rows: month.count, columns: q)
        var y = [Double](repeating: 0, count: month.count)
        for (i, d) in month.enumerated() {
          design[i, 0] = 1
          let x = features(decisions, row: decisions.rowStart[d] + decisions.chosen[d], decision: d)
          for j in 0..<(q - 1) { design[i, j + 1] = x[j] }
          y[i] = rewards[d]!
        }
        gram.append(
          month.isEmpty
            ? .init(repeating: 0, count: q * q)
            : Matrix.gemm(design, design, transposeA: true).elements)
        moment.append(
          month.isEmpty
            ? .init(repeating: 0, count: q)
            : Matrix.gemm(design, .column(y), transposeA: true).elements)
        squares.append(y.reduce(0) { $0 + $1 * $1 })
      }
      self.gram = gram
      self.moment = moment
      self.squares = squares
      measured = rows.map(\.count)
    }
  }

  /// The model `fit(_:reward:penalty:predicts: false)` makes on the decisions of the first
  /// `count` months of `sums` (a prefix of the log's months: the months before a judged one),
  /// from their sums alone: the same fits up to the rounding of the sums.
  ///
  /// - Complexity: O(count² × p²) to add the sums up, O(count × p³) to solve.
  /// - Throws: `TuningError` of kind `noMeasuredReward` when none of those months has the
  ///   reward measured, `fitFailed` when a ridge system is singular.
  package static func fit(_ sums: MonthSums, before count: Int, penalty: Double = defaultPenalty)
    throws(TuningError) -> RewardModel
  {
    precondition(count > 0 && count <= sums.months.count, "a prefix of the months")
    let q = featureNames.count + 1
    let total = sums.measured[..<count].reduce(0, +)
    guard total > 0 else {
      throw TuningError(
        .noMeasuredReward, "no decision has the \(sums.reward.rawValue) reward measured")
    }

    func ridge(_ months: [Int]) throws(TuningError) -> RidgeFit {
      var gram = [Double](repeating: 0, count: q * q)
      var moment = [Double](repeating: 0, count: q)
      var squares = 0.0
      var observations = 0
      for m in months {
        for i in 0..<(q * q) { gram[i] += sums.gram[m][i] }
        for i in 0..<q { moment[i] += sums.moment[m][i] }
        squares += sums.squares[m]
        observations += sums.measured[m]
      }
      let matrix = Matrix(rows: q, columns: q, elements: gram)
      do {
        return try RidgeRegression.fit(
          gram: matrix, moment: moment, squares: squares, observations: observations,
          lambda: penalty)
      } catch .noResidualDegreesOfFreedom {
        do {
          return try RidgeRegression.fit(
            gram: matrix, moment: moment, squares: squares, observations: observations,
            lambda: penalty, noiseVariance: 0)
        } catch {
          throw TuningError(.fitFailed, "reward model: \(error)")
        }
      } catch {
        throw TuningError(.fitFailed, "reward model: \(error)")
      }
    }

    let all = Array(0..<count)
    let pooled = try ridge(all)
    var fits = [RidgeFit]()
    var trainingCounts = [Int]()
    var monthsFittedOnAll = [CalendarMonth]()
    for m in all {
      let others = all.filter { $0 != m }
      let training = others.reduce(0) { $0 + sums.measured[$1] }
      if count > 1, training > 0 {
        fits.append(try ridge(others))
        trainingCounts.append(training)
      } else {
        fits.append(pooled)
        trainingCounts.append(total)
        monthsFittedOnAll.append(sums.months[m])
      }
    }
    return RewardModel(
      reward: sums.reward, penalty: penalty, predictions: [], months: Array(sums.months[..<count]),
      fits: fits, trainingCounts: trainingCounts, pooled: pooled,
      monthsFittedOnAll: monthsFittedOnAll)
  }
}
