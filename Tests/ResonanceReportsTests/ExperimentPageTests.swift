import ResonanceModel
import Testing

@testable import ResonanceReports

@Suite("The experiment page: the plan, what its days say, and every day")
struct ExperimentPageTests {
  static let arms: [ExperimentPlan.Arm] = {
    var candidate = UserPreferences.appDefault
    candidate.bpmWeight = 0.45
    return [
      .init(name: "in-force", preferences: .appDefault),
      .init(name: "candidate", preferences: candidate),
    ]
  }()

  static func report(decision: String, departures: [ExperimentCompliance.Departure] = [])
    -> ExperimentReport
  {
    let plan = ExperimentPlan(
      question: .tuning, outcome: "keep-rate", block: "day", arms: arms, start: "2022-10-01",
      days: 56, maxDays: 120, seed: 4, assignment: [:],
      stoppingRule: .init(
        kind: "confidence-sequence", alpha: 0.05, contrastAlpha: 0.05, rho2: 0.5, cycleDays: 14,
        margin: 0.05, minimumCycles: 4, priorSD: 0.07, priorCycles: 4),
      power: .init(
        target: 0.9, gain: 0.05, gainSource: "margin", historyDays: 364, observedDays: 120,
        outcomeMean: 0.6, dailySD: 0.14, autocorrelation: 0.19, contrastSD: 0.071,
        daysNeeded: 4_000, fits: false, detectableGain: 0.11))
    let outcome = ExperimentAnalyzeOutcome(
      plan: "plan.json", decision: decision, adopted: decision == "adopt" ? "candidate" : nil,
      asOf: "2022-11-25", daysLeft: 0,
      contrasts: [
        .init(
          arm: "candidate", cycles: 4, estimate: 0.12, lower: 0.03, upper: 0.21, level: 0.95,
          permutationP: 0.004)
      ], analysis: "itt",
      compliance: .init(
        logged: true, daysWithDecisions: 55, followedDays: 55 - departures.count,
        departures: departures))
    let days = [
      ExperimentReport.Day(
        day: "2022-10-01", planned: "candidate", ran: "candidate", decisions: 40, keepRate: 0.7,
        counted: true),
      ExperimentReport.Day(
        day: "2022-10-02", planned: "in-force", ran: nil, decisions: 0, keepRate: nil,
        counted: false),
    ]
    return ExperimentReport(
      planFile: "plan.json", plan: plan, outcome: outcome, days: days,
      track: [.init(arm: "candidate", cycles: 4, estimate: 0.12, lower: 0.03, upper: 0.21)])
  }

  @Test(
    "an adopted candidate leads the page and the index line, with its interval, the rule, the plan's assumptions and the arms' differing settings"
  )
  func adopted() throws {
    let page = ExperimentPage.make(Self.report(decision: "adopt"))
    #expect(page.name == "experiment")
    #expect(page.headline == "adopt candidate: candidate +0.120 (+0.030 … +0.210) in keep rate")
    let text = try #require(page.files.first).text
    #expect(text.contains("**Adopt candidate: candidate +0.120 (+0.030 … +0.210) in keep rate.**"))
    #expect(text.contains("| candidate | 4 | +0.120 | +0.030 … +0.210 | 0.004 |"))
    #expect(text.contains("day-to-day SD 0.140, lag-1 autocorrelation +0.19"))
    #expect(
      text.contains(
        "needs 4,000 days for 90% power; the plan runs 56 days, which could show +0.110"))
    #expect(text.contains("| bpm weight | 0.25 | 0.45 |"))
    #expect(!text.contains("| energy weight |"), "only the settings that differ")
    #expect(text.contains("55 of 55 days with decisions ran their planned arm."))
    #expect(
      text.contains(
        "![Keep rate against in-force, at the end of each whole cycle](experiment-track.svg)"))
    let csv = try #require(page.files.first { $0.name == "experiment-days.csv" }).text
    #expect(
      csv.split(separator: "\r\n").map(String.init) == [
        "date,planned_arm,ran_arm,decisions,keep_rate,counted",
        "2022-10-01,candidate,candidate,40,0.7,1", "2022-10-02,in-force,,0,,0",
      ])
    #expect(page.files.contains { $0.name == "experiment-track.svg" })
  }

  @Test(
    "days the DJ ran another arm are listed with what ran; no analysis, a page that says how to make one"
  )
  func departuresAndNone() throws {
    let departed = ExperimentPage.make(
      Self.report(
        decision: "keep",
        departures: [
          .init(
            day: "2022-10-05", planned: "candidate",
            ran: [.init(arm: "none", decisions: 30), .init(arm: "candidate", decisions: 4)])
        ]))
    let text = try #require(departed.files.first).text
    #expect(
      departed.headline
        == "keep the preferences in force, the plan's days over: candidate +0.120 (+0.030 … +0.210) in keep rate"
    )
    #expect(text.contains("54 of 55 days with decisions ran their planned arm; these did not:"))
    #expect(text.contains("| 2022-10-05 | candidate | none (30), candidate (4) |"))

    let none = ExperimentPage.make(nil)
    #expect(none.headline == "no experiment analysed: resonance experiment plan, then analyze")
    #expect(none.files.count == 1 && none.files[0].text.contains("No experiment has been analysed"))
  }
}
