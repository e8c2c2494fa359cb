import Foundation
import ResonanceBrain
import ResonanceLinear
import ResonanceModel

/// Chooses preferences on earlier months of the DJ's history and judges the choosing on later
/// ones, which it never sees (`docs/tuning.md`, "Honest selection").
///
/// 1. Every design point is rescaled to the greediness of the preferences in force
///    (`Greediness`: the same mean entropy over the log's decisions).
/// 2. Forward chaining: for every month after the first, reward models are fitted on the
///    months before it alone (cross-fitted among them), and the candidate there is the point
///    whose paired gain over the preferences in force has the largest lower one-sided bound
///    at the level (standard error from the days), when that bound is above `margin`, among the
///    points whose effective sample size in every month, scaled to the judged month's size, is
///    at least `minimumESS`. The choice (or the preferences in force, when none clears the
///    rule) is estimated on the month itself, paired decision by decision.
/// 3. Pooled over the judged months, that is the gain of choosing on the past; its interval is
///    the pooled gain ± Student's t times its day-batch standard error (`DayBlocks.spread`).
///    The candidate is the choice made on every month before the last. `change` when the
///    interval's lower end is above `margin`, the candidate's own interval on the last month
///    (the month it was not chosen on: `heldOut`) has its lower end above 0, and its effective
///    sample size there is at least `minimumESS`; otherwise `keep`, with the reason.
package enum Tuner {
  ///
  /// - Parameters:
  ///   - ledger: every entry of the store's error ledger (`ErrorLedger`), to test at the share
  ///     of the error rate the months new since its family's last run bring (`report.spending`
  ///     says what, and holds the line to record); nil to test at `settings.level` itself.
  ///   - reserved: what the experiments on the in-force preferences hold of the budget, which
  ///     the run never spends (`ErrorLedger.allowance`); read only with `ledger`.
  ///   - progress: told of the replay, the reward models' fits and each month judged.
  package static func tune(
    _ history: DecisionHistory, settings: TuningSettings, ledger: [ErrorLedger.Entry]? = nil,
    reserved: [ErrorLedger.Reservation] = [], progress: any StageProgress = SilentProgress()
  ) throws(TuningError) -> TuningReport {
    let log = progress.step(
      "tune: replaying \(Format.grouped(history.records.count)) logged decisions", total: nil,
      unit: .items("")
    ) { ReplayedLog(history) }
    return try tune(
      log, settings: settings, ledger: ledger, reserved: reserved, progress: progress)
  }

  /// Tunes on a history already replayed and assembled, read a stretch at a time
  /// (`ReplayedLog`): what `tune(_:settings:ledger:progress:)` finds for the same history.
  package static func tune(
    _ replayed: ReplayedLog, settings: TuningSettings, ledger: [ErrorLedger.Entry]? = nil,
    reserved: [ErrorLedger.Reservation] = [], progress: any StageProgress = SilentProgress()
  ) throws(TuningError) -> TuningReport {
    var report = try assess(
      replayed, settings: settings, ledger: ledger, reserved: reserved, progress: progress)
    settleTemperature(&report, settings: settings)
    return report
  }

  /// Everything but the temperature's verdict: the replay, the weights' forward chaining and
  /// decision, the contexts, and the temperature judged apart.
  private static func assess(
    _ replayed: ReplayedLog, settings: TuningSettings, ledger: [ErrorLedger.Entry]?,
    reserved: [ErrorLedger.Reservation], progress: any StageProgress
  ) throws(TuningError) -> TuningReport {
    let check = replayed.check
    let replay = ReplaySummary(
      replayed: check.replayed, byVersion: check.byVersion,
      notReplayable: Dictionary(
        uniqueKeysWithValues: check.notReplayable.map { ($0.key.rawValue, $0.value) }),
      largestScoreDifference: check.largestScoreDifference,
      largestPropensityRelativeDifference: check.largestPropensityRelativeDifference,
      firstMismatch: check.firstMismatch.map(Self.describe))
    var report = TuningReport(
      recommendation: .keep, reason: "", inForce: .appDefault, recommended: .appDefault,
      candidate: nil, reward: settings.reward, estimator: settings.estimator,
      design: settings.design, decisions: 0, months: [], from: nil, to: nil, excluded: [:],
      replay: replay,
      selectionGain: nil, selectionESS: nil, folds: [], heldOut: nil, contexts: [],
      pairwise: nil, minimumESS: settings.minimumESS, level: settings.level,
      margin: settings.margin)
    guard check.passed else {
      // A log the engine does not reproduce cannot be evaluated: nothing further is run.
      report.reason = "the decision log does not replay"
      return report
    }
    let records = replayed.records
    let inForce = replayed.inForce
    let assembled = try replayed.assembled()
    let log = assembled.decisions
    let designPoints = settings.design.weights()
    report.inForce = inForce
    report.recommended = inForce
    report.decisions = log.count
    report.from = log.time.first.map { CalendarDay($0).description }
    report.to = log.time.last.map { CalendarDay($0).description }
    report.excluded = Dictionary(
      uniqueKeysWithValues: assembled.excluded.map { ($0.key.rawValue, $0.value) })
    if assembled.clippedPropensities > 0 {
      report.clippedPropensities = assembled.clippedPropensities
    }

    guard records > 0 else {
      report.reason =
        "no decision log: the store holds no DJ decisions, so no preferences can be judged"
      return report
    }
    guard log.count > 0 else {
      report.reason =
        "none of the \(records) logged decisions can be evaluated (see excluded)"
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
    let rewards = settings.reward == .keep ? [Reward.keep] : [settings.reward, .keep]

    // The tests one run makes: the general one, and with --by-context one per context tried;
    // every one is judged at the Bonferroni level 1 − (1 − level)/k for the k made.
    let contexts =
      settings.byContext
      ? Self.contextsToTry(log, monthOf: monthOfDecision, months: months, settings: settings)
      : []
    // The temperature judged apart is a test too when the file may take it.
    let judgesTemperature = log.policy.kind == .softmax
    let tests =
      1 + contexts.filter(\.tried).count + (judgesTemperature && settings.tuneTemperature ? 1 : 0)
    // The error rate the run may spend: all of 1 − level without the ledger; with it, the
    // share of its family's budget that the months new since the family's last run bring.
    var alpha = 1 - settings.level
    if let ledger {
      let allowance = ErrorLedger.allowance(
        family: family(inForce), first: months[0].description,
        through: months[held].description, alpha: alpha, entries: ledger, reserved: reserved)
      report.spending = allowance
      alpha = allowance.spent
      guard allowance.kind != .retrospective else {
        report.reason =
          "these preferences were tested through \(allowance.newestBefore ?? "a later month") "
          + "already, and those runs spent the error rate of every month before it: a run "
          + "through \(months[held]) can only keep (--no-ledger analyses it anyway, without "
          + "the guarantee)"
        return report
      }
    }
    let level = 1 - alpha / Double(tests)
    report.level = level

    // Forward chaining: every month after the first is judged by the choice made on the
    // months before it, with reward models fitted on those months alone. A month whose
    // earlier months measured none of the reward (a Watch worn only later, for the response)
    // is not judged; the last month always is.
    // The fits come from each month's sums (`RewardModel.MonthSums`), or fold by fold from
    // the decisions themselves.
    var folds: [FoldModels] = []
    progress.begin(
      "tune: reward models, month by month", total: Int64(held), unit: .items("months"))
    let sums =
      settings.foldByFold ? [] : rewards.map { RewardModel.MonthSums(log, reward: $0) }
    for j in 1...held {
      defer { progress.advance(to: Int64(j)) }
      do {
        folds.append(
          settings.foldByFold
            ? try FoldModels(log: log, monthOf: monthOfDecision, month: j, rewards: rewards)
            : try FoldModels(sums: sums, month: j))
      } catch  where error.kind == .noMeasuredReward && j < held {
        continue
      } catch {
        progress.end()
        throw error
      }
    }
    progress.end()
    // With the one pass, the points are evaluated over every month first, then each month is
    // judged; fold by fold, both happen month by month.
    let judging =
      "tune: judging \(Format.grouped(designPoints.count + 1)) points' choice, month by month"
    if settings.onePass {
      progress.begin(
        "tune: \(Format.grouped(designPoints.count + 1)) points over every month",
        total: Int64((designPoints.count + pointsPerPass - 2) / (pointsPerPass - 1)),
        unit: .items("passes"))
    } else {
      progress.begin(judging, total: Int64(folds.count), unit: .items("months"))
    }
    var foldsDone = 0
    let chain: Chain
    do {
      chain = try Self.chain(
        log: log, monthOf: monthOfDecision, months: months, folds: folds, where: { _ in true },
        rewards: rewards, inForce: inForce, design: designPoints, settings: settings,
        level: level,
        passDone: { done, total in
          progress.advance(to: Int64(done))
          if done == total {
            progress.end()
            progress.begin(judging, total: Int64(folds.count), unit: .items("months"))
          }
        },
        foldDone: {
          foldsDone += 1
          progress.advance(to: Int64(foldsDone))
        })
      progress.end()
    } catch {
      progress.end()
      throw error
    }
    report.folds = chain.folds
    report.forwardGain = chain.gain
    report.judgedDecisions = chain.judgedDecisions

    if settings.byContext {
      report.contexts = try progress.step(
        "tune: a profile per context", total: nil, unit: .items("")
      ) { () throws(TuningError) in
        try byContext(
          contexts, log: log, monthOf: monthOfDecision, months: months, folds: folds,
          rewards: rewards, inForce: inForce, design: designPoints, settings: settings,
          level: level)
      }
    }

    if judgesTemperature {
      report.temperature = try progress.step(
        "tune: the temperature, judged apart", total: nil, unit: .items("")
      ) { () throws(TuningError) in
        try temperature(
          log: log, monthOf: monthOfDecision, months: months, folds: folds, rewards: rewards,
          inForce: inForce, settings: settings, level: level)
      }
    }

    guard let last = chain.last else {
      report.reason =
        "no preferences in the design did clearly better than those in force on the selection "
        + "months (\(months[0])…\(months[held - 1])): none has a gain whose lower "
        + "\(Self.percent(level)) bound is above \(Self.margin(settings.margin)) with enough support"
      return report
    }
    report.candidate = last.candidate
    report.selectionGain = last.selectionGain
    report.selectionESS = last.selectionESS
    report.heldOut = last.evidence
    let evidence = last.evidence
    guard let interval = chain.gain else {
      report.reason = "no month after the first could be judged"
      return report
    }
    let judged =
      "on the \(chain.judgedMonths) months judged by a choice made before them "
      + "(\(months[1])…\(months[held]), \(chain.judgedDecisions) decisions), choosing on the "
      + "past gained \(Self.signed(interval.estimate)) in \(settings.reward.rawValue) "
      + "(\(Self.percent(level)) interval \(Self.signed(interval.lower)) … "
      + "\(Self.signed(interval.upper)))"
    let own = evidence.gain
    let ownInterval =
      "(\(Self.percent(level)) interval \(Self.signed(own.lower)) … \(Self.signed(own.upper)))"
    if evidence.effectiveSampleSize < settings.minimumESS {
      report.reason =
        "the chosen preferences' effective sample size on \(months[held]) is "
        + "\(Int(evidence.effectiveSampleSize.rounded())), under \(Int(settings.minimumESS)): "
        + "the log says too little about them"
    } else if interval.lower > settings.margin, own.lower > 0 {
      report.recommendation = .change
      report.recommended = last.candidate
      report.reason =
        judged + ", above \(Self.margin(settings.margin)); the preferences written, chosen on "
        + "every month before \(months[held]), gained \(Self.signed(own.estimate)) on it "
        + "\(ownInterval), above 0, with an effective sample size of "
        + "\(Int(evidence.effectiveSampleSize.rounded()))"
    } else if interval.lower > settings.margin {
      report.reason =
        judged + ", above \(Self.margin(settings.margin)), but the preferences that would be "
        + "written, chosen on every month before \(months[held]), gained "
        + "\(Self.signed(own.estimate)) on it \(ownInterval): not clearly above 0 on the "
        + "month they were not chosen on"
    } else {
      report.reason =
        judged + ": the interval reaches \(Self.margin(settings.margin)) or below, so the data "
        + "do not show choosing this way doing better by enough"
    }
    return report
  }

  /// The candidate against the preferences in force on one held-out log: paired estimates
  /// (Switch-DR and DRos at the grid's `parameter`-th value, chosen before this month), the
  /// interval from the days' spread, the diagnostics and the clipping table.
  private static func judge(
    _ candidate: UserPreferences, against inForce: UserPreferences, on log: LoggedDecisions,
    month: String, models: [RewardModel], rewards: [Reward], settings: TuningSettings,
    level: Double, parameter: Int, temperatureFactor factor: Double = 1
  ) throws(TuningError) -> HeldOutEvidence {
    let evaluator = try OffPolicyEvaluator(log, reward: rewards[0], rewardModel: models[0])
    let estimator = settings.estimator
    let chosen = evaluator.estimate(
      candidate, estimator: estimator, parameter: parameter, temperatureFactor: factor)
    let current = evaluator.estimate(inForce, estimator: estimator, parameter: parameter)
    let interval = interval(
      chosen, current, days: chosen.decisions.map { CalendarDay(log.time[$0]) }, level: level)
    let clipping = OffPolicyEvaluator.clippingThresholds.map { threshold in
      HeldOutEvidence.ClippedGain(
        threshold: threshold,
        gain: evaluator.estimate(
          candidate, estimator: estimator, clipping: threshold, parameter: parameter,
          temperatureFactor: factor
        ).value.flatMap { a in
          evaluator.estimate(
            inForce, estimator: estimator, clipping: threshold, parameter: parameter
          ).value.map { a - $0 }
        })
    }
    var keepChange: Double?
    if let k = rewards.firstIndex(of: .keep) {
      let keep = try OffPolicyEvaluator(log, reward: .keep, rewardModel: models[k])
      if let a = keep.estimate(
        candidate, estimator: estimator, parameter: parameter, temperatureFactor: factor
      ).value,
        let b = keep.estimate(inForce, estimator: estimator, parameter: parameter).value
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

  /// What forward chaining found on one log (the whole history or one context's decisions).
  struct Chain {
    var folds: [TuningFold] = []
    /// The gain of choosing on the past, pooled over the judged months, with its interval.
    var gain: TuningEvidence.Interval?
    var judgedMonths = 0
    var judgedDecisions = 0
    /// The choice made on every month before the last, judged on the last.
    var last:
      (
        candidate: UserPreferences, selectionGain: Double,
        selectionESS: Double, evidence: HeldOutEvidence
      )?
  }

  /// Forward chaining on the decisions `include` admits (each design point matched to the
  /// greediness of the preferences in force on them): for every fold, the rule chooses on the
  /// months before the fold's month, and the choice — or the preferences in force, when no
  /// point clears the rule — is estimated on the fold's month, paired decision by decision
  /// with the preferences in force. The gain pooled over the judged months gets its interval
  /// from the day batches of their days (`pooledInterval`).
  static func chain(
    log: LoggedDecisions, monthOf: [Int], months: [CalendarMonth], folds: [FoldModels],
    where include: (Int) -> Bool, rewards: [Reward], inForce: UserPreferences,
    design: [ScoringWeights], settings: TuningSettings, level: Double,
    temperatures: [Double]? = nil, passDone: (_ done: Int, _ total: Int) -> Void = { _, _ in },
    foldDone: () -> Void = {}
  ) throws(TuningError) -> Chain {
    var chain = Chain()
    let points: [ScoringWeights]
    let factors: [Double]?
    let mine = (0..<log.count).filter(include)
    if let temperatures {
      // The temperature as its own dimension: the weights in force at other temperatures.
      points = Array(repeating: inForce.weights, count: temperatures.count + 1)
      factors = [1] + temperatures
    } else {
      // Every design point is as greedy as the preferences in force on these decisions
      // (`Greediness`), so that the design compares tastes at the logging policy's
      // greediness. The match reads the candidates and the logging policy only, never an
      // outcome, so one match over every month serves every fold.
      let greediness = Greediness(
        SweepInput(
          mine.count == log.count ? log : log.subset(mine), rewards: [], predictions: [],
          group: .init(repeating: 0, count: mine.count), groups: 1))
      points = [inForce.weights] + greediness.matched(design, to: inForce.weights)
      factors = nil
    }
    // The rule's choices on every fold from one pass over the history (`LinearSums`), or,
    // for the grids of Switch-DR and DRos, fold by fold below.
    let onePass = settings.onePass
    let choices =
      onePass
      ? onePassChoices(
        log: log, mine: mine, monthOf: monthOf, months: months, folds: folds,
        reward: rewards[0], points: points, factors: factors, settings: settings, level: level,
        passDone: passDone) : [:]
    var judgedPairs: [(chosen: PolicyEstimate, current: PolicyEstimate, days: [CalendarDay])] = []
    for fold in folds {
      defer { foldDone() }
      let j = fold.month
      let selection =
        onePass ? [] : (0..<log.count).filter { monthOf[$0] < j && include($0) }
      let judged = (0..<log.count).filter { monthOf[$0] == j && include($0) }
      guard !judged.isEmpty else { continue }
      var pick: Choice?
      if onePass {
        pick = choices[j]
      } else if !selection.isEmpty {
        // The months before the judged one are the first decisions of the log when every
        // decision is taken (the log is in time order): read in place, not copied.
        let prefix = selection.last == selection.count - 1
        let s = Stage(
          log: prefix ? log : log.subset(selection), count: prefix ? selection.count : nil,
          monthOf: prefix ? monthOf : selection.map { monthOf[$0] }, months: months,
          rewards: rewards, models: fold.models, points: points,
          temperatureFactors: factors, settings: settings)
        pick = s.choose(months: 0..<j, judged: judged.count, level: level)
      }
      let judgedLog = log.subset(judged)
      let models = fold.models.map { $0.predicting(judgedLog) }
      let evaluator = try OffPolicyEvaluator(judgedLog, reward: rewards[0], rewardModel: models[0])
      // Switch-DR's and DRos's parameter is the one chosen with the point, on earlier months.
      let parameter = pick?.parameter ?? 0
      let current = evaluator.estimate(
        inForce, estimator: settings.estimator, parameter: parameter)
      var chosen = current
      let factor = pick.map { factors?[$0.point] ?? 1 } ?? 1
      if let pick {
        var candidate = inForce.with(weights: points[pick.point])
        candidate.policy.temperature *= factor
        chosen = evaluator.estimate(
          candidate, estimator: settings.estimator, parameter: parameter,
          temperatureFactor: factor)
        if j == months.count - 1 {
          let evidence = try judge(
            candidate, against: inForce, on: judgedLog, month: months[j].description,
            models: models, rewards: rewards, settings: settings, level: level,
            parameter: parameter, temperatureFactor: factor)
          chain.last = (candidate, pick.gain, pick.ess, evidence)
        }
      }
      chain.folds.append(
        TuningFold(
          month: months[j].description, decisions: judged.count,
          gain: pick == nil ? nil : chosen.value.flatMap { a in current.value.map { a - $0 } },
          weights: pick.map { points[$0.point] },
          estimatorParameter: pick.flatMap { p in
            EstimatorSums.parameters(settings.estimator).dropFirst(p.parameter).first
              .flatMap { $0.isFinite ? $0 : nil }
          }, temperatureFactor: factors == nil || pick == nil ? nil : factor))
      guard chosen.value != nil, current.value != nil else { continue }
      judgedPairs.append(
        (chosen, current, chosen.decisions.map { CalendarDay(judgedLog.time[$0]) }))
      chain.judgedMonths += 1
      chain.judgedDecisions += chosen.decisions.count
    }
    if !judgedPairs.isEmpty {
      chain.gain = pooledInterval(judgedPairs, level: level)
    }
    return chain
  }

  /// The ledger's family of a run: the preferences in force, as canonical JSON (sorted keys).
  package static func family(_ preferences: UserPreferences) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(preferences)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  // MARK: - Words

  static func describe(_ mismatch: ReplayMismatch) -> String {
    "decision \(mismatch.decision) at \(mismatch.time.iso8601UTC) (log version "
      + "\(mismatch.version)): \(mismatch.detail)"
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
