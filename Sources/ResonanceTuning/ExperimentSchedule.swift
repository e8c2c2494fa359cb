import ResonanceModel

/// How an N-of-1 experiment gives its days to its arms (`docs/experiments.md`, "Design").
///
/// The days from the start go in **cycles** of `arms` weeks. Within a cycle every weekday
/// gets every arm exactly once, and every week gets each arm on ⌊7/k⌋ or ⌈7/k⌉ of its days (k
/// arms): for two arms a week is 4 days to one and 3 to the other, the next week the reverse.
/// A cycle is drawn at random from a seed: a random order σ of the week's seven days, a random
/// labelling τ of the arms and a random order of the cycle's weeks ω, and day d of week w gets
/// arm τ[(σ(d) + ω(w)) mod k]. Each day has each arm with chance 1/k, and each arm has 7 days
/// a cycle, so the difference of two arms' mean outcomes over a cycle's days is unbiased for
/// the difference of their effects on those days, whatever the days were like; cycles are
/// drawn independently, so their differences are martingale differences, which is what the
/// confidence sequence needs (`ConfidenceSequence`). The randomisation test redraws cycles
/// from the same generator.
package struct ExperimentSchedule: Sendable, Equatable {
  /// The arms (2 or more): arm 0 is the reference, the preferences in force.
  package let arms: Int
  /// The first day.
  package let start: CalendarDay
  /// Per day from `start`, its arm; a whole number of cycles.
  package let assignment: [Int]

  /// Days a cycle: a week per arm.
  package static func cycleDays(arms: Int) -> Int { 7 * arms }

  /// `cycles` cycles from `start`, drawn from `seed`.
  package init(arms: Int, start: CalendarDay, cycles: Int, seed: UInt64) {
    precondition(arms >= 2 && cycles >= 0, "two arms or more")
    var random = SplitMix64(seed: seed, stream: "experiment-schedule")
    var assignment: [Int] = []
    for _ in 0..<cycles { assignment += Self.cycle(arms: arms, random: &random) }
    self.init(arms: arms, start: start, assignment: assignment)
  }

  /// A schedule read back from a plan.
  package init(arms: Int, start: CalendarDay, assignment: [Int]) {
    self.arms = arms
    self.start = start
    self.assignment = assignment
  }

  /// One cycle's arms, day by day.
  package static func cycle(arms k: Int, random: inout SplitMix64) -> [Int] {
    let order = shuffled(Array(0..<7), &random)
    let labels = shuffled(Array(0..<k), &random)
    let weeks = shuffled(Array(0..<k), &random)
    var days: [Int] = []
    for w in 0..<k {
      for d in 0..<7 { days.append(labels[(order[d] + weeks[w]) % k]) }
    }
    return days
  }

  /// Fisher–Yates with the generator's draws.
  private static func shuffled(_ values: [Int], _ random: inout SplitMix64) -> [Int] {
    var values = values
    for i in stride(from: values.count - 1, to: 0, by: -1) {
      let j = Int(random.next() % UInt64(i + 1))
      values.swapAt(i, j)
    }
    return values
  }

  /// Days the schedule covers.
  package var days: Int { assignment.count }

  /// The arm of `day`; nil outside the schedule.
  package func arm(on day: CalendarDay) -> Int? {
    let i = Int(day.daysSinceEpoch - start.daysSinceEpoch)
    return assignment.indices.contains(i) ? assignment[i] : nil
  }

  /// The contrast of `arm` against arm 0 on each whole cycle of `outcomes` (one value per day
  /// from `start`, nil where the day has none): the mean of the arm's days less the mean of
  /// arm 0's, nil for a cycle where either has no day with an outcome.
  package static func contrasts(
    _ outcomes: [Double?], assignment: [Int], arms: Int, arm: Int, reference: Int = 0
  ) -> [Double?] {
    let length = cycleDays(arms: arms)
    let cycles = min(outcomes.count, assignment.count) / length
    return (0..<cycles).map { c in
      var sums = (0.0, 0.0)
      var counts = (0, 0)
      for i in (c * length)..<((c + 1) * length) {
        guard let y = outcomes[i] else { continue }
        if assignment[i] == arm {
          sums.0 += y
          counts.0 += 1
        } else if assignment[i] == reference {
          sums.1 += y
          counts.1 += 1
        }
      }
      guard counts.0 > 0, counts.1 > 0 else { return nil }
      return sums.0 / Double(counts.0) - sums.1 / Double(counts.1)
    }
  }
}
