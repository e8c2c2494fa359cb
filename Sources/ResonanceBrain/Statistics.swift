/// Small statistics the validation and reports share.
package enum Statistics {
  /// Spearman's rank correlation of two equally long series (average ranks for ties);
  /// `nil` for fewer than three pairs or a constant series.
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

  /// The median of the finite values; nil when there are none.
  package static func median(_ values: [Double]) -> Double? {
    let sorted = values.filter(\.isFinite).sorted()
    guard !sorted.isEmpty else { return nil }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }

  /// 1-based ranks, ties sharing their average rank.
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
}
