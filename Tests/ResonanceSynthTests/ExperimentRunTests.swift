import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceTuning
import Testing

@testable import ResonanceSynth

@Suite("synth --dj-preferences PLAN: the history as it was, then the plan's arms by day")
struct ExperimentRunTests {
  /// June and July 2022 of a small library: the history the plan follows.
  static var history: SynthConfiguration {
    var configuration = SynthFolder.small
    configuration.months = 2
    configuration.songs = 80
    configuration.scale = 0.05
    return configuration
  }

  /// The app's settings against familiarity nearly alone, 28 days from 2022-08-01.
  static func plan(seed: UInt64 = 5) -> ExperimentPlan {
    let arms = [
      ExperimentPlan.Arm(name: "in-force", preferences: .appDefault),
      ExperimentPlan.Arm(name: "candidate", preferences: DJSwitchTests.tried),
    ]
    let start = CalendarDay("2022-08-01")!
    let schedule = ExperimentSchedule(arms: 2, start: start, cycles: 2, seed: seed)
    var assignment: [String: String] = [:]
    for (i, arm) in schedule.assignment.enumerated() {
      assignment[CalendarDay(daysSinceEpoch: start.daysSinceEpoch + Int64(i)).description] =
        arms[arm].name
    }
    return ExperimentPlan(
      question: .tuning, outcome: "keep-rate", block: "day", arms: arms, start: "2022-08-01",
      days: schedule.days, maxDays: 120, seed: seed, assignment: assignment,
      stoppingRule: .init(
        kind: "confidence-sequence", alpha: 0.05, contrastAlpha: 0.05, rho2: 0.5, cycleDays: 14,
        margin: 0.05, minimumCycles: 4, priorSD: 0.07, priorCycles: 4),
      power: .init(
        target: 0.9, gain: 0.05, gainSource: "margin", historyDays: 61, observedDays: 61,
        outcomeMean: 0.6, dailySD: 0.1, autocorrelation: 0, contrastSD: 0.07, daysNeeded: 28,
        fits: true, detectableGain: 0.05))
  }

  /// The history's two months and a third carrying out the plan.
  static var withPlan: SynthConfiguration {
    var configuration = history
    configuration.months = 3
    configuration.experiment = plan()
    return configuration
  }

  @Test(
    "everything before the plan's first day is the history's own: its month files byte for byte, the growing files from their start, the export's records"
  )
  func historyReproduced() throws {
    let alone = try SynthFolder(Self.history)
    let run = try SynthFolder(Self.withPlan)
    let monthly = alone.files.filter {
      $0.hasPrefix("resonance/") && !$0.hasPrefix("resonance/mood/")
    }
    #expect(monthly.count > 6)
    for file in monthly {
      #expect(
        try Data(contentsOf: alone.url(file)) == Data(contentsOf: run.url(file)),
        "\(file) differs before the plan")
    }
    #expect(run.files.contains("resonance/decisions/decisions-2022-08.jsonl"))
    // Files the app and the services append to begin with the history's bytes.
    for file in [
      "resonance/mood/mood-inputs.jsonl",
      "Apple Media Services/Apple Music Activity/Apple Music - Play History Daily Tracks.csv",
      "Apple Media Services/Apple Music Activity/Apple Music Play Activity.csv",
    ] {
      let before = try Data(contentsOf: alone.url(file))
      let after = try Data(contentsOf: run.url(file))
      #expect(after.count > before.count && after.prefix(before.count) == before, "\(file)")
    }
    // The export: the history's records before the plan's first day, line for line.
    let boundary = run.history.calendar.utcMs(day: 61, localMinutes: 0)
    func records(_ folder: SynthFolder, before limit: Int64?) throws -> [String] {
      let text = try String(
        contentsOf: folder.url("apple_health_export/export.xml"), encoding: .utf8)
      return text.split(separator: "\n").map(String.init).filter { line in
        guard line.hasPrefix(" <Record"), let range = line.range(of: "startDate=\"") else {
          return false
        }
        let date = Array(line[range.upperBound...].utf8.prefix(25))
        guard let time = date.withUnsafeBufferPointer({ FixedDateParser.healthDate($0) }) else {
          return false
        }
        return limit.map { time.millisecondsSinceEpoch < $0 } ?? true
      }
    }
    let history = try records(alone, before: boundary)
    #expect(history.count > 1_000)
    #expect(try records(run, before: boundary) == history)
    #expect(try records(run, before: nil).count > history.count + 500)

    let truth = try SynthTruth(json: Data(contentsOf: run.url("truth.json")))
    #expect(truth.generator.experimentStart == "2022-08-01")
    let plain = try String(contentsOf: alone.url("truth.json"), encoding: .utf8)
    #expect(!plain.contains("experiment_start"), "no key without an experiment")
  }

  @Test(
    "the plan's days run their arms: the log is version 3, its header holds every arm, each decision names its day's arm, and replay reproduces every choice"
  )
  func armsByDay() throws {
    let run = try SynthFolder(Self.withPlan)
    let plan = Self.plan()
    let august = "resonance/decisions/decisions-2022-08.jsonl"
    let head = try String(contentsOf: run.url(august), encoding: .utf8).prefix { $0 != "\n" }
    #expect(head.contains("\"version\":3"))
    #expect(head.contains("\"experiment\":{\"seed\":5,\"start\":\"2022-08-01\",\"arms\":["))
    let july = try String(
      contentsOf: run.url("resonance/decisions/decisions-2022-07.jsonl"), encoding: .utf8)
    #expect(july.prefix { $0 != "\n" }.contains("\"version\":2"))

    var records: [DecisionRecord] = []
    for file in run.files where file.hasPrefix("resonance/decisions/") {
      records += try DJSwitchTests.records(run, file)
    }
    let boundary = run.history.calendar.utcMs(day: 61, localMinutes: 0)
    let later = records.filter { $0.time.millisecondsSinceEpoch >= boundary }
    let planned = later.filter { plan.assignment[CalendarDay($0.time).description] != nil }
    #expect(planned.count > 300 && later.count > planned.count)
    var byArm: [String: Int] = [:]
    for record in planned {
      let day = CalendarDay(record.time).description
      #expect(record.arm == plan.assignment[day], "\(day): decision \(record.decision)")
      #expect(record.experimentSeed == 5)
      byArm[record.arm ?? "none", default: 0] += 1
    }
    // After the plan's days the DJ runs the settings in force again, naming no arm.
    #expect(later.dropFirst(planned.count).allSatisfy { $0.arm == nil })
    #expect(byArm.count == 2 && byArm.values.allSatisfy { $0 > 100 })
    #expect(records.filter { $0.arm != nil }.count == planned.count)
    // Familiarity weighs 0.9 of the five matches on the candidate's days.
    let candidate = planned.filter { $0.arm == "candidate" }
    let inForce = planned.filter { $0.arm == "in-force" }
    #expect(
      DJSwitchTests.chosenFamiliarity(candidate) > DJSwitchTests.chosenFamiliarity(inForce) + 0.02)

    let check = DecisionReplay.check(records)
    #expect(check.passed, "\(check.firstMismatch.map(\.detail) ?? "")")
    #expect(check.replayed == records.count)
  }

  @Test(
    "a plan must start inside the period, whole months after its first day",
    arguments: [
      ("2022-08-01", nil), ("2022-07-01", nil),
      ("2022-08-02", "is not whole months after the simulated period's first day, 2022-06-01"),
      ("2022-06-01", "outside the simulated period"),
      ("2022-09-01", "outside the simulated period"),
    ] as [(String, String?)])
  func planStart(start: String, problem: String?) {
    var configuration = Self.withPlan
    configuration.experiment?.start = start
    if let problem {
      #expect(
        configuration.dayProblem?.contains(problem) == true, "\(configuration.dayProblem ?? "")")
    } else {
      #expect(configuration.dayProblem == nil)
      #expect(configuration.historyAlone?.dayCount == configuration.historyDayCount)
    }
  }
}
