import Testing

@testable import ResonanceBrain

@Suite("Statistics")
struct StatisticsTests {
  static func isClose(_ a: Double?, _ b: Double, tolerance: Double = 1e-12) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance * max(1, abs(b))
  }

  @Test("Spearman of a hand-worked example: one swapped pair of four is 1 − 6·2/(4·15) = 0.8")
  func spearmanHandWorked() {
    #expect(Self.isClose(Statistics.spearman([1, 2, 3, 4], [10, 30, 20, 40]), 0.8))
    #expect(Self.isClose(Statistics.spearman([1, 2, 3, 4, 5], [2, 4, 8, 16, 32]), 1))
    #expect(Self.isClose(Statistics.spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]), -1))
  }

  @Test("Spearman with ties uses average ranks: [1, 2, 2, 3] against 1…4 is 3/√10")
  func spearmanTies() {
    // Ranks [1, 2.5, 2.5, 4] against [1, 2, 3, 4]: covariance 4.5, variances 4.5 and 5.
    #expect(Self.isClose(Statistics.spearman([1, 2, 2, 3], [1, 2, 3, 4]), 3 / 10.0.squareRoot()))
  }

  @Test("Spearman is nil for no pairs, fewer than three pairs, and a constant series")
  func spearmanUndefined() {
    #expect(Statistics.spearman([], []) == nil)
    #expect(Statistics.spearman([1], [2]) == nil)
    #expect(Statistics.spearman([1, 2], [2, 1]) == nil)
    #expect(Statistics.spearman([3, 3, 3, 3], [1, 2, 3, 4]) == nil)
    #expect(Statistics.spearman([1, 2, 3, 4], [7, 7, 7, 7]) == nil)
    #expect(Statistics.spearman([1, 2, 3], [3, 1, 2]) != nil)
  }

  @Test("a NaN gets a rank of its own, so Spearman stays a finite number")
  func spearmanNaN() throws {
    let rho = try #require(Statistics.spearman([1, .nan, 3, 4], [1, 2, 3, 4]))
    #expect(rho.isFinite && (-1...1).contains(rho))
    let ranks = Statistics.ranks([.nan, .nan, .nan])
    #expect(ranks.sorted() == [1, 2, 3])
    #expect(Statistics.ranks([1, .nan, 3, 4]).allSatisfy { $0.isFinite })
  }

  @Test("ranks are 1-based, in the values' order, ties sharing their average")
  func ranks() {
    #expect(Statistics.ranks([]) == [])
    #expect(Statistics.ranks([5]) == [1])
    #expect(Statistics.ranks([30, 10, 30, 20]) == [3.5, 1, 3.5, 2])
    #expect(Statistics.ranks([2, 2, 2]) == [2, 2, 2])
    #expect(Statistics.ranks([-1, 0.5, -3]) == [2, 3, 1])
  }

  @Test("the median of the finite values; nil when there are none")
  func median() {
    #expect(Statistics.median([]) == nil)
    #expect(Statistics.median([.nan, .infinity, -.infinity]) == nil)
    #expect(Statistics.median([4]) == 4)
    #expect(Statistics.median([3, 1, 2]) == 2)
    #expect(Statistics.median([3, .nan, 1, 2, 10]) == 2.5)
    #expect(Statistics.median([7, 7, 7, 7]) == 7)
    #expect(Statistics.median([1, .infinity, 5]) == 3)
  }

  @Test("measured minutes: distinct minutes from the start with a reading in [from, to)")
  func measuredMinutes() {
    let minute: Int64 = 60_000
    #expect(Statistics.measuredMinutes([], from: 0, to: 10 * minute) == 0)
    // Hand-worked: readings at 0 s, 30 s (minute 0), 60 s (minute 1); 200 s is past the end.
    #expect(
      Statistics.measuredMinutes([0, 30_000, 60_000, 200_000], from: 0, to: 2 * minute) == 2)
    // The start is included, the end is not.
    #expect(Statistics.measuredMinutes([1_000, 5_000], from: 1_000, to: 5_000) == 1)
    // Minutes count from `from`, not from the clock: 59 s and 61 s after it are two.
    #expect(Statistics.measuredMinutes([89_000, 91_000], from: 30_000, to: 10 * minute) == 2)
    #expect(Statistics.measuredMinutes([31_000, 89_000], from: 30_000, to: 10 * minute) == 1)
    // Readings before the span, a gap minute, and an empty or reversed span.
    let times: [Int64] = [-5_000, 10_000, 20_000, 130_000, 250_000]
    #expect(Statistics.measuredMinutes(times, from: 0, to: 5 * minute) == 3)
    #expect(Statistics.measuredMinutes(times, from: 60_000, to: 60_000) == 0)
    #expect(Statistics.measuredMinutes(times, from: 5 * minute, to: 0) == 0)
  }
}
