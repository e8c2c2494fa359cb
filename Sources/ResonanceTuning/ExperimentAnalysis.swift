import ResonanceModel

/// What an experiment's days say so far (`docs/experiments.md`, "Analysis"): for each
/// candidate, its whole cycles' contrasts with the preferences in force (intention to treat:
/// each day counted under the arm the plan gave it), their confidence sequence, and a
/// randomisation test; then the decision the stopping rule takes.
package struct ExperimentAnalysis: Sendable, Equatable {
  /// Whole cycles before the sequence is read: with fewer, a standard deviation from a
  /// handful of contrasts makes the asymptotic sequence cross too often (`docs/experiments.md`,
  /// "The guarantee", measured).
  package static let minimumCycles = 4
  /// The weight, in cycles, of the plan's contrast spread measured on history in the
  /// sequence's standard deviation (`ConfidenceSequence.interval(_:prior:)`).
  package static let priorCycles = 4.0

  /// What the rule decides: `adopt` a candidate, `keep` the preferences in force, or
  /// `continue`.
  package enum Decision: String, Sendable, Equatable, Codable {
    case adopt
    case keep
    case `continue`
  }

  /// One candidate against the preferences in force.
  package struct Contrast: Sendable, Equatable {
    /// The candidate's arm.
    package var arm: Int
    /// Whole cycles with both arms measured.
    package var cycles: Int
    /// The mean contrast and the confidence sequence's interval; nil before `minimumCycles`.
    package var estimate: Double?
    package var lower: Double?
    package var upper: Double?
    /// The randomisation test's two-sided p-value of the mean contrast (the cycles' schedules
    /// drawn again from the plan's generator); nil before `minimumCycles`.
    package var permutationP: Double?
  }

  package var contrasts: [Contrast]
  package var decision: Decision
  /// The arm adopted, when the decision is `adopt`: the candidate whose lower end is highest.
  package var adopted: Int?
  /// Days of the plan not yet past.
  package var daysLeft: Int

  /// Analyses `outcomes` (a value per day of the plan from its start, nil for a day without
  /// one; days after the as-of date left out) under `schedule`, with the plan's `sequence`
  /// and `margin`. `draws` randomisation schedules are drawn from `seed`; `priorSD` is the
  /// plan's contrast spread on history (nil: the contrasts' own alone).
  package init(
    outcomes: [Double?], schedule: ExperimentSchedule, sequence: ConfidenceSequence,
    margin: Double, priorSD: Double? = nil, draws: Int = 2000, seed: UInt64
  ) {
    let k = schedule.arms
    let length = ExperimentSchedule.cycleDays(arms: k)
    let elapsed = min(outcomes.count, schedule.days)
    daysLeft = schedule.days - elapsed
    let whole = elapsed / length * length
    let observed = Array(outcomes[..<whole])
    let assignment = Array(schedule.assignment[..<whole])
    var random = SplitMix64(seed: seed, stream: "experiment-randomisation")
    // The randomisation test's schedules, drawn only once the sequence is read.
    var redrawn: [[Int]] = []
    for _ in 0..<(whole / length >= Self.minimumCycles ? draws : 0) {
      var days: [Int] = []
      for _ in 0..<(whole / length) {
        days += ExperimentSchedule.cycle(arms: k, random: &random)
      }
      redrawn.append(days)
    }
    contrasts = (1..<k).map { arm in
      let values = ExperimentSchedule.contrasts(
        observed, assignment: assignment, arms: k, arm: arm
      ).compactMap { $0 }
      guard values.count >= Self.minimumCycles,
        let interval = sequence.interval(values, prior: priorSD.map { ($0, Self.priorCycles) })
      else {
        return Contrast(arm: arm, cycles: values.count)
      }
      let statistic = abs(interval.estimate)
      var extreme = 0
      for days in redrawn {
        let again = ExperimentSchedule.contrasts(observed, assignment: days, arms: k, arm: arm)
          .compactMap { $0 }
        let mean = again.isEmpty ? 0 : again.reduce(0, +) / Double(again.count)
        if abs(mean) >= statistic - 1e-12 { extreme += 1 }
      }
      return Contrast(
        arm: arm, cycles: values.count, estimate: interval.estimate, lower: interval.lower,
        upper: interval.upper, permutationP: Double(1 + extreme) / Double(1 + draws))
    }
    let best = contrasts.filter { ($0.lower ?? 0) > 0 }.max { $0.lower! < $1.lower! }
    if let best {
      decision = .adopt
      adopted = best.arm
    } else if daysLeft == 0
      || contrasts.allSatisfy({ $0.upper.map { $0 < margin } ?? false })
    {
      decision = .keep
    } else {
      decision = .continue
    }
  }

  /// Each candidate's estimate and interval as they stood after each whole cycle, from the
  /// first the sequence is read at: the analysis of the first c cycles, for every c (without
  /// the randomisation test).
  package static func track(
    outcomes: [Double?], schedule: ExperimentSchedule, sequence: ConfidenceSequence,
    margin: Double, priorSD: Double? = nil
  ) -> [Contrast] {
    let length = ExperimentSchedule.cycleDays(arms: schedule.arms)
    let cycles = min(outcomes.count, schedule.days) / length
    guard cycles >= minimumCycles else { return [] }
    return (minimumCycles...cycles).flatMap { c in
      ExperimentAnalysis(
        outcomes: Array(outcomes[..<(c * length)]), schedule: schedule, sequence: sequence,
        margin: margin, priorSD: priorSD, draws: 0, seed: 0
      ).contrasts.filter { $0.estimate != nil }
    }
  }
}
