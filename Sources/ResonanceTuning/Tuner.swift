import Foundation
import ResonanceBrain
import ResonanceModel

/// How `resonance tune` selects and judges (`docs/tuning.md`, "Honest selection").
package struct TuningSettings: Sendable, Equatable {
  package var design = SweepDesign(kind: .sobol, points: 1024)
  package var reward: Reward = .composite
  package var estimator: Estimator = .dr
  package var byContext = false
  /// The effective sample size the chosen preferences need on the held-out month.
  package var minimumESS = 200.0
  /// The interval's level; `change` needs its lower end above `margin`.
  package var level = 0.95
  /// The least gain worth a change, on the reward's 0 … 1 scale: the held-out interval's
  /// lower end must clear it. Off-policy estimates hold the history fixed, and on simulated
  /// people they run about 0.01 above what the closed loop delivers
  /// (`docs/validation.md`, "Tuning"), so a smaller gain is not evidence.
  package var margin = 0.01
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
/// 1. The months before the last are the selection months. Every design point (rescaled to
///    the score spread of the preferences in force) and the preferences in force are
///    estimated on them (the reward model fitted on them alone, cross-fitted by month). The
///    candidate is the point whose paired gain over the preferences in force has the largest
///    lower one-sided 95% bound (standard error from the days), when that bound is above
///    `margin`,
///    among the points whose effective sample size in every month, scaled to the held-out
///    month's size, is at least `minimumESS`.
/// 2. Forward-chaining folds: for each selection month after the first, the same rule on the
///    months before it, judged on it — how well choosing on the past predicted the next month.
/// 3. The last month: the candidate and the preferences in force, estimated on its decisions
///    (its rows predicted by the selection months' pooled model), paired decision by decision;
///    the interval is a bootstrap over its days (seeded). `change` when the interval's lower
///    end is above `margin` and the candidate's effective sample size there is at least
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
    var report = TuningReport(
      recommendation: .keep, reason: "", inForce: .appDefault, recommended: .appDefault,
      candidate: nil, reward: settings.reward.rawValue, estimator: settings.estimator.rawValue,
      design: Self.describe(settings.design), designPoints: settings.design.count,
      decisions: 0, months: [], from: nil, to: nil, excluded: [:], replay: replay,
      selectionGain: nil, selectionESS: nil, folds: [], heldOut: nil, contexts: [],
      pairwise: nil, bootstrapReplicates: settings.bootstrapReplicates,
      minimumESS: settings.minimumESS, level: settings.level, margin: settings.margin)
    guard check.passed else {
      // A log the engine does not reproduce cannot be evaluated: nothing further is run.
      report.reason = "the decision log does not replay"
      return report
    }
    let assembled = DecisionLogAssembler.assemble(history)
    let log = assembled.decisions
    let designPoints = settings.design.weights()
    let inForce =
      DecisionReplay.preferencesInForce(history.records).last.flatMap { $0 }
      ?? UserPreferences.appDefault
    report.inForce = inForce
    report.recommended = inForce
    report.decisions = log.count
    report.from = log.time.first.map { CalendarDay($0).description }
    report.to = log.time.last.map { CalendarDay($0).description }
    report.excluded = Dictionary(
      uniqueKeysWithValues: assembled.excluded.map { ($0.key.rawValue, $0.value) })

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
    guard months.count >= max(2, settings.minimumMonths) else {
      report.reason =
        "too little history: the decisions span \(months.count) month\(months.count == 1 ? "" : "s"); "
        + "tuning needs \(settings.minimumMonths), to choose on the earlier and judge on the last"
      return report
    }

    let monthIndex = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
    let monthOfDecision = monthOf.map { monthIndex[$0]! }
    let held = months.count - 1
    let selection = (0..<log.count).filter { monthOfDecision[$0] < held }
    let heldOut = (0..<log.count).filter { monthOfDecision[$0] == held }
    let selectionLog = log.subset(selection)
    let heldLog = log.subset(heldOut)

    // Reward models fitted on the selection months alone (cross-fitted among them); the
    // held-out month's rows are predicted by their pooled fit.
    let rewards = settings.reward == .keep ? [Reward.keep] : [settings.reward, .keep]
    var models: [RewardModel] = []
    for reward in rewards { models.append(try RewardModel.fit(selectionLog, reward: reward)) }
    let heldModels = models.map { $0.predicting(heldLog) }
    var predictions = models.map { _ in [Double](repeating: 0, count: log.rows) }
    for k in models.indices {
      for (i, d) in selection.enumerated() {
        predictions[k].replaceSubrange(
          log.rows(of: d), with: models[k].predictions[selectionLog.rows(of: i)])
      }
      for (i, d) in heldOut.enumerated() {
        predictions[k].replaceSubrange(
          log.rows(of: d), with: heldModels[k].predictions[heldLog.rows(of: i)])
      }
    }

    let whole = Stage(
      log: log, monthOf: monthOfDecision, months: months, held: held, rewards: rewards,
      predictions: predictions, inForce: inForce, design: designPoints, settings: settings)
    let perMonth = months.indices.map { m in monthOfDecision.filter { $0 == m }.count }

    // Forward-chaining folds within the selection months.
    for j in 1..<held {
      let pick = whole.choose(months: 0..<j, like: j)
      report.folds.append(
        TuningFold(
          month: months[j].description, decisions: perMonth[j],
          gain: pick.flatMap { whole.gain(point: $0.point, months: j..<(j + 1)).gain }))
    }

    if settings.byContext {
      report.contexts = try byContext(
        log: log, monthOf: monthOfDecision, months: months, held: held, rewards: rewards,
        predictions: predictions, heldModels: heldModels, inForce: inForce,
        design: designPoints, settings: settings)
    }

    // Selection on every month before the last.
    guard let pick = whole.choose(months: 0..<held, like: held) else {
      report.reason =
        "no preferences in the design did clearly better than those in force on the selection "
        + "months (\(months[0])…\(months[held - 1])): none has a gain whose lower 95% bound "
        + "is above \(Self.margin(settings.margin)) with enough support"
      return report
    }
    let candidate = inForce.with(weights: whole.points[pick.point])
    report.candidate = candidate
    report.selectionGain = pick.gain
    report.selectionESS = pick.ess

    // The held-out month.
    let evidence = try judge(
      candidate, against: inForce, on: heldLog, month: months[held].description,
      models: heldModels, rewards: rewards, settings: settings, level: settings.level)
    report.heldOut = evidence
    let interval = evidence.gain
    if interval.lower > settings.margin, evidence.effectiveSampleSize >= settings.minimumESS {
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
        + "(\(Self.signed(interval.lower)) … \(Self.signed(interval.upper))) reaches "
        + "\(Self.margin(settings.margin)) or below: the data do not show the chosen preferences "
        + "doing better by enough"
    }

    return report
  }

  /// One log to choose and judge on — the whole history, or one context's decisions — with
  /// the kernel's sums per day for the preferences in force (point 0) and every design point,
  /// each rescaled to the score spread of the preferences in force on the selection months.
  struct Stage {
    let months: [CalendarMonth]
    let held: Int
    let settings: TuningSettings
    let points: [ScoringWeights]
    let totals: SweepTotals
    /// Per day group, its month; per month, its day groups and decisions.
    let dayMonth: [Int]
    let daysOfMonth: [[Int]]
    let decisionsPerMonth: [Int]

    init(
      log: LoggedDecisions, monthOf: [Int], months: [CalendarMonth], held: Int,
      rewards: [Reward], predictions: [[Double]], inForce: UserPreferences,
      design: [ScoringWeights], settings: TuningSettings
    ) {
      self.months = months
      self.held = held
      self.settings = settings
      let days = log.time.map(CalendarDay.init)
      let dayList = Array(Set(days)).sorted()
      let dayIndex = Dictionary(uniqueKeysWithValues: dayList.enumerated().map { ($1, $0) })
      var dayMonth = [Int](repeating: 0, count: dayList.count)
      for d in 0..<log.count { dayMonth[dayIndex[days[d]]!] = monthOf[d] }
      self.dayMonth = dayMonth
      daysOfMonth = months.indices.map { m in dayMonth.indices.filter { dayMonth[$0] == m } }
      decisionsPerMonth = months.indices.map { m in monthOf.filter { $0 == m }.count }
      let input = SweepInput(
        log, rewards: rewards.map { $0.values(log) }, predictions: predictions,
        group: days.map { dayIndex[$0]! }, groups: dayList.count)
      // Every design point is as greedy as the preferences in force on the selection months
      // (`Greediness`): the design compares tastes at the logging policy's greediness.
      let greediness = Greediness(
        input, decisions: (0..<log.count).filter { monthOf[$0] < held })
      points = [inForce.weights] + greediness.matched(design, to: inForce.weights)
      totals = SweepKernel.evaluate(input, weights: points, product: settings.product)
    }

    private func days(_ months: Range<Int>) -> [Int] { months.flatMap { daysOfMonth[$0] } }

    /// Point p's paired gain over point 0 on `months`, with its standard error from the
    /// spread of the days' contributions (a ratio estimator's linearisation: each day's
    /// numerator less the estimate times its denominator, for both points).
    func gain(point p: Int, months: Range<Int>) -> (gain: Double?, se: Double) {
      let chosen = days(months)
      let (numerator, denominator) = Self.fields(settings.estimator)
      let fields = totals.fields
      var sums = (np: 0.0, dp: 0.0, n0: 0.0, d0: 0.0)
      for g in chosen {
        let a = (p * totals.groups + g) * fields
        let b = g * fields
        sums.np += totals.values[a + numerator]
        sums.dp += totals.values[a + denominator]
        sums.n0 += totals.values[b + numerator]
        sums.d0 += totals.values[b + denominator]
      }
      guard sums.dp > 0, sums.d0 > 0, chosen.count > 1 else { return (nil, .infinity) }
      let (vp, v0) = (sums.np / sums.dp, sums.n0 / sums.d0)
      var squares = 0.0
      for g in chosen {
        let a = (p * totals.groups + g) * fields
        let b = g * fields
        let influence =
          (totals.values[a + numerator] - vp * totals.values[a + denominator]) / sums.dp
          - (totals.values[b + numerator] - v0 * totals.values[b + denominator]) / sums.d0
        squares += influence * influence
      }
      let n = Double(chosen.count)
      return (vp - v0, (squares * n / (n - 1)).squareRoot())
    }

    /// The fields of the chosen reward's numerator and denominator (`SweepTotals`).
    static func fields(_ estimator: Estimator) -> (Int, Int) {
      let base = SweepTotals.commonFields
      switch estimator {
      case .ips: return (base + 1, base)
      case .snips: return (base + 1, base + 2)
      case .dm: return (base + 3, base)
      case .dr: return (base + 4, base)
      }
    }

    /// The rule: among the points whose effective sample size is at least `minimumESS` in
    /// every month of `months` (scaled by that month's decisions against month `like`'s),
    /// the one whose gain's lower one-sided 95% bound (gain − 1.645·se) is largest, when
    /// that bound is above 0. Choosing by the bound, not the gain, prefers a point that did
    /// better steadily over one that did better by luck on a few heavy weights.
    func choose(months range: Range<Int>, like month: Int) -> (
      point: Int, gain: Double, ess: Double
    )? {
      var best: (point: Int, gain: Double, ess: Double, bound: Double)?
      for p in 1..<points.count {
        let (gain, se) = gain(point: p, months: range)
        guard let gain else { continue }
        let bound = gain - 1.645 * se
        guard bound > (best?.bound ?? settings.margin) else { continue }
        let supported = range.allSatisfy { m in
          let ess = totals.estimate(
            point: p, reward: 0, estimator: settings.estimator, groups: daysOfMonth[m]
          ).effectiveSampleSize
          return ess
            >= settings.minimumESS * Double(decisionsPerMonth[m])
            / Double(max(1, decisionsPerMonth[month]))
        }
        guard supported else { continue }
        let ess = totals.estimate(
          point: p, reward: 0, estimator: settings.estimator, groups: days(range)
        ).effectiveSampleSize
        best = (p, gain, ess, bound)
      }
      return best.map { ($0.point, $0.gain, $0.ess) }
    }
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
      estimate: estimate, lower: Statistics.quantile(gains, tail),
      upper: Statistics.quantile(gains, 1 - tail),
      level: level)
  }

  /// `--by-context`: each context with enough held-out decisions chooses on its own selection
  /// decisions (its own score spread matched) and is judged on its own held-out ones at level
  /// 1 − 0.05/k for the k tried.
  private static func byContext(
    log: LoggedDecisions, monthOf: [Int], months: [CalendarMonth], held: Int, rewards: [Reward],
    predictions: [[Double]], heldModels: [RewardModel], inForce: UserPreferences,
    design: [ScoringWeights], settings: TuningSettings
  ) throws(TuningError) -> [ContextTuning] {
    var results: [ContextTuning] = []
    var tried: [ActivityContext] = []
    for context in ActivityContext.allCases {
      let mine = (0..<log.count).filter { log.context[$0] == context }
      let heldCount = mine.filter { monthOf[$0] == held }.count
      var result = ContextTuning(
        context: context.rawValue, decisions: mine.count, heldOutDecisions: heldCount,
        weights: nil, gain: nil, effectiveSampleSize: nil, claimed: false, reason: "")
      if heldCount < Int(settings.minimumESS) {
        result.reason =
          "\(heldCount) held-out decisions, fewer than the \(Int(settings.minimumESS)) "
          + "effective ones the bar needs: not tried"
      } else {
        tried.append(context)
      }
      results.append(result)
    }
    let level = 1 - (1 - settings.level) / Double(max(1, tried.count))
    for context in tried {
      let c = ActivityContext.allCases.firstIndex(of: context)!
      let mine = (0..<log.count).filter { log.context[$0] == context }
      let contextLog = log.subset(mine)
      let contextMonths = mine.map { monthOf[$0] }
      guard contextMonths.contains(where: { $0 < held }) else {
        results[c].reason = "no decisions on the selection months"
        continue
      }
      let stage = Stage(
        log: contextLog, monthOf: contextMonths, months: months, held: held, rewards: rewards,
        predictions: predictions.map { all in
          mine.flatMap { Array(all[log.rows(of: $0)]) }
        }, inForce: inForce, design: design, settings: settings)
      guard let pick = stage.choose(months: 0..<held, like: held) else {
        results[c].reason = "no preferences did clearly better on its selection months"
        continue
      }
      let heldLog = contextLog.subset(contextMonths.indices.filter { contextMonths[$0] == held })
      let candidate = inForce.with(weights: stage.points[pick.point])
      let evidence = try judge(
        candidate, against: inForce, on: heldLog, month: months[held].description,
        models: heldModels.map { $0.predicting(heldLog) }, rewards: rewards,
        settings: settings, level: level)
      results[c].weights = stage.points[pick.point]
      results[c].gain = evidence.gain
      results[c].effectiveSampleSize = evidence.effectiveSampleSize
      results[c].claimed =
        evidence.gain.lower > settings.margin
        && evidence.effectiveSampleSize >= settings.minimumESS
      results[c].reason =
        results[c].claimed
        ? "held-out gain \(signed(evidence.gain.estimate)), \(percent(level)) interval "
          + "\(signed(evidence.gain.lower)) … \(signed(evidence.gain.upper)), above "
          + margin(settings.margin)
        : evidence.effectiveSampleSize < settings.minimumESS
          ? "effective sample size \(Int(evidence.effectiveSampleSize.rounded())) under "
            + "\(Int(settings.minimumESS))"
          : "the \(percent(level)) interval reaches \(margin(settings.margin)) or below"
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

  static func signed(_ x: Double) -> String {
    x.isNaN ? "n/a" : (x >= 0 ? "+" : "−") + String(format: "%.4f", abs(x))
  }

  /// The margin as the reasons say it: `0` or `+0.01`.
  static func margin(_ margin: Double) -> String { margin == 0 ? "0" : signed(margin) }

  static func percent(_ level: Double) -> String {
    let value = level * 100
    return value == value.rounded() ? "\(Int(value))%" : String(format: "%.2f%%", value)
  }
}
