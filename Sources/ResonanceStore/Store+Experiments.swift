import Foundation
import ResonanceModel

extension Store {
  /// Per local day with DJ decisions, the share of them kept (not skipped), in day order:
  /// the outcome an experiment on the DJ's preferences is planned on. Decisions without an
  /// outcome are left out; a day with none has no entry.
  package func dailyKeepRates() throws(StoreError) -> [(day: CalendarDay, rate: Double)] {
    try decisionDays().compactMap { day in day.keepRate.map { (day.day, $0) } }
  }

  /// Every local day with DJ decisions, in day order: how many, their outcomes, the arms
  /// they ran and the seeds of the plans the log carried out (`DecisionDay`). A day runs from
  /// `dayStartHour` local time to the same hour the next day (an evening block's day runs to
  /// the next morning); 0: midnight to midnight.
  package func decisionDays(dayStartHour: Int = 0) throws(StoreError) -> [DecisionDay] {
    let statement = try connection.prepare(
      """
      SELECT time_ms, offset_s, skipped, arm, experiment_seed FROM dj_decisions
      ORDER BY time_ms
      """)
    var days: [CalendarDay: DecisionDay] = [:]
    while try statement.step() {
      let r = statement.currentRow()
      let at = r.timestamp("time_ms", offset: "offset_s")
      let day =
        dayStartHour == 0
        ? CalendarDay(at)
        : CalendarDay(
          Timestamp(
            millisecondsSinceEpoch: at.millisecondsSinceEpoch - Int64(dayStartHour) * 3_600_000,
            utcOffsetSeconds: at.utcOffsetSeconds))
      var entry = days[day] ?? DecisionDay(day: day)
      entry.decisions += 1
      if let skipped = r.bool("skipped") {
        entry.outcomes += 1
        entry.kept += skipped ? 0 : 1
      }
      entry.arms[r.text("arm"), default: 0] += 1
      if let seed = r.int64("experiment_seed") { entry.seeds.insert(UInt64(bitPattern: seed)) }
      days[day] = entry
    }
    return days.keys.sorted().map { days[$0]! }
  }
}

extension Store {
  /// Every play's heard span — its start to the end of what was heard — from every source,
  /// in start order, for the plays that reach into `from..<to` (UTC milliseconds).
  package func heardSpans(from: Int64, to: Int64) throws(StoreError) -> [(start: Int64, end: Int64)]
  {
    let statement = try connection.prepare(
      """
      SELECT start_ms, min(end_ms, start_ms + played_ms) AS heard_end_ms FROM playback_events
      WHERE start_ms < ? AND end_ms > ? ORDER BY start_ms
      """)
    try statement.bind([to, from])
    var spans: [(start: Int64, end: Int64)] = []
    while try statement.step() {
      let r = statement.currentRow()
      if let start = r.int64("start_ms"), let end = r.int64("heard_end_ms") {
        spans.append((start, end))
      }
    }
    return spans
  }
}

extension Store {
  /// Stores an experiment's analysis (`experiment_runs`), with the family it tests and the
  /// error rate it holds of that family's budget (`ErrorLedger.Reservation`).
  ///
  /// - Returns: its row's ID.
  @discardableResult
  package func insertExperiment(
    _ report: ExperimentReport, reservation: ErrorLedger.Reservation, at ms: Int64
  ) throws(StoreError) -> Int64 {
    let text: String
    do {
      text = try Self.json(report)
    } catch {
      throw StoreError(.sqlite(code: 20), message: "cannot encode the experiment: \(error)")
    }
    try connection.execute(
      """
      INSERT INTO experiment_runs (ran_at_ms, plan_seed, as_of, decision, family, plan_start,
        alpha, report)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        ms, Int64(bitPattern: reservation.seed), report.outcome.asOf, report.outcome.decision,
        reservation.family, reservation.start, reservation.alpha, text,
      ])
    return connection.lastInsertRowID
  }

  /// The last experiment analysis stored, if any.
  package func latestExperiment() throws(StoreError) -> ExperimentReport? {
    guard
      let row = try connection.row(
        "SELECT report FROM experiment_runs ORDER BY id DESC LIMIT 1")
    else { return nil }
    do {
      return try JSONDecoder().decode(ExperimentReport.self, from: Data(row.string("report").utf8))
    } catch {
      throw StoreError(
        .sqlite(code: 20), message: "the stored experiment is not one this build writes")
    }
  }
}

extension Store {
  /// What each experiment analysed in the store holds of its family's error budget: the
  /// error rate its first analysis set, one per family, plan seed and first day.
  package func experimentReservations() throws(StoreError) -> [ErrorLedger.Reservation] {
    try connection.rows(
      """
      SELECT family, plan_seed, plan_start, alpha FROM experiment_runs
      WHERE id IN (SELECT min(id) FROM experiment_runs GROUP BY family, plan_seed, plan_start)
      ORDER BY id
      """
    ).map { row in
      ErrorLedger.Reservation(
        family: row.string("family"), seed: UInt64(bitPattern: row.int64("plan_seed") ?? 0),
        start: row.string("plan_start"), alpha: row.double("alpha") ?? 0)
    }
  }
}
