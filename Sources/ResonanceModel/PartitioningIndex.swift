extension RandomAccessCollection {
  /// The first index whose element satisfies `belongsInSecondPartition`, by binary search: the
  /// collection must already be partitioned by it (every element for which it is false before
  /// every element for which it is true, as times sorted against a cut-off are); `endIndex` when
  /// none does. The one binary search of the project's sorted time series.
  package func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool)
    rethrows -> Index
  {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let mid = index(low, offsetBy: half)
      if try belongsInSecondPartition(self[mid]) {
        count = half
      } else {
        low = index(after: mid)
        count -= half + 1
      }
    }
    return low
  }
}
