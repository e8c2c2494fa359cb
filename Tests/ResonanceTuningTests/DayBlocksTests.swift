import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Blocks of neighbouring days: the block bootstrap and the long-run standard error")
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

  @Test("the long-run sum weighs each pair of days fewer than L apart by 1 − gap/L")
  func longRunSquaresByHand() {
    // Days 0, 1, 2 and 10 with values 1, 2, −1, 3 and L = 3, worked by hand:
    //   each with itself        1 + 4 + 1 + 9              = 15
    //   days 0,1 (gap 1, ⅔)     2 · ⅔ · 1 · 2              = +8/3
    //   days 0,2 (gap 2, ⅓)     2 · ⅓ · 1 · (−1)           = −2/3
    //   days 1,2 (gap 1, ⅔)     2 · ⅔ · 2 · (−1)           = −8/3
    //   day 10 is 8 days from the rest: no pair.
    let blocks = Self.blocks([10, 0, 2, 1])  // groups in any order
    let sum = blocks.longRunSquares([1, 3, 2, 0], [1, 2, -1, 3], length: 3)
    #expect(abs(sum - (15 - 2.0 / 3)) < 1e-12)
    // With a block of one day it is the plain sum of squares.
    #expect(blocks.longRunSquares([1, 3, 2, 0], [1, 2, -1, 3], length: 1) == 15)
  }

  @Test("days that move together widen the standard error by about the square root of the run")
  func standardErrorOfAWeeklyShock() {
    // 84 days in 12 weeks; each week's days share a value of +1 or −1, alternating in pairs
    // of weeks. Independent days would give √(84 · 84/83); the week-long runs count as one.
    let days = (0..<84).map { Int64($0) }
    let x = days.map { Double(($0 / 7) % 4 < 2 ? 1 : -1) }
    let blocks = Self.blocks(days)
    let chosen = Array(days.indices)
    let independent = (84.0 * 84 / 83).squareRoot()
    let se = blocks.standardError(chosen, x)
    #expect(se > 2 * independent && se < 7.squareRoot() * independent)
    #expect(blocks.standardError([0], [1]) == .infinity)
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

  @Test("with weekly shocks a 90% block interval covers far more often than a day-by-day one")
  func coverageUnderWeeklyShocks() {
    // 200 histories of 12 weeks, one decision a day: a day's gain is its week's shock (sd 1)
    // plus its own noise (sd 0.3); the true gain is 0. The interval from `Tuner.bootstrap`
    // (blocks of a week) covers 0 in most; resampling days independently, as if the days of
    // a week told seven stories, in well under two thirds.
    var rng = SplitMix64(seed: 11, stream: "weekly-shock")
    var settings = TuningSettings()
    settings.bootstrapReplicates = 200
    let days = TunerBootstrapTests.days(Array(repeating: 1, count: 84))
    var blockCovers = 0
    var dayCovers = 0
    let trials = 200
    for trial in 0..<trials {
      let shocks = (0..<12).map { _ in rng.normal() }
      let gains = (0..<84).map { shocks[$0 / 7] + 0.3 * rng.normal() }
      let zero = [Double](repeating: 0, count: 84)
      settings.bootstrapSeed = UInt64(trial)
      let interval = Tuner.bootstrap(
        TunerBootstrapTests.estimate(gains), TunerBootstrapTests.estimate(zero), days: days,
        settings: settings, level: 0.9)
      if interval.lower <= 0 && 0 <= interval.upper { blockCovers += 1 }
      var means: [Double] = []
      for _ in 0..<200 {
        means.append((0..<84).reduce(0) { s, _ in s + gains[Int(rng.next() % 84)] } / 84)
      }
      means.sort()
      if Statistics.quantile(means, 0.05) <= 0 && 0 <= Statistics.quantile(means, 0.95) {
        dayCovers += 1
      }
    }
    // Measured: 152 and 91 of 200. The block interval still falls short of 90%: a week-long
    // block sees part of a week-long shock's correlation (the Bartlett weights), and twelve
    // weeks are few blocks.
    #expect(Double(blockCovers) / Double(trials) > 0.7)
    #expect(Double(dayCovers) / Double(trials) < 0.6)
  }
}
