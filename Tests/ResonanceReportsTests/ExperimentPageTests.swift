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

  /// An evening-music experiment's report: `usual`, `calm` and `none` evenings, with `decision`
  /// (`adopted` with `adopt`) over five cycles.
  static func evening(decision: String, adopted: String? = nil, daysLeft: Int = 0)
    -> ExperimentReport
  {
    let plan = ExperimentPlan(
      question: .eveningMusic, outcome: "minutes-asleep", block: "evening",
      arms: [
        .init(name: "usual", preferences: .appDefault, evening: .usual),
        .init(
          name: "calm", preferences: .appDefault, evening: .calm,
          songs: [.init(catalogID: "1", title: "Still", artist: "A", heartRateEffect: -3)]),
        .init(name: "none", preferences: .appDefault, evening: .noMusic),
      ], start: "2022-10-01", days: 105, maxDays: 120, seed: 7, assignment: [:],
      stoppingRule: .init(
        kind: "confidence-sequence", alpha: 0.025, contrastAlpha: 0.0125, rho2: 0.5,
        cycleDays: 21, margin: 15, minimumCycles: 4, priorSD: 26.7, priorCycles: 4),
      power: .init(
        target: 0.9, gain: 15, gainSource: "default", historyDays: 122, observedDays: 122,
        outcomeMean: 432.7, dailySD: 51.9, autocorrelation: 0.2, contrastSD: 26.7,
        daysNeeded: 1_533, fits: false, detectableGain: 57.1),
      evening: .init(
        windowMinutes: 60, musicMinutes: 10, dayStartHour: 6, lookbackDays: 28,
        weeknightBedtime: "22:49", weekendBedtime: "23:45"))
    let outcome = ExperimentAnalyzeOutcome(
      plan: "plan.json", decision: decision, adopted: adopted, asOf: "2023-01-13",
      daysLeft: daysLeft,
      contrasts: [
        .init(
          arm: "calm", cycles: 5, estimate: 31, lower: 2.5, upper: 60, level: 0.9875,
          permutationP: 0.01),
        .init(
          arm: "none", cycles: 5, estimate: -4, lower: -40, upper: 30, level: 0.9875,
          permutationP: 0.7),
      ], analysis: "itt",
      compliance: .init(logged: true, daysWithDecisions: 97, followedDays: 97, departures: []),
      evenings: .init(
        arms: [
          .init(arm: "usual", evenings: 35, withMusic: 19),
          .init(arm: "calm", evenings: 35, withMusic: 33),
          .init(arm: "none", evenings: 35, withMusic: 6),
        ], cycles: 5, asleepContrast: 21.2, musicContrast: 0.77, estimate: 27.4, lower: -35,
        upper: 102.5, level: 0.9875))
    return ExperimentReport(
      planFile: "plan.json", plan: plan, outcome: outcome,
      days: [
        .init(
          day: "2022-10-01", planned: "calm", ran: "calm", decisions: 12, keepRate: 0.5,
          counted: true, asleepMinutes: 441, musicMinutes: 24)
      ], track: [])
  }

  @Test(
    "an evening-music page speaks of evenings and arms: its title, the decision to keep the usual evenings or adopt calm music, the rule, the music before bed"
  )
  func evenings() throws {
    let kept = ExperimentPage.make(Self.evening(decision: "keep"))
    #expect(
      kept.headline
        == "keep the usual evenings, the plan's days over: calm +31.0 (+2.5 … +60.0) minutes asleep"
    )
    let text = try #require(kept.files.first).text
    #expect(text.hasPrefix("# The experiment: music before bed, evening by evening\n"))
    #expect(text.contains("Every evening is counted under the arm the plan gave it"))
    #expect(text.contains("| arm | whole cycles | minutes asleep against usual |"))
    #expect(text.contains("| calm | 5 | +31.0 | +2.5 … +60.0 | 0.010 |"))
    #expect(
      text.contains(
        "adopt an arm when its sequence's lower end is above 0; keep the usual evenings"))
    #expect(!text.contains("keep the preferences in force"), "the tuning words, not the evening's")
    #expect(text.contains("`usual` 19 of 35, `calm` 33 of 35, `none` 6 of 35"))
    #expect(text.contains("Planned on 122 days with the outcome of the last 122"))
    let csv = try #require(kept.files.first { $0.name == "experiment-days.csv" }).text
    #expect(
      csv.hasPrefix(
        "date,planned_arm,ran_arm,decisions,keep_rate,counted,asleep_minutes,music_minutes\r\n"))

    #expect(
      ExperimentPage.make(Self.evening(decision: "adopt", adopted: "calm")).headline
        == "adopt calm music before bed: calm +31.0 (+2.5 … +60.0) minutes asleep")
    #expect(
      ExperimentPage.decision(Self.evening(decision: "adopt", adopted: "none").outcome)
        == "adopt no music before bed")
    #expect(
      ExperimentPage.decision(Self.evening(decision: "keep", daysLeft: 40).outcome)
        == "keep the usual evenings, neither calm nor none able to gain the planned amount")
  }
}
