import ResonanceModel

/// Per preference vector and group, the sums every estimate and diagnostic is a ratio of
/// (`SweepTotals.estimate`).
package struct SweepTotals: Sendable {
  /// Sums per (point, group): Σw, Σw², max w, agreements, decisions; then per reward k, from
  /// `commonFields + EstimatorSums.stride · k`, the reward's `EstimatorSums`.
  package static let commonFields = 5

  package let points: Int
  package let groups: Int
  package let rewards: Int
  package var values: [Double]

  package var fields: Int { Self.commonFields + EstimatorSums.stride * rewards }

  package init(points: Int, groups: Int, rewards: Int) {
    self.points = points
    self.groups = groups
    self.rewards = rewards
    values = [Double](
      repeating: 0, count: points * groups * (Self.commonFields + EstimatorSums.stride * rewards))
  }

  /// The sums of `point` over `groups`, field by field (max w is a maximum).
  package func sums(point: Int, groups chosen: some Sequence<Int>) -> [Double] {
    var result = [Double](repeating: 0, count: fields)
    for g in chosen {
      let base = (point * groups + g) * fields
      for f in 0..<fields {
        result[f] = f == 2 ? max(result[f], values[base + f]) : result[f] + values[base + f]
      }
    }
    return result
  }

  /// One point's estimate over `groups` (every group when nil).
  package func estimate(
    point: Int, reward k: Int, estimator: Estimator, groups chosen: [Int]? = nil
  ) -> SweepEstimate {
    let s = sums(point: point, groups: chosen ?? Array(0..<groups))
    let base = Self.commonFields + EstimatorSums.stride * k
    let measured = s[base + EstimatorSums.measured]
    let denominator = s[base + EstimatorSums.denominator(estimator)]
    let value: Double? =
      denominator > 0 ? s[base + EstimatorSums.numerator(estimator)] / denominator : nil
    return SweepEstimate(
      value: value, decisions: Int(s[4]), measured: Int(measured),
      effectiveSampleSize: s[1] > 0 ? s[0] * s[0] / s[1] : 0, largestWeight: s[2],
      agreementShare: s[4] > 0 ? s[3] / s[4] : 0)
  }
}

/// One preference vector's estimate from the kernel's sums.
package struct SweepEstimate: Sendable, Equatable {
  package var value: Double?
  package var decisions: Int
  package var measured: Int
  package var effectiveSampleSize: Double
  package var largestWeight: Double
  package var agreementShare: Double
}
