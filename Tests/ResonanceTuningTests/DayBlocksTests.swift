import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Runs of neighbouring days: the week-batch standard error and the block bootstrap")
struct DayBlocksTests {
  static func blocks(_ days: [Int64]) -> DayBlocks {
    DayBlocks(days.map { CalendarDay(daysSinceEpoch: 19_700 + $0) })
  }

  @Test(
    "a block is a week, or a third of a shorter span, never less than a day",
    arguments: [(1, 1), (2, 1), (5, 1), (6, 2), (10, 3), (20, 6), (21, 7), (31, 7), (365, 7)])
  func length(span: Int, expected: Int) {
    #expect(DayBlocks.length(span: span) == expected)
  }

  @Test(
    "a month is cut into a batch a week, at least two, none for a single day",
    arguments: [(1, 0), (2, 2), (13, 2), (14, 2), (21, 3), (28, 4), (31, 4)])
  func batches(span: Int, expected: Int) {
    #expect(DayBlocks.batches(span: span) == expected)
  }

  /// 2024-01-01, days since 1970-01-01.
  static let january: Int64 = 19_723

  @Test("the week-batch variance and its degrees of freedom, worked by hand over two months")
  func spreadByHand() {
    // January: days 0, 3, 8, 15, 27 with values 1, 2, −1, 3, 0.5. Span 28 → 4 batches of 7
    // days: sums 3, −1, 3, 0.5 (mean 1.375); V = 4/3 · (1.625² + 2.375² + 1.625² + 0.875²).
    // February: days 31 and 51 with 1 and −1. Span 21 → 3 batches: sums 1, 0, −1;
    // V = 3/2 · 2 = 3.
    let days: [Int64] = [0, 3, 8, 15, 27, 31, 51].map { Self.january + $0 }
    let blocks = DayBlocks(days.map { CalendarDay(daysSinceEpoch: $0) })
    let x = [1, 2, -1, 3, 0.5, 1, -1]
    let january = 4.0 / 3 * (1.625 * 1.625 + 2.375 * 2.375 + 1.625 * 1.625 + 0.875 * 0.875)
    let february = 3.0
    let spread = blocks.spread([6, 4, 0, 1, 2, 3, 5], [-1, 0.5, 1, 2, -1, 3, 1])  // any order
    #expect(abs(spread.standardError - (january + february).squareRoot()) < 1e-12)
    let dof =
      (january + february) * (january + february)
      / (january * january / 3 + february * february / 2)
    #expect(abs(spread.degreesOfFreedom - dof) < 1e-12)
    // January alone: three degrees of freedom, whatever the values.
    #expect(blocks.spread([0, 1, 2, 3, 4], Array(x.prefix(5))).degreesOfFreedom == 3)
    // A month of one day carries no spread: alone, no standard error at all.
    let one = blocks.spread([5], [1])
    #expect(one.standardError == .infinity && one.degreesOfFreedom == 0)
    #expect(one.halfWidth(level: 0.9) == nil && one.lowerDistance(level: 0.9) == .infinity)
  }

  @Test("only the batches' sums count: equal sums leave no spread, whatever the days hold")
  func onlyBatchSums() {
    let days = (0..<28).map { Self.january + Int64($0) }
    let blocks = DayBlocks(days.map { CalendarDay(daysSinceEpoch: $0) })
    let all = Array(days.indices)
    #expect(blocks.spread(all, days.map { _ in 0.5 }).standardError == 0)
    // Alternating +1, −1 day by day: the four 7-day batches sum to 1, −1, 1, −1.
    let alternating = days.indices.map { $0 % 2 == 0 ? 1.0 : -1.0 }
    #expect(abs(blocks.spread(all, alternating).standardError - (16.0 / 3).squareRoot()) < 1e-12)
  }

  @Test("a resample draws as many calendar days as the span, in runs of consecutive days")
  func resampleDrawsBlocks() {
    // 28 days with decisions on every day but each week's Thursday (days 3, 10, 17, 24).
    let days = (0..<28).map { Int64($0) }.filter { $0 % 7 != 3 }
    let blocks = Self.blocks(days)
    let chosen = Array(days.indices)
    var rng = SplitMix64(seed: 3)
    for _ in 0..<200 {
      let counts = blocks.resample(chosen, rng: &rng)
      // 4 blocks of 7 calendar days: each holds exactly one Thursday, which adds nothing.
      #expect(counts.reduce(0, +) == 24)
    }
    // A span of two days takes blocks of one day: each day is drawn 0, 1 or 2 times.
    let two = Self.blocks([0, 1])
    var seen = Set<[Int]>()
    for _ in 0..<100 { seen.insert(two.resample([0, 1], rng: &rng)) }
    #expect(seen == [[2, 0], [1, 1], [0, 2]])
  }

  @Test(
    "with weekly shocks a 90% week-batch interval covers more than 80%, a day-by-day one far less"
  )
  func coverageUnderWeeklyShocks() {
    // 400 histories of 12 weeks from 2024-01-01, one decision a day: a day's gain is its
    // week's shock (sd 1) plus its own noise (sd 0.3); the true gain is 0. The interval of
    // `Tuner.interval` (week batches in each calendar month, Student's t) covers 0 in most;
    // a normal interval from independent days, as if the days of a week told seven stories,
    // in well under two thirds.
    var rng = SplitMix64(seed: 11, stream: "weekly-shock")
    let days = (0..<84).map { CalendarDay(daysSinceEpoch: Self.january + Int64($0)) }
    var batchCovers = 0
    var dayCovers = 0
    let trials = 400
    for _ in 0..<trials {
      let shocks = (0..<12).map { _ in rng.normal() }
      let gains = (0..<84).map { shocks[$0 / 7] + 0.3 * rng.normal() }
      let zero = [Double](repeating: 0, count: 84)
      let interval = Tuner.interval(
        TunerBootstrapTests.estimate(gains), TunerBootstrapTests.estimate(zero), days: days,
        level: 0.9)
      if interval.lower <= 0 && 0 <= interval.upper { batchCovers += 1 }
      let mean = gains.reduce(0, +) / 84
      let sd = (gains.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 83).squareRoot()
      if abs(mean) <= 1.645 * sd / 84.squareRoot() { dayCovers += 1 }
    }
    // Measured: 327 and 152 of 400. The batches fall short of 90% here because a calendar
    // month's batches (7.75, 7.25 and 8 days) do not line up with the shocks' weeks, so
    // neighbouring batches share a shock: the worst case, a correlation exactly as long as a
    // batch.
    let coverage = Double(batchCovers) / Double(trials)
    #expect(coverage > 0.78 && coverage < 0.95, "\(batchCovers) of \(trials)")
    #expect(Double(dayCovers) / Double(trials) < 0.6, "\(dayCovers) of \(trials)")
  }
}
