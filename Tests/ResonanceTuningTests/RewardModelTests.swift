import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Reward model: ridge on the chosen rows, cross-fitted by month")
struct RewardModelTests {
  /// A 90-day log from 2024-01-01: January, February and March.
  static func log(seed: UInt64 = 5) -> LoggedDecisions {
    SyntheticLogs.engineLog(
      count: 600, preferences: .appDefault,
      policy: LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0), days: 90, seed: seed)
  }

  @Test("a month's rows are predicted without its own decisions")
  func crossFitting() throws {
    var log = Self.log()
    let february = CalendarMonth(year: 2024, month: 2)
    let months = log.time.map(CalendarMonth.init)
    // Every February song was kept, every other month's skipped.
    log.kept = months.map { $0 == february }
    let model = try RewardModel.fit(log, reward: .keep)
    #expect(model.months.map(\.description) == ["2024-01", "2024-02", "2024-03"])
    #expect(model.isCrossFitted)
    #expect(model.monthsFittedOnAll.isEmpty)
    let counts = Dictionary(grouping: months, by: { $0 }).mapValues(\.count)
    #expect(model.trainingCounts == model.months.map { log.count - counts[$0]! })
    var others = [Double]()
    for d in 0..<log.count {
      for r in log.rows(of: d) {
        if months[d] == february {
          // Fitted on January and March only, where nothing was kept.
          #expect(abs(model.predictions[r]) < 1e-9)
        } else {
          others.append(model.predictions[r])
        }
      }
    }
    // January's and March's models saw February's keeps.
    let mean = others.reduce(0, +) / Double(others.count)
    #expect(mean > 0.2 && mean < 0.8)
  }

  @Test("with one month there is nothing to cross-fit on, and the model says so")
  func oneMonth() throws {
    let log = SyntheticLogs.engineLog(
      count: 100, preferences: .appDefault,
      policy: LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0), days: 20, seed: 2)
    let model = try RewardModel.fit(log, reward: .composite)
    #expect(model.months == [CalendarMonth(year: 2024, month: 1)])
    #expect(model.isCrossFitted == false)
    #expect(model.monthsFittedOnAll == model.months)
    #expect(model.predictions.count == log.rows)
    #expect(model.fits.count == 1 && model.fits[0] == model.pooled)
  }

  @Test("a month whose other months measured nothing falls back to the fit on all, and says so")
  func pooledFallback() throws {
    var log = Self.log()
    let january = CalendarMonth(year: 2024, month: 1)
    let months = log.time.map(CalendarMonth.init)
    log.response = months.map { $0 == january ? 4 : nil }
    let model = try RewardModel.fit(log, reward: .response)
    #expect(model.monthsFittedOnAll == [january])
    #expect(model.isCrossFitted == false)
  }

  @Test("no measured reward is an error, not a model")
  func nothingMeasured() {
    var log = Self.log()
    log.sessionQuality = log.sessionQuality.map { _ in nil }
    #expect(throws: TuningError.self) { try RewardModel.fit(log, reward: .sessionQuality) }
    do {
      _ = try RewardModel.fit(log, reward: .sessionQuality)
    } catch {
      #expect(error.kind == .noMeasuredReward)
    }
  }

  @Test("months are the person's local months, not UTC's")
  func localMonths() {
    // 2024-02-01T03:00Z is still 31 January at UTC−7.
    let t = Timestamp(millisecondsSinceEpoch: 1_706_756_400_000, utcOffsetSeconds: -25_200)
    #expect(CalendarMonth(t) == CalendarMonth(year: 2024, month: 1))
    #expect(CalendarMonth(Timestamp(millisecondsSinceEpoch: 1_706_756_400_000)).month == 2)
    #expect(CalendarMonth(year: 2023, month: 12) < CalendarMonth(year: 2024, month: 1))
  }
}
