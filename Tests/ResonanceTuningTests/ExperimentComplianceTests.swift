import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Experiments: what the decision log shows the DJ ran")
struct ExperimentComplianceTests {
  static let start = CalendarDay("2024-03-04")!

  /// A two-arm plan of one cycle from `start`, seed 3.
  static func plan() -> (ExperimentPlan, ExperimentSchedule) {
    let schedule = ExperimentSchedule(arms: 2, start: start, cycles: 1, seed: 3)
    let arms = [
      ExperimentPlan.Arm(name: "in-force", preferences: .appDefault),
      ExperimentPlan.Arm(name: "candidate", preferences: .appDefault),
    ]
    var assignment: [String: String] = [:]
    for (i, arm) in schedule.assignment.enumerated() {
      assignment[day(i).description] = arms[arm].name
    }
    let plan = ExperimentPlan(
      question: .tuning, outcome: "keep-rate", block: "day", arms: arms,
      start: start.description, days: 14, maxDays: 120, seed: 3, assignment: assignment,
      stoppingRule: .init(
        kind: "confidence-sequence", alpha: 0.05, contrastAlpha: 0.05, rho2: 0.5, cycleDays: 14,
        margin: 0.05, minimumCycles: 4, priorSD: 0.07, priorCycles: 4),
      power: .init(
        target: 0.9, gain: 0.05, gainSource: "margin", historyDays: 0, observedDays: 0,
        outcomeMean: 0.6, dailySD: 0.1, autocorrelation: 0, contrastSD: 0.07, daysNeeded: 14,
        fits: true, detectableGain: 0.05))
    return (plan, schedule)
  }

  static func day(_ i: Int) -> CalendarDay {
    CalendarDay(daysSinceEpoch: start.daysSinceEpoch + Int64(i))
  }

  @Test(
    "a day whose decisions all ran the planned arm is followed; one with another arm or none is a departure, listed with what ran"
  )
  func departures() throws {
    let (plan, schedule) = Self.plan()
    let name = { (i: Int) in plan.arms[schedule.assignment[i]].name }
    let other = { (i: Int) in plan.arms[1 - schedule.assignment[i]].name }
    var days = (0..<10).map { i in
      DecisionDay(day: Self.day(i), decisions: 4, arms: [name(i): 4], seeds: [3])
    }
    days[2].arms = [name(2): 1, other(2): 3]
    days[5].arms = [nil: 4]
    // A day before the plan, and one after the days so far, are not the plan's.
    days.append(DecisionDay(day: Self.day(-1), decisions: 2, arms: [nil: 2]))
    days.append(DecisionDay(day: Self.day(12), decisions: 2, arms: [other(12): 2], seeds: [3]))
    let compliance = try ExperimentCompliance(
      plan: plan, schedule: schedule, days: days, elapsed: 10)
    #expect(compliance.logged)
    #expect(compliance.daysWithDecisions == 10 && compliance.followedDays == 8)
    #expect(compliance.departures.map(\.day) == [Self.day(2).description, Self.day(5).description])
    #expect(compliance.departures[0].ran.map(\.arm) == [other(2), name(2)])
    #expect(compliance.departures[0].ran.map(\.decisions) == [3, 1])
    #expect(compliance.departures[1].ran.map(\.arm) == [ExperimentCompliance.noArm])
    #expect(compliance.departedDays(from: Self.start) == [2, 5])
  }

  @Test("a log naming no arms says nothing of what ran; a log of another plan's seed is refused")
  func unloggedAndForeign() throws {
    let (plan, schedule) = Self.plan()
    let plain = (0..<6).map { DecisionDay(day: Self.day($0), decisions: 3, arms: [nil: 3]) }
    let compliance = try ExperimentCompliance(
      plan: plan, schedule: schedule, days: plain, elapsed: 6)
    #expect(!compliance.logged && compliance.departures.isEmpty && compliance.followedDays == 0)
    #expect(compliance.daysWithDecisions == 6)

    var foreign = plain
    foreign[4].seeds = [9]
    let error = try #require(throws: ExperimentCompliance.ForeignSeed.self) {
      _ = try ExperimentCompliance(plan: plan, schedule: schedule, days: foreign, elapsed: 6)
    }
    #expect(error == .init(day: Self.day(4), seed: 9))
  }
}
