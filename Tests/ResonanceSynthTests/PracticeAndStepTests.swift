import Foundation
import ResonanceModel
import Testing

@testable import ResonanceSynth

/// What `synth` plants for breathing practice and for `--step`, as docs/synth.md states it.
@Suite("synth: breathing practice and a sustained change")
struct PracticeAndStepTests {
  static let history: SynthHistory = {
    var configuration = SynthConfiguration()
    configuration.months = 3
    configuration.songs = 120
    configuration.seed = 5
    configuration.step = (2022, 7, 15)
    return LifeSimulator.run(configuration)
  }()

  @Test("each session's planted change is adherence × 4…12 ms, and the after reading carries it")
  func acute() {
    let sessions = Self.history.breathing
    #expect(sessions.count > 20)
    for s in sessions {
      #expect(
        s.plantedChange >= 4 * s.adherence - 1e-9 && s.plantedChange <= 12 * s.adherence + 1e-9)
    }
    // The after readings less the before ones average the planted change, within the
    // readings' noise (±3 ms each) and the body's own wander.
    let n = Double(sessions.count)
    let observed = sessions.reduce(0) { $0 + $1.hrvAfter - $1.hrvBefore } / n
    let planted = sessions.reduce(0) { $0 + $1.plantedChange } / n
    #expect(abs(observed - planted) < 2.5, "observed \(observed), planted \(planted)")
    // A session's day, as the analysis counts it (one started before 04:00 ends the evening
    // before, `PracticeStatistics.lateEveningHours`), is the day it was planted on — but for
    // the odd travel day, whose clock the person's plan and the data read differently.
    let seen = Set(sessions.map { Self.day($0.startMs - 4 * 3_600_000) })
    let agreeing = seen.intersection(Self.history.practiceDays).count
    #expect(Double(agreeing) >= 0.9 * Double(Self.history.practiceDays.count))
  }

  @Test("the night after practice is 5 ms higher and the next morning's resting record 1 bpm lower")
  func nextNight() {
    let history = Self.history
    let practised = history.practiceDays.first { !Physiology.stepped(history, day: $0) }!
    #expect(
      Physiology.restingRecord(history, day: practised + 1)
        == Physiology.restingHR(history, day: practised + 1) + Practice.morningRestingHRBPM)
    #expect(history.practiceDays.contains(practised))
    let quiet = (1..<history.days.count).first { !history.practiceDays.contains($0 - 1) }!
    #expect(
      Physiology.restingRecord(history, day: quiet) == Physiology.restingHR(history, day: quiet))
    // The truth's night effect is the planted 5 ms, scaled by the step's 0.8 after it.
    let night = Practice.nightSDNN(history)
    #expect(
      night < Practice.nightSDNNMs(history.configuration)
        && night > Practice.nightSDNNMs(history.configuration) * Physiology.Step.sdnnFactor)
  }

  @Test("--step raises resting heart rate by 3 bpm from its day on, and only from it")
  func step() {
    let history = Self.history
    let stepDay = Int(history.configuration.stepDay! - history.configuration.firstDay)
    #expect(!Physiology.stepped(history, day: stepDay - 1))
    #expect(Physiology.stepped(history, day: stepDay))
    var plain = history
    plain.configuration.step = nil
    #expect(
      abs(
        Physiology.restingHR(history, day: stepDay) - Physiology.restingHR(plain, day: stepDay) - 3)
        < 1e-9)
    #expect(
      Physiology.restingHR(history, day: stepDay - 1)
        == Physiology.restingHR(plain, day: stepDay - 1))
  }

  @Test("a step outside the period is a usage problem naming it")
  func stepOutside() {
    var configuration = SynthConfiguration()
    configuration.months = 1
    configuration.step = (2022, 8, 2)
    #expect(configuration.dayProblem?.contains("'--step' 2022-08-02 is outside") == true)
    configuration.step = (2022, 6, 20)
    #expect(configuration.dayProblem == nil)
  }

  static func day(_ ms: Int64) -> Int {
    let calendar = history.calendar
    return (0..<history.days.count).last { calendar.utcMs(day: $0, localMinutes: 0) <= ms }!
  }
}

@Suite("truth validation: breathing practice and sustained changes")
struct PracticeValidationTests {
  static func within(_ change: Double, _ low: Double, _ high: Double) -> PracticeEffects {
    PracticeEffects(
      withinSession: .init(
        sessions: 2, meanBefore: 50, meanAfter: 50 + change, change: change, low90: low,
        high90: high),
      days: [
        .init(
          outcome: "night_sdnn_ms", label: "n", unit: "ms", daysWith: 40, daysWithout: 50,
          meanWith: 65, meanWithout: 60, adjusted: 3.9, low90: 3.1, high90: 4.7),
        .init(
          outcome: "morning_resting_hr_bpm", label: "m", unit: "bpm", daysWith: 2,
          daysWithout: 50, meanWith: 57, meanWithout: 58),
      ], dose: nil)
  }

  @Test(
    "each practice estimate is judged against its own planted value; too few days is no verdict")
  func practice() throws {
    var truth = TruthValidationTests.truth(breathing: [
      .init(
        session: 1, file: "a", pattern: "box", started: "2024-01-01T08:00:00Z", adherence: 1,
        trueRateBpm: 6, pacerRateBpm: 6, expression: "calm", plantedSdnnChangeMs: 8),
      .init(
        session: 2, file: "b", pattern: "box", started: "2024-01-02T08:00:00Z", adherence: 0.5,
        trueRateBpm: 6, pacerRateBpm: 6, expression: "calm", plantedSdnnChangeMs: 2),
      .init(
        session: 3, file: "c", pattern: "box", started: "2024-01-03T08:00:00Z", adherence: 0.5,
        trueRateBpm: 6, pacerRateBpm: 6, expression: "calm", plantedSdnnChangeMs: 100),
    ])
    truth.practice = .init(acuteSdnnMs: 36.7, nightSdnnMs: 5, morningRestingHrBpm: -1)
    let result = BreathingResult(
      resonanceScore: nil, events: 0, matched: 0, breaths: 0, breathsPerMinute: nil,
      rateVariability: nil, pacerBreathsPerMinute: nil, phaseLocking: nil, lagSeconds: nil,
      inSyncShare: nil, coherence: nil, coherencePeakHz: nil, rsaAmplitude: nil, hrvBefore: 50,
      hrvAfter: 55, dominantExpression: nil, notes: [])
    var inputs = ValidationInputs(breathing: [
      .init(session: 1, result: result), .init(session: 2, result: result),
    ])
    inputs.practice = Self.within(5.5, 4, 7)
    let report = truth.validate(inputs)
    let effects = try #require(report.practice?.effects)
    // Only the stored sessions' planted changes count: (8 + 2) / 2 = 5.
    #expect(
      effects.map(\.name) == [
        "practice_acute_sdnn_ms", "practice_night_sdnn_ms", "practice_morning_resting_hr_bpm",
      ])
    #expect(effects[0].planted == 5 && effects[0].covered == true)
    #expect(effects[1].planted == 5 && effects[1].covered == false)
    #expect(effects[2].estimate == nil && effects[2].covered == nil)

    truth.practice = nil
    #expect(truth.validate(inputs).practice == nil)
  }

  @Test("a change is right within 14 days of the planted step, and only none is right without one")
  func changes() throws {
    var truth = TruthValidationTests.truth()
    func baseline(_ signal: SignalBaseline.Signal, flagged: String?) -> SignalBaseline {
      SignalBaseline(
        signal: signal, days: 300, current: nil, weeks: [],
        change: flagged.map {
          .init(
            day: CalendarDay($0)!, step: 3, low90: 2, high90: 4, statistic: 40, threshold: 14.5)
        }, searched: true)
    }
    var inputs = ValidationInputs()
    inputs.baselines = [
      baseline(.morningLnRMSSD, flagged: "2024-03-20"), baseline(.restingHeartRate, flagged: nil),
    ]
    truth.step = .init(date: "2024-03-01", restingHrBpm: 3, sdnnFactor: 0.8)
    let stepped = try #require(truth.validate(inputs).changes)
    #expect(stepped.findings.map { stepped.isRight($0) } == [false, false])  // 19 days off; none
    inputs.baselines[0] = baseline(.morningLnRMSSD, flagged: "2024-03-14")
    let near = try #require(truth.validate(inputs).changes)
    #expect(near.isRight(near.findings[0]))
    truth.step = nil
    let plain = try #require(truth.validate(inputs).changes)
    #expect(plain.findings.map { plain.isRight($0) } == [false, true])
  }
}
