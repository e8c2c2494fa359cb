import Foundation
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
  package static func sweep(
    _ history: DecisionHistory, design: SweepDesign, reward: Reward, estimator: Estimator,
    product: SweepKernel.Product = .simd
  ) throws(TuningError) -> SweepResult {
    let assembled = DecisionLogAssembler.assemble(history)
    let log = assembled.decisions
    guard log.count > 0 else {
      throw TuningError(
        .noMeasuredReward,
        history.records.isEmpty
          ? "no decision log: the store holds no DJ decisions"
          : "none of the \(history.records.count) logged decisions can be evaluated")
    }
    let inForce =
      DecisionReplay.preferencesInForce(history.records).last.flatMap { $0 }
      ?? UserPreferences.appDefault
    var rewards: [Reward] = [reward]
    for extra in [Reward.keep, .response] where !rewards.contains(extra) { rewards.append(extra) }
    var models: [RewardModel] = []
    var used: [Reward] = []
    for r in rewards {
      do {
        models.append(try RewardModel.fit(log, reward: r))
        used.append(r)
      } catch  where error.kind == .noMeasuredReward && r != reward {
        continue  // no response measured (no Watch data): that axis stays empty
      }
    }
    let points = [inForce.weights] + design.weights()
    let input = SweepInput(
      log, rewards: used.map { $0.values(log) }, predictions: models.map(\.predictions),
      group: .init(repeating: 0, count: log.count), groups: 1)
    let started = Date()
    let totals = SweepKernel.evaluate(input, weights: points, product: product)
    let seconds = Date().timeIntervalSince(started)
    let keepIndex = used.firstIndex(of: .keep)
    let responseIndex = used.firstIndex(of: .response)
    var results = points.indices.map { p -> SweepPoint in
      let main = totals.estimate(point: p, reward: 0, estimator: estimator)
      return SweepPoint(
        index: p, label: p == 0 ? "in force" : nil, weights: points[p], value: main.value,
        keepRate: keepIndex.flatMap {
          totals.estimate(point: p, reward: $0, estimator: estimator).value
        },
        response: responseIndex.flatMap {
          totals.estimate(point: p, reward: $0, estimator: estimator).value
        },
        effectiveSampleSize: main.effectiveSampleSize, largestWeight: main.largestWeight,
        agreementShare: main.agreementShare)
    }
    markPareto(&results)
    return SweepResult(
      design: Tuner.describe(design), reward: reward.rawValue, estimator: estimator.rawValue,
      decisions: log.count, from: log.time.first.map(Tuner.date),
      to: log.time.last.map(Tuner.date), points: results, kernelSeconds: seconds,
      product: product.rawValue)
  }

  /// Marks the points no other point dominates on (keep rate, response): sorted by keep rate
  /// descending, a point is on the front when its response beats every point before it.
  /// Points without both figures are never on it.
  package static func markPareto(_ points: inout [SweepPoint]) {
    let order = points.indices.filter {
      points[$0].keepRate != nil && points[$0].response != nil
    }.sorted {
      let (a, b) = (points[$0], points[$1])
      return a.keepRate! != b.keepRate! ? a.keepRate! > b.keepRate! : a.response! > b.response!
    }
    var best = -Double.infinity
    for i in order where points[i].response! > best {
      points[i].isPareto = true
      best = points[i].response!
    }
  }
}
