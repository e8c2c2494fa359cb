import Foundation
import ResonanceModel

/// How `resonance tune` selects and judges (`docs/tuning.md`, "Honest selection").
package struct TuningSettings: Sendable, Equatable {
  package var design = SweepDesign(kind: .sobol, points: 1024)
  package var reward: Reward = .composite
  package var estimator: Estimator = .dr
  package var byContext = false
  /// The effective sample size the chosen preferences need on the held-out month.
  package var minimumESS = 200.0
  /// The interval's level; `change` needs its lower end above 0.
  package var level = 0.95
  package var bootstrapReplicates = 2000
  /// The bootstrap's seed: fixed, so a store always gives the same interval.
  package var bootstrapSeed: UInt64 = 0x7E57_5EED
  /// Calendar months of decisions tuning needs: two to choose on, one to judge on.
  package var minimumMonths = 3
  package var product: SweepKernel.Product = .simd

  package init() {}
}

/// Chooses preferences on the earlier months of the DJ's history and judges them on the last,
/// which selection never sees (`docs/tuning.md`).
///
/// 1. The months before the last are the selection months. Every design point and the
///    preferences in force are estimated on them (the reward model fitted on them alone,
///    cross-fitted by month). The candidate is the point with the largest gain over the
///    preferences in force among those whose effective sample size, scaled to one month like
///    the held-out one, is at least `minimumESS`.
/// 2. Forward-chaining folds: for each selection month after the first, the same rule on the
///    months before it, judged on it — how well choosing on the past predicted the next month.
/// 3. The last month: the candidate and the preferences in force, estimated on its decisions
///    (its rows predicted by the selection months' pooled model), paired decision by decision;
///    the interval is a bootstrap over its days (seeded). `change` when the interval's lower
///    end is above 0 and the candidate's effective sample size there is at least
///    `minimumESS`; otherwise `keep`, with the reason.
package enum Tuner {
  package static func tune(_ history: DecisionHistory, settings: TuningSettings) throws(TuningError)
    -> TuningReport
  {
    let check = DecisionReplay.check(history.records)
    let replay = ReplaySummary(
      replayed: check.replayed, byVersion: check.byVersion,
      notReplayable: Dictionary(
        uniqueKeysWithValues: check.notReplayable.map { ($0.key.rawValue, $0.value) }),
      largestScoreDifference: check.largestScoreDifference,
      largestPropensityRelativeDifference: check.largestPropensityRelativeDifference,
      firstMismatch: check.firstMismatch.map(Self.describe))
    let assembled = DecisionLogAssembler.assemble(history)
    let log = assembled.decisions
    let inForce =
      DecisionReplay.preferencesInForce(history.records).last.flatMap { $0 }
      ?? UserPreferences.appDefault
    let points = [inForce.weights] + settings.design.weights()
    var report = TuningReport(
      recommendation: .keep, reason: "", inForce: inForce, recommended: inForce,
      candidate: nil, reward: settings.reward.rawValue, estimator: settings.estimator.rawValue,
      design: Self.describe(settings.design), designPoints: points.count - 1,
      decisions: log.count, months: [], from: log.time.first.map(Self.date),
      to: log.time.last.map(Self.date),
      excluded: Dictionary(
        uniqueKeysWithValues: assembled.excluded.map { ($0.key.rawValue, $0.value) }),
      replay: replay, selectionGain: nil, selectionESS: nil, folds: [], heldOut: nil,
      contexts: [], pairwise: nil, bootstrapReplicates: settings.bootstrapReplicates,
      minimumESS: settings.minimumESS, level: settings.level)

    guard !history.records.isEmpty else {
      report.reason =
        "no decision log: the store holds no DJ decisions, so no preferences can be judged"
      return report
    }
    guard log.count > 0 else {
      report.reason =
        "none of the \(history.records.count) logged decisions can be evaluated (see excluded)"
      return report
    }
    let monthOf = log.time.map(CalendarMonth.init)
    let months = Array(Set(monthOf)).sorted()
    report.months = months.map(\.description)
    guard months.count >= settings.minimumMonths else {
      report.reason =
        "too little history: the decisions span \(months.count) month\(months.count == 1 ? "" : "s"); "
        + "tuning needs \(settings.minimumMonths), to choose on the earlier and judge on the last"
      return report
    }

    // Groups: month × context, so one pass of the kernel serves every question below.
    let contexts = ActivityContext.allCases
    let monthIndex = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
    let group = (0..<log.count).map {
      monthIndex[monthOf[$0]]! * contexts.count + contexts.firstIndex(of: log.context[$0])!
    }
    let held = months.count - 1
    let selection = (0..<log.count).filter { monthIndex[monthOf[$0]]! < held }
    let heldOut = (0..<log.count).filter { monthIndex[monthOf[$0]]! == held }
    let selectionLog = log.subset(selection)
    let heldLog = log.subset(heldOut)

    // Reward models fitted on the selection months alone; the held-out month's rows are
    // predicted by their pooled fit.
    let rewards = settings.reward == .keep ? [Reward.keep] : [settings.reward, .keep]
    var models: [RewardModel] = []
    for reward in rewards { models.append(try RewardModel.fit(selectionLog, reward: reward)) }
    var predictions = models.map { _ in [Double](repeating: 0, count: log.rows) }
    let heldModels = models.map { $0.predicting(heldLog) }
    for (k, model) in models.enumerated() {
      for (i, d) in selection.enumerated() {
        let from = selectionLog.rows(of: i)
        predictions[k].replaceSubrange(log.rows(of: d), with: model.predictions[from])
      }
      for (i, d) in heldOut.enumerated() {
        predictions[k].replaceSubrange(
          log.rows(of: d), with: heldModels[k].predictions[heldLog.rows(of: i)])
      }
    }
    let input = SweepInput(
      log, rewards: rewards.map { $0.values(log) }, predictions: predictions, group: group,
      groups: months.count * contexts.count)
    let totals = SweepKernel.evaluate(input, weights: points, product: settings.product)

    func groups(months range: Range<Int>, context: Int? = nil) -> [Int] {
      range.flatMap { m in
        (0..<contexts.count).filter { context == nil || $0 == context }.map {
          m * contexts.count + $0
        }
      }
    }
    /// The best point on `groups` by the rule, with its gain and ESS: the largest gain over
    /// the preferences in force among the points whose effective sample size is at least
    /// `minimumESS` in every month of `groups` (scaled by the month's size against the
    /// held-out month's, `scale`), so that the held-out month, too, is likely to support it.
    func choose(_ chosenGroups: [Int], scale: [Int: Double]) -> (
      point: Int, gain: Double, ess: Double
    )? {
      guard
        let base = totals.estimate(
          point: 0, reward: 0, estimator: settings.estimator, groups: chosenGroups
        ).value
      else { return nil }
      let byMonth = Dictionary(grouping: chosenGroups) { $0 / contexts.count }
      var best: (point: Int, gain: Double, ess: Double)?
      for p in 1..<points.count {
        let e = totals.estimate(
          point: p, reward: 0, estimator: settings.estimator, groups: chosenGroups)
        guard let value = e.value, value - base > (best?.gain ?? 0) else { continue }
        let supported = byMonth.allSatisfy { month, monthGroups in
          let ess = totals.estimate(
            point: p, reward: 0, estimator: settings.estimator, groups: monthGroups
          ).effectiveSampleSize
          return ess >= settings.minimumESS * (scale[month] ?? 1)
        }
        if supported { best = (p, value - base, e.effectiveSampleSize) }
      }
      return best
    }
    func gain(point p: Int, on chosenGroups: [Int]) -> Double? {
      guard
        let a = totals.estimate(
          point: p, reward: 0, estimator: settings.estimator, groups: chosenGroups
        ).value,
        let b = totals.estimate(
          point: 0, reward: 0, estimator: settings.estimator, groups: chosenGroups
        ).value
      else { return nil }
      return a - b
    }

    // Forward-chaining folds within the selection months.
    let perMonth = months.indices.map { m in monthOf.filter { monthIndex[$0]! == m }.count }
    /// A month's size against another's: the ESS a month needs scales with its decisions.
    func scales(_ range: Range<Int>, against month: Int) -> [Int: Double] {
      Dictionary(
        uniqueKeysWithValues: range.map { ($0, Double(perMonth[$0]) / Double(perMonth[month])) })
    }
    for j in 1..<held {
      let pick = choose(groups(months: 0..<j), scale: scales(0..<j, against: j))
      report.folds.append(
        TuningFold(
          month: months[j].description, decisions: perMonth[j],
          gain: pick.flatMap { gain(point: $0.point, on: groups(months: j..<(j + 1))) }))
    }

    // Selection on every month before the last.
    guard let pick = choose(groups(months: 0..<held), scale: scales(0..<held, against: held))
    else {
      report.reason =
        "no preferences in the design did better than those in force on the selection months "
        + "(\(months[0])…\(months[held - 1])) with enough support"
      return report
    }
    let candidate = inForce.with(weights: points[pick.point])
    report.candidate = candidate
    report.selectionGain = pick.gain
    report.selectionESS = pick.ess

    // The held-out month.
    let evidence = try judge(
      candidate, against: inForce, on: heldLog, month: months[held].description,
      models: heldModels, rewards: rewards, settings: settings, level: settings.level)
    report.heldOut = evidence
    let interval = evidence.gain
    if interval.lower > 0, evidence.effectiveSampleSize >= settings.minimumESS {
      report.recommendation = .change
      report.recommended = candidate
      report.reason =
        "on \(months[held]), which selection never saw, the chosen preferences gain "
        + "\(Self.signed(interval.estimate)) in \(settings.reward.rawValue) "
        + "(\(Self.percent(settings.level)) interval \(Self.signed(interval.lower)) … "
        + "\(Self.signed(interval.upper))) with an effective sample size of "
        + "\(Int(evidence.effectiveSampleSize.rounded()))"
    } else if evidence.effectiveSampleSize < settings.minimumESS {
      report.reason =
        "the chosen preferences' effective sample size on \(months[held]) is "
        + "\(Int(evidence.effectiveSampleSize.rounded())), under \(Int(settings.minimumESS)): "
        + "the log says too little about them"
    } else {
      report.reason =
        "on \(months[held]) the gain's \(Self.percent(settings.level)) interval "
        + "(\(Self.signed(interval.lower)) … \(Self.signed(interval.upper))) reaches 0 or below: "
        + "the data do not show the chosen preferences doing better"
    }

    if settings.byContext {
      report.contexts = try byContext(
        log: log, heldOut: heldOut, selection: selection, months: months, held: held,
        contexts: contexts, points: points, inForce: inForce, models: heldModels,
        rewards: rewards, settings: settings, choose: choose, groups: groups)
    }
    return report
  }

  /// The candidate against the preferences in force on one held-out log: paired estimates,
  /// the day bootstrap, the diagnostics and the clipping table.
  private static func judge(
    _ candidate: UserPreferences, against inForce: UserPreferences, on log: LoggedDecisions,
    month: String, models: [RewardModel], rewards: [Reward], settings: TuningSettings,
    level: Double
  ) throws(TuningError) -> HeldOutEvidence {
    let evaluator = try OffPolicyEvaluator(log, reward: rewards[0], rewardModel: models[0])
    let chosen = evaluator.estimate(candidate, estimator: settings.estimator)
    let current = evaluator.estimate(inForce, estimator: settings.estimator)
    let interval = bootstrap(
      chosen, current, days: chosen.decisions.map { CalendarDay(log.time[$0]) },
      settings: settings, level: level)
    let clipping = OffPolicyEvaluator.clippingThresholds.map { threshold in
      HeldOutEvidence.ClippedGain(
        threshold: threshold,
        gain: evaluator.estimate(candidate, estimator: settings.estimator, clipping: threshold)
          .value.flatMap { a in
            evaluator.estimate(inForce, estimator: settings.estimator, clipping: threshold)
              .value.map { a - $0 }
          })
    }
    var keepChange: Double?
    if let k = rewards.firstIndex(of: .keep) {
      let keep = try OffPolicyEvaluator(log, reward: .keep, rewardModel: models[k])
      if let a = keep.estimate(candidate, estimator: settings.estimator).value,
        let b = keep.estimate(inForce, estimator: settings.estimator).value
      {
        keepChange = 100 * (a - b)
      }
    }
    return HeldOutEvidence(
      month: month, decisions: log.count, inForceValue: current.value ?? .nan,
      chosenValue: chosen.value ?? .nan, gain: interval,
      effectiveSampleSize: chosen.diagnostics.effectiveSampleSize,
      largestWeight: chosen.diagnostics.largestWeight,
      agreementShare: chosen.diagnostics.agreementShare, clipping: clipping,
      keepChangePer100: keepChange)
  }

  /// The paired gain `a − b` with a percentile interval from resampling whole days (each
  /// replicate draws as many days as there are, with replacement).
  package static func bootstrap(
    _ a: PolicyEstimate, _ b: PolicyEstimate, days: [CalendarDay], settings: TuningSettings,
    level: Double
  ) -> TuningEvidence.Interval {
    precondition(a.decisions == b.decisions, "paired estimates cover the same decisions")
    let estimate = (a.value ?? .nan) - (b.value ?? .nan)
    var positionsByDay: [CalendarDay: [Int]] = [:]
    for (i, day) in days.enumerated() { positionsByDay[day, default: []].append(i) }
    let dayList = positionsByDay.keys.sorted()
    guard dayList.count > 1 else {
      return .init(estimate: estimate, lower: .nan, upper: .nan, level: level)
    }
    var rng = SplitMix64(seed: settings.bootstrapSeed, stream: "tune-bootstrap")
    var gains: [Double] = []
    gains.reserveCapacity(settings.bootstrapReplicates)
    var positions: [Int] = []
    for _ in 0..<settings.bootstrapReplicates {
      positions.removeAll(keepingCapacity: true)
      for _ in dayList.indices {
        positions += positionsByDay[dayList[Int(rng.next() % UInt64(dayList.count))]]!
      }
      if let x = a.value(over: positions), let y = b.value(over: positions) {
        gains.append(x - y)
      }
    }
    gains.sort()
    let tail = (1 - level) / 2
    return .init(
      estimate: estimate, lower: quantile(gains, tail), upper: quantile(gains, 1 - tail),
      level: level)
  }

  /// The q-quantile of sorted values, interpolated linearly between order statistics.
  static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let position = q * Double(sorted.count - 1)
    let i = Int(position.rounded(.down))
    let j = min(sorted.count - 1, i + 1)
    return sorted[i] + (position - Double(i)) * (sorted[j] - sorted[i])
  }

  /// `--by-context`: each context with enough held-out decisions chooses on its own selection
  /// decisions and is judged on its own held-out ones at level 1 − 0.05/k for the k tried.
  private static func byContext(
    log: LoggedDecisions, heldOut: [Int], selection: [Int], months: [CalendarMonth], held: Int,
    contexts: [ActivityContext], points: [ScoringWeights], inForce: UserPreferences,
    models: [RewardModel], rewards: [Reward], settings: TuningSettings,
    choose: ([Int], [Int: Double]) -> (point: Int, gain: Double, ess: Double)?,
    groups: (Range<Int>, Int?) -> [Int]
  ) throws(TuningError) -> [ContextTuning] {
    let heldLog = log.subset(heldOut)
    var results: [ContextTuning] = []
    var tried: [Int] = []
    for (c, context) in contexts.enumerated() {
      let heldCount = heldOut.filter { log.context[$0] == context }.count
      let selectionCount = selection.filter { log.context[$0] == context }.count
      if heldCount < Int(settings.minimumESS) {
        results.append(
          ContextTuning(
            context: context.rawValue, decisions: selectionCount + heldCount,
            heldOutDecisions: heldCount, weights: nil, gain: nil, effectiveSampleSize: nil,
            claimed: false,
            reason:
              "\(heldCount) held-out decisions, fewer than the \(Int(settings.minimumESS)) "
              + "effective ones the bar needs: not tried"))
      } else {
        tried.append(c)
        results.append(
          ContextTuning(
            context: context.rawValue, decisions: selectionCount + heldCount,
            heldOutDecisions: heldCount, weights: nil, gain: nil, effectiveSampleSize: nil,
            claimed: false, reason: ""))
      }
    }
    let level = 1 - (1 - settings.level) / Double(max(1, tried.count))
    for c in tried {
      let context = contexts[c]
      let rows = heldOut.indices.filter { log.context[heldOut[$0]] == context }
      let contextLog = heldLog.subset(rows)
      // Each month's share of the context's decisions against the held-out month's.
      var scale: [Int: Double] = [:]
      for m in 0..<held {
        let inMonth = selection.filter {
          log.context[$0] == context && CalendarMonth(log.time[$0]) == months[m]
        }.count
        scale[m] = Double(inMonth) / Double(rows.count)
      }
      guard let pick = choose(groups(0..<held, c), scale) else {
        results[c].reason = "no preferences did better on its selection months"
        continue
      }
      let candidate = inForce.with(weights: points[pick.point])
      let contextModels = models.map { $0.predicting(contextLog) }
      let evidence = try judge(
        candidate, against: inForce, on: contextLog, month: months[held].description,
        models: contextModels, rewards: rewards, settings: settings, level: level)
      results[c].weights = points[pick.point]
      results[c].gain = evidence.gain
      results[c].effectiveSampleSize = evidence.effectiveSampleSize
      results[c].claimed =
        evidence.gain.lower > 0 && evidence.effectiveSampleSize >= settings.minimumESS
      results[c].reason =
        results[c].claimed
        ? "held-out gain \(signed(evidence.gain.estimate)), \(percent(level)) interval above 0"
        : evidence.effectiveSampleSize < settings.minimumESS
          ? "effective sample size \(Int(evidence.effectiveSampleSize.rounded())) under "
            + "\(Int(settings.minimumESS))"
          : "the \(percent(level)) interval reaches 0 or below"
    }
    return results
  }

  // MARK: - Words

  static func describe(_ mismatch: ReplayMismatch) -> String {
    "decision \(mismatch.decision) at \(mismatch.time.iso8601UTC) (log version "
      + "\(mismatch.version)): \(mismatch.detail)"
  }

  static func describe(_ design: SweepDesign) -> String {
    switch design.kind {
    case .sobol: "sobol (\(design.points) points)"
    case .random: "random (\(design.points) points, seed \(design.seed))"
    case .grid: "grid, step \(design.step) (\(design.count) points)"
    }
  }

  static func date(_ time: Timestamp) -> String {
    let day = Timestamp.civil(fromDays: CalendarDay(time).daysSinceEpoch)
    return String(format: "%04d-%02d-%02d", Int(day.year), Int(day.month), Int(day.day))
  }

  static func signed(_ x: Double) -> String {
    x.isNaN ? "n/a" : (x >= 0 ? "+" : "−") + String(format: "%.4f", abs(x))
  }

  static func percent(_ level: Double) -> String {
    let value = level * 100
    return value == value.rounded() ? "\(Int(value))%" : String(format: "%.2f%%", value)
  }
}
