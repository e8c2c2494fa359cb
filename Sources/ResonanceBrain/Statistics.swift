import ResonanceModel

/// Small statistics the analyses, the validation and the reports share.
package enum Statistics {
  /// Spearman's rank correlation of two equally long series: Pearson's correlation of their
  /// ranks, tied values sharing their average rank.
  ///
  /// ```swift
  /// Statistics.spearman([1, 2, 3, 4], [10, 30, 20, 40])   // 0.8
  /// ```
  ///
  /// The result is in −1…1; `nil` for fewer than three pairs or when either series is constant.
  /// NaN is not ordered against other values: it still gets a rank of its own (`ranks(_:)`), so
  /// the result stays a finite number, but one that says little; callers pass finite values.
  ///
  /// - Complexity: O(*n* log *n*).
  /// - Parameters:
  ///   - x: The first series.
  ///   - y: The second series; it must be as long as `x` (a programmer error otherwise).
  /// - Returns: The correlation, or `nil` as above.
  package static func spearman(_ x: [Double], _ y: [Double]) -> Double? {
    precondition(x.count == y.count, "paired series")
    guard x.count >= 3 else { return nil }
    let a = ranks(x)
    let b = ranks(y)
    let ma = a.reduce(0, +) / Double(a.count)
    let mb = b.reduce(0, +) / Double(b.count)
    let covariance = zip(a, b).reduce(0) { $0 + ($1.0 - ma) * ($1.1 - mb) }
    let va = a.reduce(0) { $0 + ($1 - ma) * ($1 - ma) }
    let vb = b.reduce(0) { $0 + ($1 - mb) * ($1 - mb) }
    guard va > 0, vb > 0 else { return nil }
    return covariance / (va * vb).squareRoot()
  }

  /// The median of the finite values (NaN and infinities are left out).
  ///
  /// ```swift
  /// Statistics.median([3, .nan, 1, 2, 10])   // 2.5
  /// ```
  ///
  /// - Complexity: O(*n* log *n*).
  /// - Returns: The middle value, or the mean of the two middle ones for an even count; `nil`
  ///   when there is no finite value.
  package static func median(_ values: [Double]) -> Double? {
    let sorted = values.filter(\.isFinite).sorted()
    guard !sorted.isEmpty else { return nil }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }

  /// The q-quantile of sorted values, interpolated linearly between order statistics (type 7,
  /// NumPy's default); NaN for no values.
  package static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let position = q * Double(sorted.count - 1)
    let i = Int(position.rounded(.down))
    let j = min(sorted.count - 1, i + 1)
    return sorted[i] + (position - Double(i)) * (sorted[j] - sorted[i])
  }

  /// The mean and the sample standard deviation (n − 1); the SD is 0 for fewer than two
  /// values, and both are 0 for none.
  package static func meanAndSD(_ values: [Double]) -> (mean: Double, sd: Double) {
    guard values.count > 1 else { return (values.first ?? 0, 0) }
    let n = Double(values.count)
    let mean = values.reduce(0, +) / n
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
    return (mean, variance.squareRoot())
  }

  /// The mean of the values present; nil when none is.
  package static func mean(_ values: [Double?]) -> Double? {
    let present = values.compactMap { $0 }
    return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
  }

  /// The 1-based ranks of the values, tied values sharing their average rank.
  ///
  /// ```swift
  /// Statistics.ranks([30, 10, 30, 20])   // [3.5, 1, 3.5, 2]
  /// ```
  ///
  /// NaN equals nothing, so it never shares a rank; where it lands among the others depends on
  /// the sort (it is never NaN itself).
  ///
  /// - Complexity: O(*n* log *n*).
  /// - Returns: One rank per value, in the values' order; empty for no values.
  package static func ranks(_ v: [Double]) -> [Double] {
    let order = v.indices.sorted { v[$0] < v[$1] }
    var r = [Double](repeating: 0, count: v.count)
    var i = 0
    while i < order.count {
      var j = i
      while j + 1 < order.count && v[order[j + 1]] == v[order[i]] { j += 1 }
      for k in i...j { r[order[k]] = Double(i + j) / 2 + 1 }
      i = j + 1
    }
    return r
  }

  /// How many distinct minutes hold a reading in [`from`, `to`): minutes counted from `from`
  /// (a reading at `from + 59 s` and one at `from + 61 s` are two minutes).
  ///
  /// ```swift
  /// Statistics.measuredMinutes([0, 30_000, 60_000, 200_000], from: 0, to: 120_000)   // 2
  /// ```
  ///
  /// This is how much of a play a signal measured, as the song-response fit sees it.
  ///
  /// - Complexity: O(log *n* + *k*) for *k* readings in the span.
  /// - Parameters:
  ///   - times: Reading times, UTC milliseconds, sorted ascending.
  ///   - from: The span's start, UTC milliseconds, included.
  ///   - to: The span's end, UTC milliseconds, excluded.
  /// - Returns: The count, 0 for an empty or reversed span.
  package static func measuredMinutes(_ times: [Int64], from: Int64, to: Int64) -> Int {
    var minutes = 0
    var last = Int64.min
    var i = times.partitioningIndex { $0 >= from }
    while i < times.count, times[i] < to {
      let minute = (times[i] - from) / 60_000
      if minute != last {
        minutes += 1
        last = minute
      }
      i += 1
    }
    return minutes
  }
}
