import Foundation
import ResonanceIngest
import ResonanceModel
import ResonanceTuning
import Testing

@testable import ResonanceSynth

@Suite("synth --dj-from: the app's settings, then a preference file's from a month's first day")
struct DJSwitchTests {
  /// Settings far from the app's: familiarity nearly alone among the five matches.
  static let tried = UserPreferences.appDefault.with(
    weights: ScoringWeights(
      bpm: 0.02, energy: 0.02, familiarity: 0.9, historical: 0.02, context: 0.04, recency: 0.3,
      timeOfDay: 0.2))

  /// June, July and August 2022 of a small library.
  static var threeMonths: SynthConfiguration {
    var configuration = SynthFolder.small
    configuration.months = 3
    configuration.songs = 60
    configuration.scale = 0.05
    return configuration
  }

  /// Every decision line of the log file at `file` in `folder`.
  static func records(_ folder: SynthFolder, _ file: String) throws -> [DecisionRecord] {
    let (trace, diagnostics) = try TraceReader.read(
      path: file, data: Data(contentsOf: folder.url(file)))
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    guard case .decisions(let records) = trace.content else {
      Issue.record("\(file) is not read as a decision log")
      return []
    }
    return records
  }

  /// The mean of the chosen candidates' familiarity component (the log's `c[2]`).
  static func chosenFamiliarity(_ records: [DecisionRecord]) -> Double {
    let values = records.compactMap { record in
      record.candidates.first { $0.song == record.chosen }?.components.familiarity
    }
    return values.reduce(0, +) / Double(max(1, values.count))
  }

  @Test(
    "the months before the switch are byte for byte a plain run's; from it the DJ runs the file's settings, which its header states and its choices follow"
  )
  func switchAtAMonthsStart() throws {
    let plain = try SynthFolder(Self.threeMonths)
    var configuration = Self.threeMonths
    configuration.djPreferences = Self.tried
    configuration.djPreferencesSource = "tried.json"
    configuration.djFromMonth = (2022, 8)
    let switched = try SynthFolder(configuration)

    let logs = plain.files.filter { $0.hasPrefix("resonance/decisions/") }
    #expect(
      logs == ["2022-06", "2022-07", "2022-08"].map { "resonance/decisions/decisions-\($0).jsonl" })
    #expect(switched.files.filter { $0.hasPrefix("resonance/decisions/") } == logs)
    for file in logs.prefix(2) {
      #expect(
        try Data(contentsOf: plain.url(file)) == Data(contentsOf: switched.url(file)),
        "\(file) differs before the switch")
    }
    let august = logs[2]
    #expect(try Data(contentsOf: plain.url(august)) != Data(contentsOf: switched.url(august)))
    let before = try Self.records(plain, august)
    let after = try Self.records(switched, august)
    #expect(before.first?.preferences == .appDefault)
    #expect(after.first?.preferences == Self.tried, "the header states the file's settings")
    #expect(before.map(\.chosen) != after.map(\.chosen))
    // Familiarity weighs 0.9 of the five matches: the DJ reaches for familiar songs.
    #expect(Self.chosenFamiliarity(after) > Self.chosenFamiliarity(before) + 0.02)

    // Every decision replays under the settings its file states, across the switch.
    var records: [DecisionRecord] = []
    for file in logs { records += try Self.records(switched, file) }
    #expect(records.count == switched.history.decisions.count)
    let check = DecisionReplay.check(records)
    #expect(check.passed, "\(check.firstMismatch.map(\.detail) ?? "")")
    #expect(check.replayed == records.count)
    #expect(check.largestScoreDifference == 0)

    // The truth: the switch's day, the settings run from it, and the same value before it.
    let truth = try SynthTruth(json: Data(contentsOf: switched.url("truth.json")))
    let plainTruth = try SynthTruth(json: Data(contentsOf: plain.url("truth.json")))
    #expect(truth.generator.djFrom == "2022-08-01")
    #expect(truth.generator.djPreferences == "tried.json")
    #expect(truth.app.weights == Self.tried.weights)
    #expect(plainTruth.generator.djFrom == nil)
    #expect(truth.djMonths.map(\.month) == ["2022-06", "2022-07", "2022-08"])
    #expect(Array(truth.djMonths.prefix(2)) == Array(plainTruth.djMonths.prefix(2)))
    #expect(truth.djMonths[2] != plainTruth.djMonths[2])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: plain.url("truth.json")))
        as? [String: Any])
    let generator = try #require(object["generator"] as? [String: Any])
    #expect(generator["dj_from"] is NSNull, "dj_from is written as null when absent")
  }

  @Test(
    "the switch's month must start inside the period",
    arguments: [
      ((2022, 7), nil), ((2022, 8), nil),
      (
        (2022, 6),
        "'--dj-from' 2022-06-01 is outside the simulated period, 2022-06-15 to 2022-08-14"
      ),
      ((2022, 9), "outside the simulated period"), ((2021, 12), "outside the simulated period"),
    ] as [((Int, Int), String?)])
  func switchMonth(month: (Int, Int), problem: String?) {
    var configuration = SynthConfiguration()
    configuration.start = (2022, 6, 15)
    configuration.months = 2
    configuration.djFromMonth = month
    #expect(
      configuration.djFromDay
        == Timestamp.days(fromYear: Int64(month.0), month: Int64(month.1), day: 1))
    if let problem {
      #expect(configuration.dayProblem?.contains(problem) == true)
    } else {
      #expect(configuration.dayProblem == nil)
    }
  }
}
