import ResonanceModel

/// Days in calendar order, for uncertainty that respects how a person's days hang together:
/// the DJ's learned penalties and credits, the play counts and the week's rhythm carry from
/// one day into the next, so neighbouring days are not independent draws.
///
/// Both the interval and the standard error treat a run of consecutive calendar days (a
/// **block**, a week long; `length(span:)`) as the unit of independence:
/// - `resample` is the circular block bootstrap (Politis & Romano 1992): lay the span's
///   calendar days on a circle, draw block starts uniformly, take each block's consecutive
///   days, until as many calendar days are drawn as the span has. A day without decisions is
///   drawn like any other and adds nothing.
/// - `longRunSquares` is the Bartlett-weighted sum of products (Newey & West 1987) with the
///   same length: the variance a block bootstrap of that length estimates, in closed form.
/// With a block of one day both reduce to resampling days independently.
package struct DayBlocks: Sendable, Equatable {
  /// The block length when the span allows it: a week, the period of the strongest cycle a
  /// listening history has.
  package static let week = 7

  /// Each group's day, as days since 1970-01-01 (not necessarily sorted).
  package let days: [Int64]

  package init(_ days: [CalendarDay]) { self.days = days.map(\.daysSinceEpoch) }

  /// The block length for `span` calendar days: a week, or a third of the span when that is
  /// shorter (at least one day), so that a resample is made of at least three blocks.
  package static func length(span: Int) -> Int { max(1, min(week, span / 3)) }

  /// The calendar days from the first of `chosen` to the last.
  package func span(_ chosen: [Int]) -> Int { bounds(chosen)?.span ?? 0 }

  /// The first day of `chosen` and the calendar days from it to the last; nil for none.
  private func bounds(_ chosen: [Int]) -> (first: Int64, span: Int)? {
    guard let first = chosen.map({ days[$0] }).min(), let last = chosen.map({ days[$0] }).max()
    else { return nil }
    return (first, Int(last - first) + 1)
  }

  /// Σᵢ Σⱼ (1 − |tᵢ − tⱼ| / L) xᵢ xⱼ over the pairs of `chosen` fewer than L = `length` days
  /// apart (a pair once each way; a group with itself at weight 1): the long-run sum of
  /// squares of the per-group values `x` (aligned with `chosen`). A day with no group counts
  /// as 0, so the weights are those of an evenly spaced daily series and the sum is never
  /// negative.
  package func longRunSquares(_ chosen: [Int], _ x: [Double], length: Int) -> Double {
    precondition(chosen.count == x.count, "one value per chosen group")
    let order = chosen.indices.sorted { days[chosen[$0]] < days[chosen[$1]] }
    var total = 0.0
    for (a, i) in order.enumerated() {
      total += x[i] * x[i]
      var b = a + 1
      while b < order.count {
        let j = order[b]
        let apart = Int(days[chosen[j]] - days[chosen[i]])
        guard apart < length else { break }
        total += 2 * (1 - Double(apart) / Double(length)) * x[i] * x[j]
        b += 1
      }
    }
    return total
  }

  /// The long-run standard error of the sum of `x` over `chosen`, with the block length the
  /// span calls for and the small-sample factor n / (n − 1) of its groups; infinite for fewer
  /// than two groups.
  package func standardError(_ chosen: [Int], _ x: [Double]) -> Double {
    guard chosen.count > 1 else { return .infinity }
    let n = Double(chosen.count)
    let squares = longRunSquares(chosen, x, length: Self.length(span: span(chosen)))
    return (max(0, squares) * n / (n - 1)).squareRoot()
  }

  /// One circular block resample of `chosen`: how many times each of its groups (by position
  /// in `chosen`) is drawn. As many calendar days are drawn as the span has.
  package func resample(_ chosen: [Int], rng: inout SplitMix64) -> [Int] {
    var counts = [Int](repeating: 0, count: chosen.count)
    guard let (first, span) = bounds(chosen) else { return counts }
    var at = [Int](repeating: -1, count: span)
    for (i, g) in chosen.enumerated() { at[Int(days[g] - first)] = i }
    let length = Self.length(span: span)
    var drawn = 0
    while drawn < span {
      let start = Int(rng.next() % UInt64(span))
      for k in 0..<min(length, span - drawn) {
        let i = at[(start + k) % span]
        if i >= 0 { counts[i] += 1 }
      }
      drawn += length
    }
    return counts
  }
}
