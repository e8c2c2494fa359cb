import Foundation
import ResonanceLinear
import ResonanceModel
import Testing

@testable import ResonanceTuning

/// Forward chaining from one pass over the history (the kernel's linear sums, the fits from
/// each month's sums) against the reference that runs the kernel and fits the models again
/// for every fold over the months before it.
@Suite("Tuner: one pass over the history, the same answer as a pass per fold")
struct OnePassTests {
  /// Every number of `a` and `b`, encoded as JSON, within `tolerance` of each other
  /// (relative above 1), every string and flag equal; the paths that differ.
  static func differences(_ a: some Encodable, _ b: some Encodable, tolerance: Double = 1e-9)
    throws -> [String]
  {
    let encoder = JSONEncoder()
    let x = try JSONSerialization.jsonObject(with: encoder.encode(a))
    let y = try JSONSerialization.jsonObject(with: encoder.encode(b))
    var found: [String] = []
    func walk(_ x: Any, _ y: Any, _ path: String) {
      switch (x, y) {
      case (let x as [String: Any], let y as [String: Any]):
        for key in Set(x.keys).union(y.keys).sorted() {
          guard let u = x[key], let v = y[key] else {
            found.append("\(path).\(key): present on one side only")
            continue
          }
          walk(u, v, "\(path).\(key)")
        }
      case (let x as [Any], let y as [Any]):
        guard x.count == y.count else {
          found.append("\(path): \(x.count) against \(y.count) elements")
          return
        }
        for (i, (u, v)) in zip(x, y).enumerated() { walk(u, v, "\(path)[\(i)]") }
      case (let x as NSNumber, let y as NSNumber):
        let u = x.doubleValue
        let v = y.doubleValue
        if !(abs(u - v) <= tolerance * max(1, abs(u))) && !(u.isNaN && v.isNaN) {
          found.append("\(path): \(u) against \(v)")
        }
      case (let x as String, let y as String):
        if x != y { found.append("\(path): \(x) against \(y)") }
      default:
        if String(describing: x) != String(describing: y) {
          found.append("\(path): \(x) against \(y)")
        }
      }
    }
    walk(x, y, "")
    return found
  }

  static let planted = TuningWorld.history(
    days: TuningWorld.fiveMonths, perDay: 24, seed: 11, keepChance: TuningWorld.tempoMatters)

  @Test(
    "tune from one pass reports what a pass per fold does, to 1e-9: every fold's choice and gain, by context and temperature too",
    arguments: [Estimator.dr, .sndr])
  func sameReport(estimator: Estimator) throws {
    var settings = TuningWorld.settings
    // More points than one pass takes, so that the choice is carried from part to part.
    settings.design = SweepDesign(kind: .sobol, points: 150)
    settings.estimator = estimator
    settings.byContext = true
    settings.tuneTemperature = true
    let onePass = try Tuner.tune(Self.planted, settings: settings)
    var reference = settings
    reference.foldByFold = true
    let foldByFold = try Tuner.tune(Self.planted, settings: reference)
    #expect(try Self.differences(onePass, foldByFold) == [])
    // Not vacuous: points were chosen on the past and judged.
    #expect(onePass.folds.filter { $0.weights != nil }.count >= 2)
    #expect(onePass.forwardGain != nil)
  }

  @Test("a fold's reward models from the months' sums are the ones fitted on its decisions")
  func fitsFromSums() throws {
    var log = RewardModelTests.log()
    // The response measured in January and March only: February's model falls back to the
    // pooled fit when the fold holds January and February.
    let months = log.time.map(CalendarMonth.init)
    log.response = months.enumerated().map { d, m in m.month == 2 ? nil : Double(d % 9) }
    for reward in [Reward.keep, .composite, .response] {
      let sums = RewardModel.MonthSums(log, reward: reward)
      for count in 1...3 {
        let before = (0..<log.count).filter { months[$0] <= sums.months[count - 1] }
        let direct = try RewardModel.fit(
          log.chosenRows(before), reward: reward, predicts: false)
        let fromSums = try RewardModel.fit(sums, before: count)
        #expect(fromSums.months == direct.months)
        #expect(fromSums.trainingCounts == direct.trainingCounts)
        #expect(fromSums.monthsFittedOnAll == direct.monthsFittedOnAll)
        for (a, b) in zip(fromSums.fits + [fromSums.pooled], direct.fits + [direct.pooled]) {
          let x = [a.intercept ?? 0] + a.coefficients
          let y = [b.intercept ?? 0] + b.coefficients
          #expect(zip(x, y).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) }, "\(reward)")
        }
      }
    }
    #expect(
      try RewardModel.fit(RewardModel.MonthSums(log, reward: .response), before: 2)
        .monthsFittedOnAll == [CalendarMonth(year: 2024, month: 1)])
  }

  @Test(
    "the kernel's linear sums, projected by a model's fits, are its sums with the model's predictions"
  )
  func projection() throws {
    let log = RewardModelTests.log(seed: 9)
    let model = try RewardModel.fit(log, reward: .composite, predicts: false)
    let rewards = [Reward.composite.values(log)]
    let days = log.time.map(CalendarDay.init)
    let list = Array(Set(days)).sorted()
    let index = Dictionary(uniqueKeysWithValues: list.enumerated().map { ($1, $0) })
    let group = days.map { index[$0]! }
    let weights =
      SweepDesign(kind: .sobol, points: 20).weights() + [UserPreferences.appDefault.weights]
    let plain = SweepKernel.evaluate(
      SweepInput(log, rewards: rewards, models: [model], group: group, groups: list.count),
      weights: weights)
    let linear = SweepKernel.evaluate(
      SweepInput(linear: log, rewards: rewards, group: group, groups: list.count),
      weights: weights)
    let monthOfDay = list.map { day in
      let date = Timestamp.civil(fromDays: day.daysSinceEpoch)
      return CalendarMonth(year: date.year, month: date.month)
    }
    let projected = LinearSums.project(
      linear, groups: list.count,
      counts: LinearSums.oneHotCounts(
        log, count: log.count, reward: rewards[0], group: group, groups: list.count)
    ) { g in model.fits[model.months.firstIndex(of: monthOfDay[g])!] }
    #expect(projected.values.count == plain.values.count)
    let worst = zip(projected.values, plain.values).map { abs($0 - $1) / max(1, abs($1)) }.max()
    #expect(worst! < 1e-12)
    // The direct and doubly robust slots carry the model: they are not all zero.
    let slot = SweepTotals.commonFields + EstimatorSums.doublyRobust
    #expect(plain.values[slot] != 0)
  }
}
