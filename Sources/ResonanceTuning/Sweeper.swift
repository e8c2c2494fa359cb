import Foundation
import ResonanceBrain
import ResonanceModel

/// `resonance sweep`: every point of a design estimated on the whole decision history, for
/// exploring (`docs/tuning.md`, "The sweep"). Nothing is held out here, so a sweep's best point
/// is an optimistic figure: the optimizer's curse. `Tuner` is what decides.
package enum Sweeper {
  /// Estimates the preferences in force (point 0) and every design point for `reward`, the
  /// keep rate and the physiological response, and marks the Pareto front of keep rate
  /// against response.
  ///
  /// - Throws: `TuningError` when the history has no usable decision or a reward model cannot
  ///   be fitted.
  ///
  /// With `intervals`, every point's value also gets a 90% percentile interval from 1,000
  /// circular block bootstrap resamples of the days, in blocks of a week (`DayBlocks`; seeded,
  /// the same resamples for every point): the kernel keeps its sums per day, and a resample
  /// adds the drawn days' sums.
  package static func sweep(
    _ history: DecisionHistory, design: SweepDesign, reward: Reward, estimator: Estimator,
    product: SweepProduct = .simd, intervals: Bool = false,
    progress: any StageProgress = SilentProgress()
  ) throws(TuningError) -> SweepResult {
    try sweep(
      ReplayedLog(history, replays: false), design: design, reward: reward, estimator: estimator,
      product: product, intervals: intervals, progress: progress)
  }

  /// Sweeps a history already assembled, read a stretch at a time (`ReplayedLog`): what
  /// `sweep(_:design:reward:estimator:product:intervals:progress:)` finds for the same
  /// history. The sweep reads no replay: it estimates whatever the log holds.
  package static func sweep(
    _ replayed: ReplayedLog, design: SweepDesign, reward: Reward, estimator: Estimator,
    product: SweepProduct = .simd, intervals: Bool = false,
    progress: any StageProgress = SilentProgress()
  ) throws(TuningError) -> SweepResult {
    let records = replayed.records
    let inForce = replayed.inForce
    let assembled = try replayed.assembled()
    let log = assembled.decisions
    guard log.count > 0 else {
      throw TuningError(
        .noMeasuredReward,
        records == 0
          ? "no decision log: the store holds no DJ decisions"
          : "none of the \(records) logged decisions can be evaluated")
    }
    var rewards: [Reward] = [reward]
    for extra in [Reward.keep, .response] where !rewards.contains(extra) { rewards.append(extra) }
    var models: [RewardModel] = []
    var used: [Reward] = []
    progress.begin("sweep: reward models", total: Int64(rewards.count), unit: .items("models"))
    for (i, r) in rewards.enumerated() {
      defer { progress.advance(to: Int64(i + 1)) }
      do {
        models.append(try RewardModel.fit(log, reward: r, predicts: false))
        used.append(r)
      } catch  where error.kind == .noMeasuredReward && r != reward {
        continue  // no response measured (no Watch data): that axis stays empty
      } catch {
        progress.end()
        throw error
      }
    }
    progress.end()
    // Sums per day for the intervals, and for Switch-DR and DRos, whose parameter SLOPE
    // chooses per point from the spread of the days.
    let byDay = intervals || estimator.isTuned
    let days = log.time.map(CalendarDay.init)
    let dayList = byDay ? Array(Set(days)).sorted() : []
    let dayIndex = Dictionary(uniqueKeysWithValues: dayList.enumerated().map { ($1, $0) })
    let blocks = byDay ? DayBlocks(dayList) : nil
    let input = SweepInput(
      log, rewards: used.map { $0.values(log) }, models: models,
      group: byDay ? days.map { dayIndex[$0]! } : .init(repeating: 0, count: log.count),
      groups: byDay ? dayList.count : 1, grid: estimator.isTuned)
    // Every design point is as greedy as the preferences in force (`Greediness`).
    let points = progress.step("sweep: matching greediness", total: nil, unit: .items("")) {
      [inForce.weights] + Greediness(input).matched(design.weights(), to: inForce.weights)
    }
    let started = Date()
    let totals = progress.step(
      "sweep: \(points.count) points over \(log.count) decisions", total: Int64(log.count),
      unit: .items("decisions")
    ) {
      SweepKernel.evaluate(input, weights: points, product: product) { done, total in
        progress.advance(to: Int64(done) * Int64(log.count) / Int64(max(total, 1)))
      }
    }
    let seconds = Date().timeIntervalSince(started)
    let keepIndex = used.firstIndex(of: .keep)
    let responseIndex = used.firstIndex(of: .response)
    var results = points.indices.map { p -> SweepPoint in
      let main = totals.estimate(point: p, reward: 0, estimator: estimator, days: blocks)
      return SweepPoint(
        index: p, label: p == 0 ? "in force" : nil, weights: points[p], value: main.value,
        keepRate: keepIndex.flatMap {
          totals.estimate(point: p, reward: $0, estimator: estimator, days: blocks).value
        },
        response: responseIndex.flatMap {
          totals.estimate(point: p, reward: $0, estimator: estimator, days: blocks).value
        },
        effectiveSampleSize: main.effectiveSampleSize, largestWeight: main.largestWeight,
        agreementShare: main.agreementShare)
    }
    if intervals {
      let resamples = dayResamples(DayBlocks(dayList), replicates: 1_000)
      progress.begin(
        "sweep: intervals, 1,000 resamples of weeks", total: Int64(results.count),
        unit: .items("points"))
      defer { progress.end() }
      for p in results.indices {
        defer { progress.advance(to: Int64(p + 1)) }
        // Switch-DR and DRos keep the parameter chosen on the whole log.
        let form = totals.form(
          point: p, reward: 0, estimator: estimator, groups: Array(0..<totals.groups),
          days: blocks)
        var values: [Double] = []
        for counts in resamples {
          let chosen = counts.indices.flatMap { d in repeatElement(d, count: counts[d]) }
          if let v = totals.estimate(point: p, reward: 0, form: form, groups: chosen).value {
            values.append(v)
          }
        }
        values.sort()
        results[p].lower = Statistics.quantile(values, 0.05)
        results[p].upper = Statistics.quantile(values, 0.95)
      }
    }
    markPareto(&results)
    var result = SweepResult(
      design: design, reward: reward, estimator: estimator, decisions: log.count,
      from: log.time.first.map { CalendarDay($0).description },
      to: log.time.last.map { CalendarDay($0).description }, points: results,
      kernelSeconds: seconds, product: product)
    if assembled.clippedPropensities > 0 {
      result.clippedPropensities = assembled.clippedPropensities
    }
    return result
  }

  /// Circular block bootstrap resamples of the days `blocks` lists (`DayBlocks.resample`):
  /// how many times each day is drawn, per replicate.
  static func dayResamples(_ blocks: DayBlocks, replicates: Int) -> [[Int]] {
    var rng = SplitMix64(seed: 0x5EED_DA15, stream: "sweep-bootstrap")
    let all = Array(blocks.days.indices)
    return (0..<replicates).map { _ in blocks.resample(all, rng: &rng) }
  }

  /// Marks the points no other point dominates on (keep rate, response): no other point is at
  /// least as good on both and better on one. Sorted by keep rate, descending, a point is on
  /// the front when its response is the largest among the points of its keep rate and above
  /// every response of a higher keep rate (so equal points are on it together). Points
  /// without both figures are never on it.
  package static func markPareto(_ points: inout [SweepPoint]) {
    let order = points.indices.filter {
      points[$0].keepRate != nil && points[$0].response != nil
    }.sorted { points[$0].keepRate! > points[$1].keepRate! }
    var bestAbove = -Double.infinity
    var i = 0
    while i < order.count {
      var j = i
      while j < order.count, points[order[j]].keepRate! == points[order[i]].keepRate! { j += 1 }
      let group = order[i..<j]
      let top = group.map { points[$0].response! }.max()!
      if top > bestAbove {
        for k in group where points[k].response! == top { points[k].isPareto = true }
      }
      bestAbove = max(bestAbove, top)
      i = j
    }
  }

}
