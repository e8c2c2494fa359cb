import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

/// `resonance experiment plan`: a randomised N-of-1 experiment for the DJ to carry out — the
/// preferences in force against one or more candidates, day by day in weekday-balanced cycles
/// (`ExperimentSchedule`), planned for 90% power on the person's own day-to-day keep rate
/// (`ExperimentPower`), stopped by an anytime-valid confidence sequence — written as the
/// `experiment` section of a preference file (`docs/experiments.md`).
package struct ExperimentPlanStage: Stage {
  package let request: ExperimentPlanRequest

  package init(_ request: ExperimentPlanRequest) { self.request = request }

  /// The error budget of a family of preferences (`ErrorLedger`), of which an experiment
  /// takes half of what is left; the whole experiment's rate is split across its contrasts.
  static let familyAlpha = 0.05
  /// The power the length is planned for.
  static let power = 0.9
  /// The smallest worthwhile keep-rate gain when neither `--margin` nor `tune` gives one.
  static let defaultGain = 0.02
  /// Days of history the power analysis reads: the last year.
  static let historyDays = 364
  /// The longest plan the power analysis looks for: ten years.
  static let longestDays = 3650

  /// - Throws: `StageError.missingInput` without a store, a decision log or a candidate;
  ///   `StageError.badData` for a candidate file that does not read, or a history too short to
  ///   measure the outcome's spread on; `StageError.io` when the plan cannot be written.
  package func run(progress: any StageProgress) throws -> ExperimentPlanOutcome {
    let path = request.store.path
    let store = try request.store.existing(for: "experiment plan")
    let rates = try store.dailyKeepRates()
    guard let lastDay = rates.last?.day else {
      throw StageError(
        .missingInput,
        "\(path): no DJ decisions: an experiment is planned on the person's own decision log "
          + "(ingest the app's decision-log files first)")
    }
    let inForce = try store.preferencesInForce() ?? .appDefault
    let latest = try store.latestTuning()
    // The experiment's error rate comes out of the in-force preferences' budget, which their
    // tune runs and other experiments share (docs/experiments.md, "Merging with tune's
    // evidence").
    let family = Tuner.family(inForce)
    let ledger = try store.errorLedger()
    let reserved = try store.experimentReservations()
    let alpha = ErrorLedger.experimentShare(
      family: family, alpha: Self.familyAlpha, entries: ledger, reserved: reserved)
    guard alpha >= 0.001 else {
      throw StageError(
        .badData,
        "\(path): the error budget of the preferences in force is spent: their tune runs and "
          + "experiments leave \(Format.trimmed(alpha * 2, 5)), and an experiment takes half "
          + "of it; change the preferences in force (a new family, a new budget), or look at "
          + "the experiments already run")
    }

    let spent = ledger.filter { $0.family == family }.reduce(0) { $0 + $1.spent }
    let held = reserved.filter { $0.family == family }.reduce(0) { $0 + $1.alpha }
    if request.question == .eveningMusic {
      return try planEvenings(
        store: store, inForce: inForce, lastDecisionDay: lastDay, alpha: alpha,
        family: (Self.familyAlpha, spent, held))
    }

    var arms = [ExperimentPlan.Arm(name: "in-force", preferences: inForce)]
    if request.candidates.isEmpty {
      guard let report = latest, let candidate = report.candidate else {
        throw StageError(
          .missingInput,
          "\(path): no candidate to try: "
            + (latest.map { "the latest resonance tune chose none (\($0.reason))" }
              ?? "resonance tune has not been run on this store")
            + "; run resonance tune, or give --candidate FILE")
      }
      arms.append(.init(name: "candidate", preferences: candidate))
    } else {
      for (i, file) in request.candidates.enumerated() {
        let name = request.candidates.count == 1 ? "candidate" : "candidate-\(i + 1)"
        arms.append(.init(name: name, preferences: try PreferenceFile.read(at: file).preferences))
      }
    }

    let (gain, source): (Double, String) =
      if let margin = request.margin {
        (margin, "margin")
      } else if request.candidates.isEmpty, let change = latest?.heldOut?.keepChangePer100,
        change > 0
      {
        (change / 100, "tune")
      } else {
        (Self.defaultGain, "default")
      }

    // The last year of the outcome, a value a day (nil for a day without decisions).
    let first = lastDay.daysSinceEpoch - Int64(Self.historyDays) + 1
    var outcomes = [Double?](repeating: nil, count: Self.historyDays)
    for (day, rate) in rates where day.daysSinceEpoch >= first {
      outcomes[Int(day.daysSinceEpoch - first)] = rate
    }
    let plan = try design(
      question: .tuning, outcome: "keep-rate", block: "day", arms: arms, outcomes: outcomes,
      gain: (gain, source),
      start: request.start ?? CalendarDay(daysSinceEpoch: lastDay.daysSinceEpoch + 1), alpha: alpha,
      family: (Self.familyAlpha, spent, held))
    let file = PreferenceFile(recommendation: .keep, preferences: inForce, experiment: plan)
    try OutputFiles.write(try file.encoded(as: request.encoding), to: request.out)
    return ExperimentPlanOutcome(plan: plan, out: request.out)
  }

  /// The plan for `arms` from a year of the outcome (`outcomes`, a value a day, nil for a day
  /// without one): its length from the power analysis (`ExperimentPower`), its schedule from
  /// the seed, and its stopping rule at `alpha`, split across the contrasts with arm 0.
  ///
  /// - Throws: `StageError.badData` when the year holds fewer than two whole cycles of days
  ///   with the outcome.
  func design(
    question: ExperimentPlan.Question, outcome: String, block: String,
    arms: [ExperimentPlan.Arm], outcomes: [Double?], gain: (value: Double, source: String),
    start: CalendarDay, alpha: Double, family: (alpha: Double, spent: Double, held: Double)
  ) throws(StageError) -> ExperimentPlan {
    let k = arms.count
    let cycleDays = ExperimentSchedule.cycleDays(arms: k)
    guard
      let measured = ExperimentPower(outcomes: outcomes, arms: k, seed: request.seed)
    else {
      throw StageError(
        .badData,
        "\(request.store.path): too little history to plan on: the last year holds fewer than "
          + "two whole cycles of \(cycleDays) days with the outcome (\(outcome)), on which its "
          + "spread from day to day is measured")
    }
    // The days of history said to be planned on: from the first with the outcome, at most the
    // last year (four months of history are not a year's).
    let history = outcomes.count - (outcomes.firstIndex { $0 != nil } ?? outcomes.count)
    let contrastAlpha = alpha / Double(k - 1)
    let needed = measured.cycles(
      toShow: gain.value, alpha: contrastAlpha, power: Self.power,
      limit: Self.longestDays / cycleDays)
    let maxCycles = max(ExperimentAnalysis.minimumCycles, request.maxDays / cycleDays)
    let fits = needed.map { $0 <= maxCycles } ?? false
    let planned = fits ? needed! : maxCycles
    let sequence = ConfidenceSequence(alpha: contrastAlpha, tunedFor: planned)
    let schedule = ExperimentSchedule(arms: k, start: start, cycles: planned, seed: request.seed)
    var assignment: [String: String] = [:]
    for (i, arm) in schedule.assignment.enumerated() {
      assignment[CalendarDay(daysSinceEpoch: start.daysSinceEpoch + Int64(i)).description] =
        arms[arm].name
    }
    return ExperimentPlan(
      question: question, outcome: outcome, block: block, arms: arms,
      start: start.description, days: schedule.days, maxDays: request.maxDays,
      seed: request.seed, assignment: assignment,
      stoppingRule: .init(
        kind: "confidence-sequence", alpha: alpha, contrastAlpha: contrastAlpha,
        rho2: sequence.rho2, cycleDays: cycleDays, margin: gain.value,
        minimumCycles: ExperimentAnalysis.minimumCycles, priorSD: measured.contrastSD,
        priorCycles: ExperimentAnalysis.priorCycles, familyAlpha: family.alpha,
        familySpent: family.spent, familyReserved: family.held),
      power: .init(
        target: Self.power, gain: gain.value, gainSource: gain.source,
        historyDays: history, observedDays: measured.observedDays,
        outcomeMean: measured.mean, dailySD: measured.dailySD,
        autocorrelation: measured.autocorrelation, contrastSD: measured.contrastSD,
        daysNeeded: needed.map { $0 * cycleDays }, fits: fits,
        detectableGain: measured.detectable(
          cycles: planned, alpha: contrastAlpha, power: Self.power)))
  }
}

extension ExperimentPlanOutcome: ConsolePresentable {
  package var text: String { ExperimentPlanSummary.lines(self).map { $0 + "\n" }.joined() }
  package var json: String { ExperimentPlanSummary.json(self).text }
}
