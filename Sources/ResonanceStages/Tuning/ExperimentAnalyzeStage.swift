import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

/// `resonance experiment analyze`: an experiment's days so far against its plan — each
/// candidate's cycle contrasts with the preferences in force, their confidence sequence, a
/// randomisation test, and the stopping rule's decision (`ExperimentAnalysis`), with what the
/// decision log shows ran (`ExperimentCompliance`) — stored for the report's experiment page,
/// with the experiment's hold on its family's error budget (`ErrorLedger.Reservation`).
package struct ExperimentAnalyzeStage: Stage {
  package let request: ExperimentAnalyzeRequest

  package init(_ request: ExperimentAnalyzeRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` without the store, its decisions or the plan;
  ///   `StageError.badData` for a plan that does not read, holds no experiment, or whose days
  ///   are not the ones its seed draws, for a log that carries out another plan's seed on its
  ///   days, and for `--per-protocol` on a log that names no arms; `StoreError` when the
  ///   analysis cannot be stored.
  package func run(progress: any StageProgress) throws -> ExperimentAnalyzeOutcome {
    let store = try request.store.existing(for: "experiment analyze")
    let (plan, schedule) = try Self.plan(request.plan)
    let days = try store.decisionDays(dayStartHour: plan.evening?.dayStartHour ?? 0)
    let evenings = try plan.evening.map { try Self.evenings($0, schedule: schedule, store: store) }
    let last =
      evenings.flatMap { $0.keys.max().map { CalendarDay(daysSinceEpoch: $0) } }
      ?? days.last(where: { $0.outcomes > 0 })?.day
    guard let lastDay = request.asOf ?? last else {
      throw StageError(
        .missingInput,
        "\(request.store.path): "
          + (plan.evening == nil ? "no DJ decisions to analyse" : "no nights to analyse"))
    }
    let start = schedule.start.daysSinceEpoch
    let elapsed = max(0, min(schedule.days, Int(lastDay.daysSinceEpoch - start) + 1))
    let compliance: ExperimentCompliance
    do {
      compliance = try ExperimentCompliance(
        plan: plan, schedule: schedule, days: days, elapsed: elapsed)
    } catch {
      throw StageError(
        .badData,
        "\(request.store.path): the decision log carries out the plan of seed \(error.seed) on "
          + "\(error.day), not this plan's seed \(plan.seed) (\(request.plan)): analyse it "
          + "with the plan the DJ ran")
    }
    if request.perProtocol && !compliance.logged {
      throw StageError(
        .badData,
        "\(request.store.path): '--per-protocol' needs the arm of each decision, which a "
          + "decision log of version 3 names; the log names none on the plan's days so far")
    }
    var departed = request.perProtocol ? compliance.departedDays(from: schedule.start) : []
    var outcomes = [Double?](repeating: nil, count: elapsed)
    if let evenings, let evening = plan.evening {
      // An evening the arm's music did not hold (a calm one without, a no-music one with)
      // departed from it, whatever the log says.
      for i in 0..<elapsed {
        guard let record = evenings[start + Int64(i)] else { continue }
        let music = record.musicMinutes >= evening.musicMinutes
        switch plan.arms[schedule.assignment[i]].evening {
        case .calm? where !music, .noMusic? where music:
          if request.perProtocol { departed.insert(i) }
        default: break
        }
        if !departed.contains(i) { outcomes[i] = record.asleepMinutes }
      }
    } else {
      for day in days where day.day.daysSinceEpoch >= start {
        let i = Int(day.day.daysSinceEpoch - start)
        if i < elapsed && !departed.contains(i) { outcomes[i] = day.keepRate }
      }
    }
    let rule = plan.stoppingRule
    let reservation = try Self.reservation(plan, store: store)
    // Tune's runs on the family since the plan may have left less than it planned for: the
    // sequence is then read at what is left, never at more.
    let contrastAlpha = rule.contrastAlpha * min(1, reservation.alpha / rule.alpha)
    let sequence = ConfidenceSequence(alpha: contrastAlpha, rho2: rule.rho2)
    let analysis = ExperimentAnalysis(
      outcomes: outcomes, schedule: schedule, sequence: sequence, margin: rule.margin,
      priorSD: rule.priorSD, seed: plan.seed)
    let outcome = ExperimentAnalyzeOutcome(
      plan: request.plan, decision: analysis.decision.rawValue,
      adopted: analysis.adopted.map { plan.arms[$0].name },
      asOf: CalendarDay(daysSinceEpoch: min(lastDay.daysSinceEpoch, start + Int64(plan.days) - 1))
        .description,
      daysLeft: analysis.daysLeft,
      contrasts: analysis.contrasts.map { c in
        .init(
          arm: plan.arms[c.arm].name, cycles: c.cycles, estimate: c.estimate, lower: c.lower,
          upper: c.upper, level: 1 - contrastAlpha, permutationP: c.permutationP)
      }, analysis: request.perProtocol ? "per-protocol" : "itt", compliance: compliance,
      evenings: evenings.map {
        Self.music(
          plan, schedule: schedule, evenings: $0, outcomes: outcomes, sequence: sequence,
          level: 1 - contrastAlpha)
      })

    // Kept for the report's experiment page: every day so far, and the intervals' track.
    var byDay: [Int64: DecisionDay] = [:]
    for day in days { byDay[day.day.daysSinceEpoch] = day }
    let rows = (0..<elapsed).map { i -> ExperimentReport.Day in
      let date = CalendarDay(daysSinceEpoch: start + Int64(i))
      let logged = byDay[date.daysSinceEpoch]
      var ran: String?
      if compliance.logged, let arms = logged?.arms, !arms.isEmpty {
        ran = arms.count == 1 ? (arms.first!.key ?? ExperimentCompliance.noArm) : "mixed"
      }
      let evening = evenings?[date.daysSinceEpoch]
      return ExperimentReport.Day(
        day: date.description, planned: plan.arms[schedule.assignment[i]].name, ran: ran,
        decisions: logged?.decisions ?? 0, keepRate: logged?.keepRate,
        counted: outcomes[i] != nil, asleepMinutes: evening?.asleepMinutes,
        musicMinutes: evening?.musicMinutes)
    }
    let track = ExperimentAnalysis.track(
      outcomes: outcomes, schedule: schedule, sequence: sequence, margin: rule.margin,
      priorSD: rule.priorSD
    ).map { c in
      ExperimentReport.Step(
        arm: plan.arms[c.arm].name, cycles: c.cycles, estimate: c.estimate ?? 0,
        lower: c.lower ?? 0, upper: c.upper ?? 0)
    }
    let report = ExperimentReport(
      planFile: (request.plan as NSString).lastPathComponent, plan: plan, outcome: outcome,
      days: rows, track: track)
    try store.insertExperiment(
      report, reservation: reservation, at: Int64(Date().timeIntervalSince1970 * 1000))
    return outcome
  }

  /// The plan's evenings as the store shows them: each night from the sleep records, with
  /// the music heard in the window before its bedtime, by evening day.
  static func evenings(
    _ evening: ExperimentPlan.Evening, schedule: ExperimentSchedule, store: Store
  ) throws -> [Int64: EveningRecord] {
    let first = schedule.start.daysSinceEpoch
    let nights = SleepNights.nights(from: try store.sleepIntervals()).filter {
      $0.eveningDay >= first && $0.eveningDay < first + Int64(schedule.days)
    }
    let from = first * 86_400_000 - 2 * 86_400_000
    let to = (first + Int64(schedule.days) + 2) * 86_400_000
    return EveningRecord.evenings(
      nights: nights, spans: try store.heardSpans(from: from, to: to),
      windowMinutes: evening.windowMinutes)
  }

  /// Per arm, the evenings with a night and with music before bed; and the effect of that
  /// music on minutes asleep, the calm arm's evenings against the no-music arm's, cycle by
  /// cycle (`MusicEffect`), on the evenings `outcomes` counts.
  static func music(
    _ plan: ExperimentPlan, schedule: ExperimentSchedule, evenings: [Int64: EveningRecord],
    outcomes: [Double?], sequence: ConfidenceSequence, level: Double
  ) -> ExperimentAnalyzeOutcome.Evenings {
    let start = schedule.start.daysSinceEpoch
    let threshold = plan.evening?.musicMinutes ?? ExperimentPlan.Evening.standardMusicMinutes
    let music = outcomes.indices.map { i -> Double? in
      guard outcomes[i] != nil, let record = evenings[start + Int64(i)] else { return nil }
      return record.musicMinutes >= threshold ? 1 : 0
    }
    let arms = plan.arms.indices.map { a in
      let mine = music.indices.filter { schedule.assignment[$0] == a }.compactMap { music[$0] }
      return ExperimentAnalyzeOutcome.Evenings.Arm(
        arm: plan.arms[a].name, evenings: mine.count, withMusic: Int(mine.reduce(0, +)))
    }
    let k = plan.arms.count
    guard let calm = plan.arms.firstIndex(where: { $0.evening == .calm }),
      let none = plan.arms.firstIndex(where: { $0.evening == .noMusic })
    else {
      return .init(
        arms: arms, cycles: 0, asleepContrast: nil, musicContrast: nil, estimate: nil,
        lower: nil, upper: nil, level: level)
    }
    let y = ExperimentSchedule.contrasts(
      outcomes, assignment: schedule.assignment, arms: k, arm: calm, reference: none)
    let d = ExperimentSchedule.contrasts(
      music, assignment: schedule.assignment, arms: k, arm: calm, reference: none)
    let pairs = zip(y, d).compactMap { a, b in a.flatMap { a in b.map { (a, $0) } } }
    let effect = MusicEffect(
      asleep: pairs.map(\.0), music: pairs.map(\.1), sequence: sequence,
      prior: (plan.stoppingRule.priorSD, ExperimentAnalysis.priorCycles))
    return .init(
      arms: arms, cycles: pairs.count, asleepContrast: effect?.asleepContrast,
      musicContrast: effect?.musicContrast, estimate: effect?.estimate, lower: effect?.lower,
      upper: effect?.upper, level: level)
  }

  /// What the experiment holds of its family's error budget: what its first analysis set;
  /// at the first, the plan's rate, or what the family has left beside its tune runs and
  /// other experiments when that is less (`ErrorLedger`).
  static func reservation(_ plan: ExperimentPlan, store: Store) throws -> ErrorLedger.Reservation {
    let family = Tuner.family(plan.arms[0].preferences)
    let reserved = try store.experimentReservations()
    if let held = reserved.first(where: {
      $0.family == family && $0.seed == plan.seed && $0.start == plan.start
    }) {
      return held
    }
    let budget = plan.stoppingRule.familyAlpha ?? ExperimentPlanStage.familyAlpha
    let spent = try store.errorLedger().filter { $0.family == family }.reduce(0) { $0 + $1.spent }
    let others = reserved.filter { $0.family == family }.reduce(0) { $0 + $1.alpha }
    return ErrorLedger.Reservation(
      family: family, seed: plan.seed, start: plan.start,
      alpha: max(0, min(plan.stoppingRule.alpha, budget - spent - others)))
  }

  /// The plan's experiment and its schedule, checked against the seed it names.
  static func plan(_ path: String) throws(StageError) -> (ExperimentPlan, ExperimentSchedule) {
    let file = try PreferenceFile.read(at: path)
    guard let plan = file.experiment else {
      throw StageError(
        .badData,
        "\(path): expected an experiment section (resonance experiment plan writes one), "
          + "found a preference file without one")
    }
    let k = plan.arms.count
    let length = ExperimentSchedule.cycleDays(arms: max(2, k))
    guard k >= 2, let start = CalendarDay(plan.start), plan.days > 0, plan.days % length == 0
    else {
      throw StageError(
        .badData,
        "\(path): \"experiment\": expected two arms or more, a start YYYY-MM-DD and whole "
          + "cycles of \(length) days, found \(k) arms from \"\(plan.start)\" for \(plan.days) days"
      )
    }
    let drawn = ExperimentSchedule(
      arms: k, start: start, cycles: plan.days / length, seed: plan.seed)
    for (i, arm) in drawn.assignment.enumerated() {
      let day = CalendarDay(daysSinceEpoch: start.daysSinceEpoch + Int64(i)).description
      guard plan.assignment[day] == plan.arms[arm].name else {
        throw StageError(
          .badData,
          "\(path): \"experiment.assignment.\(day)\": expected \"\(plan.arms[arm].name)\", the "
            + "arm seed \(plan.seed) draws, found "
            + (plan.assignment[day].map { "\"\($0)\"" } ?? "none")
            + ": the randomisation test needs the days the seed drew")
      }
    }
    guard plan.assignment.count == plan.days else {
      throw StageError(
        .badData,
        "\(path): \"experiment.assignment\": expected the plan's \(plan.days) days, found "
          + "\(plan.assignment.count)")
    }
    return (plan, drawn)
  }
}

extension ExperimentAnalyzeOutcome: ConsolePresentable {
  package var text: String { ExperimentPlanSummary.lines(self).map { $0 + "\n" }.joined() }
  package var json: String { ExperimentPlanSummary.json(self).text }
}
