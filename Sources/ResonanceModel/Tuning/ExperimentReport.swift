/// What `resonance experiment analyze` stores, for `resonance report --only experiment`: the
/// plan, the analysis, every day of the plan so far, and how each candidate's interval moved
/// cycle by cycle.
package struct ExperimentReport: Sendable, Equatable, Codable {
  /// One day of the plan so far.
  package struct Day: Sendable, Equatable, Codable {
    package var day: String
    package var planned: String
    /// The arm the day's decisions ran when the log names it: one name, `mixed` when they ran
    /// several, `none` for the settings in force without an arm; nil when the log names no
    /// arms, or the day had no decisions.
    package var ran: String?
    package var decisions: Int
    /// The day's keep rate; nil without an outcome.
    package var keepRate: Double?
    /// Whether the analysis counted it.
    package var counted: Bool
    /// An evening-music experiment's evening: that night's minutes asleep and the minutes of
    /// music heard in the hour before its bedtime; nil for a plan by day, or without a night.
    package var asleepMinutes: Double?
    package var musicMinutes: Double?

    package init(
      day: String, planned: String, ran: String?, decisions: Int, keepRate: Double?,
      counted: Bool, asleepMinutes: Double? = nil, musicMinutes: Double? = nil
    ) {
      self.asleepMinutes = asleepMinutes
      self.musicMinutes = musicMinutes
      self.day = day
      self.planned = planned
      self.ran = ran
      self.decisions = decisions
      self.keepRate = keepRate
      self.counted = counted
    }
  }

  /// A candidate's contrast and interval as they stood after a number of whole cycles.
  package struct Step: Sendable, Equatable, Codable {
    package var arm: String
    package var cycles: Int
    package var estimate: Double
    package var lower: Double
    package var upper: Double

    package init(arm: String, cycles: Int, estimate: Double, lower: Double, upper: Double) {
      self.arm = arm
      self.cycles = cycles
      self.estimate = estimate
      self.lower = lower
      self.upper = upper
    }
  }

  /// The plan file's name, and its experiment.
  package var planFile: String
  package var plan: ExperimentPlan
  package var outcome: ExperimentAnalyzeOutcome
  package var days: [Day]
  /// From the first cycle the sequence is read at, every candidate's interval after each
  /// whole cycle.
  package var track: [Step]

  package init(
    planFile: String, plan: ExperimentPlan, outcome: ExperimentAnalyzeOutcome, days: [Day],
    track: [Step]
  ) {
    self.planFile = planFile
    self.plan = plan
    self.outcome = outcome
    self.days = days
    self.track = track
  }
}
