import Foundation
import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Days as batches: the day-batch standard error, and the block bootstrap of sweep")
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
    "a month's days are its batches, none for a single day",
    arguments: [(1, 0), (2, 2), (13, 13), (28, 28), (31, 31)])
  func batches(span: Int, expected: Int) {
    #expect(DayBlocks.batches(span: span) == expected)
  }

  /// 2024-01-01, days since 1970-01-01.
  static let january: Int64 = 19_723

  @Test("the day-batch variance and its degrees of freedom, worked by hand over two months")
  func spreadByHand() {
    // January: days 0, 3, 8, 15, 27 with values 1, 2, −1, 3, 0.5, and 23 days of nothing.
    // Span 28 → 28 batches with mean 5.5/28; V = 28/27 · (Σ S² − 28 · mean²)
    // = 28/27 · (15.25 − 30.25/28). February: days 31 and 51 with 1 and −1. Span 21 → 21
    // batches with mean 0; V = 21/20 · 2.
    let days: [Int64] = [0, 3, 8, 15, 27, 31, 51].map { Self.january + $0 }
    let blocks = DayBlocks(days.map { CalendarDay(daysSinceEpoch: $0) })
    let x = [1, 2, -1, 3, 0.5, 1, -1]
    let january = 28.0 / 27 * (15.25 - 30.25 / 28)
    let february = 21.0 / 20 * 2
    let spread = blocks.spread([6, 4, 0, 1, 2, 3, 5], [-1, 0.5, 1, 2, -1, 3, 1])  // any order
    #expect(abs(spread.standardError - (january + february).squareRoot()) < 1e-12)
    let dof =
      (january + february) * (january + february)
      / (january * january / 27 + february * february / 20)
    #expect(abs(spread.degreesOfFreedom - dof) < 1e-12)
    // January alone: 27 degrees of freedom, whatever the values.
    #expect(blocks.spread([0, 1, 2, 3, 4], Array(x.prefix(5))).degreesOfFreedom == 27)
    // A month of one day carries no spread: alone, no standard error at all.
    let one = blocks.spread([5], [1])
    #expect(one.standardError == .infinity && one.degreesOfFreedom == 0)
    #expect(one.halfWidth(level: 0.9) == nil && one.lowerDistance(level: 0.9) == .infinity)
  }

  @Test("only the days' sums count: equal sums leave no spread, whatever the decisions hold")
  func onlyDaySums() {
    // 28 days of two decisions each, +0.75 and −0.25: every day sums to 0.5.
    let days = (0..<28).flatMap { [Self.january + Int64($0), Self.january + Int64($0)] }
    let blocks = DayBlocks(days.map { CalendarDay(daysSinceEpoch: $0) })
    let all = Array(days.indices)
    #expect(blocks.spread(all, days.indices.map { $0 % 2 == 0 ? 0.75 : -0.25 }).standardError == 0)
    // Days summing to +1 and −1 in turn: V = 28/27 · 28.
    let alternating = days.indices.map { ($0 / 2) % 2 == 0 ? 0.5 : -0.5 }
    #expect(
      abs(blocks.spread(all, alternating).standardError - (28.0 * 28 / 27).squareRoot()) < 1e-12)
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
    "when each decision's error is fresh given the past, a 90% day-batch interval covers the one-step truth at least 85% of the time, however the weeks move; when the error itself lasts a week, far less"
  )
  func coverageOfMartingaleErrors() {
    // 400 histories of 12 weeks from 2024-01-01, six decisions a day. Each week has a shock
    // (sd 1), as a DJ's learned state and a person's week carry from day to day. Fresh errors:
    // a decision's expected gain is 0.2 × its week's shock, and its error is noise whose size
    // the shock sets (e^(shock/2)) — the shape `tune`'s errors have, since every judged
    // month's preferences and reward model are fixed before it and the propensities are the
    // log's. The estimand is the mean expected gain of the logged decisions. Lasting errors: a
    // decision's gain is its week's shock plus small noise, and the truth is 0 — the case days
    // cannot see, and the one docs/tuning.md argues `tune`'s estimates are not.
    var rng = SplitMix64(seed: 11, stream: "weekly-state")
    let days = (0..<84).flatMap { day in
      Array(repeating: CalendarDay(daysSinceEpoch: Self.january + Int64(day)), count: 6)
    }
    let zero = TunerBootstrapTests.estimate([Double](repeating: 0, count: days.count))
    var fresh = 0
    var lasting = 0
    let trials = 400
    for _ in 0..<trials {
      let shocks = (0..<12).map { _ in rng.normal() }
      let week = days.indices.map { $0 / 42 }
      let expected = week.map { 0.2 * shocks[$0] }
      let gains = week.indices.map { expected[$0] + exp(shocks[week[$0]] / 2) * rng.normal() }
      let truth = expected.reduce(0, +) / Double(days.count)
      let a = Tuner.interval(
        TunerBootstrapTests.estimate(gains), zero, days: days, level: 0.9)
      if a.lower <= truth && truth <= a.upper { fresh += 1 }
      let persistent = week.map { shocks[$0] + 0.3 * rng.normal() }
      let b = Tuner.interval(
        TunerBootstrapTests.estimate(persistent), zero, days: days, level: 0.9)
      if b.lower <= 0 && 0 <= b.upper { lasting += 1 }
    }
    // Above 90% for fresh errors because the days' spread holds the weeks' moving expected
    // gain too, which the estimand does not vary by.
    #expect(Double(fresh) / Double(trials) > 0.85, "\(fresh) of \(trials)")
    #expect(Double(lasting) / Double(trials) < 0.6, "\(lasting) of \(trials)")
  }
}
