import ResonanceModel

/// Chooses among estimates of one quantity that trade bias for variance — Switch-DR or DRos
/// across their parameter grid — by SLOPE (Su, Srinath & Krishnamurthy 2020), in the form
/// Tucker & Lee (2021) improved and Open Bandit Pipeline uses.
///
/// Each estimate comes with the width of its one-sided interval. Taken from the widest (the
/// least biased) to the narrowest, an estimate is admitted while it lies within its own width
/// plus (√6 − 1) times each admitted one's width of every admitted estimate; the first that
/// does not stops the walk, and the last admitted is chosen. The narrowest estimate whose
/// shift from the unbiased end can be put down to noise wins.
package enum SLOPE {
  /// The constant of the admission test, √6 − 1.
  package static let constant = 6.0.squareRoot() - 1
  /// The one-sided error rate of the widths SLOPE is given where nothing else sets it: a
  /// width is the distance from an estimate to its one-sided 95% bound.
  package static let delta = 0.05

  /// The index of the chosen estimate among `values`, with `widths` the width of each one's
  /// interval (same order). Estimates whose value or width is not finite are passed over;
  /// nil when none is left.
  ///
  /// - Complexity: O(n²) for n estimates.
  package static func choose(values: [Double], widths: [Double]) -> Int? {
    precondition(values.count == widths.count, "one width per value")
    let usable = values.indices.filter { values[$0].isFinite && widths[$0].isFinite }
    // Widest first; ties keep the grid's order (its less biased end first).
    let order = usable.sorted { widths[$0] > widths[$1] || (widths[$0] == widths[$1] && $0 < $1) }
    var admitted: [Int] = []
    for i in order {
      let fits = admitted.allSatisfy { j in
        abs(values[j] - values[i]) <= widths[i] + constant * widths[j]
      }
      guard fits else { break }
      admitted.append(i)
    }
    return admitted.last
  }

  /// The index in `estimator`'s parameter grid (`EstimatorSums.parameters`) SLOPE chooses,
  /// from each grid form's value and standard error (`estimate`), each width z·se; 0 (∞, DR
  /// itself) when no candidate is usable. Only for the estimators with a grid.
  package static func parameter(
    _ estimator: Estimator, z: Double,
    estimate: (EstimatorForm) -> (value: Double?, se: Double)
  ) -> Int {
    let candidates = EstimatorSums.parameters(estimator).indices.map {
      estimate(EstimatorForm(estimator, parameter: $0))
    }
    return choose(
      values: candidates.map { $0.value ?? .nan }, widths: candidates.map { z * $0.se }) ?? 0
  }
}
