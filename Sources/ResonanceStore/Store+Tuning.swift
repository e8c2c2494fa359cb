import Foundation
import ResonanceModel

extension Store {
  /// Stores a sweep and every point's estimates; returns the run's id.
  @discardableResult
  ///
  /// - Throws: `StoreError` when a statement fails.
  package func insertSweep(_ sweep: SweepResult, at ms: Int64) throws -> Int64 {
    let db = connection
    return try db.transaction { () throws -> Int64 in
      try db.execute(
        """
        INSERT INTO sweep_runs (ran_at_ms, design, reward, estimator, decisions, from_day,
          to_day, kernel_seconds, product)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          ms, sweep.design.description, sweep.reward.rawValue, sweep.estimator.rawValue,
          sweep.decisions, sweep.from, sweep.to, sweep.kernelSeconds, sweep.product.rawValue,
        ])
      let run = db.lastInsertRowID
      let insert = try db.prepare(
        """
        INSERT INTO sweep_points (run_id, point, label, bpm_weight, energy_weight,
          familiarity_weight, historical_weight, context_weight, recency_penalty_weight,
          time_of_day_penalty_weight, value, value_low90, value_high90, keep_rate, response,
          effective_sample_size, largest_weight, agreement_share, pareto)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for p in sweep.points {
        insert.bind(run, at: 1)
        insert.bind(Int64(p.index), at: 2)
        insert.bind(p.label, at: 3)
        for (k, w) in p.weights.vector.enumerated() { insert.bind(w, at: Int32(4 + k)) }
        insert.bind(p.value, at: 11)
        insert.bind(p.lower, at: 12)
        insert.bind(p.upper, at: 13)
        insert.bind(p.keepRate, at: 14)
        insert.bind(p.response, at: 15)
        insert.bind(p.effectiveSampleSize, at: 16)
        insert.bind(p.largestWeight, at: 17)
        insert.bind(p.agreementShare, at: 18)
        insert.bind(Int64(p.isPareto ? 1 : 0), at: 19)
        try insert.run()
      }
      return run
    }
  }

  /// Stores what `resonance tune` found (the whole report as JSON) and, when the run spent
  /// from the error ledger, its line there, in one transaction; returns the run's id.
  ///
  /// - Throws: `StoreError` `.busy` when another run recorded a line for the same family
  ///   after this run read the ledger (its spending was worked out on a ledger that no longer
  ///   is: nothing is stored); `StoreError` when a statement fails.
  @discardableResult
  package func insertTuning(_ report: TuningReport, at ms: Int64) throws(StoreError) -> Int64 {
    let text: String
    do {
      text = try Self.json(report)
    } catch {
      throw StoreError(.sqlite(code: 20), message: "cannot encode the tuning report: \(error)")
    }
    let db = connection
    do {
      return try db.transaction { () throws -> Int64 in
        try db.execute(
          "INSERT INTO tuning_runs (ran_at_ms, recommendation, reason, report) VALUES (?, ?, ?, ?)",
          [ms, report.recommendation.rawValue, report.reason, text])
        let run = db.lastInsertRowID
        guard let spending = report.spending, spending.kind == .new, let entry = spending.entry
        else { return run }
        let newest = try db.row(
          """
          SELECT through_month FROM tuning_ledger WHERE family = ?
          ORDER BY through_month DESC LIMIT 1
          """, [entry.family])
        guard newest?.string("through_month") == spending.newestBefore else {
          throw StoreError(
            .busy,
            message:
              "another resonance tune recorded a run for these preferences while this one "
              + "ran, so what this one spent of the error rate no longer adds up; nothing was "
              + "stored: run it again")
        }
        try db.execute(
          """
          INSERT INTO tuning_ledger (run_id, family, first_month, through_month, months, alpha,
            spent)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """,
          [
            run, entry.family, entry.firstMonth, entry.throughMonth, Int64(entry.months),
            entry.alpha, entry.spent,
          ])
        return run
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.sqlite(code: 1), message: "\(error)")
    }
  }

  /// Every line of the error ledger, oldest first.
  package func errorLedger() throws(StoreError) -> [ErrorLedger.Entry] {
    try connection.rows(
      """
      SELECT family, first_month, through_month, months, alpha, spent FROM tuning_ledger
      ORDER BY run_id
      """
    ).map { row in
      ErrorLedger.Entry(
        family: row.string("family"), firstMonth: row.string("first_month"),
        throughMonth: row.string("through_month"), months: row.int("months"),
        alpha: row.double("alpha") ?? 0, spent: row.double("spent") ?? 0)
    }
  }

  /// The last tuning report stored, if any.
  package func latestTuning() throws(StoreError) -> TuningReport? {
    guard let row = try connection.row("SELECT report FROM tuning_runs ORDER BY id DESC LIMIT 1")
    else { return nil }
    do {
      return try JSONDecoder().decode(TuningReport.self, from: Data(row.string("report").utf8))
    } catch {
      throw StoreError(
        .sqlite(code: 20), message: "the stored tuning report is not one this build writes")
    }
  }
}

extension Store {
  /// Every stored play in start order, with its session's context, for the pairwise
  /// cross-check (a play the DJ chose carries its decision number).
  package func rankingPlays() throws(StoreError) -> [RankingPlay] {
    try connection.fetch(
      RankingPlay.self,
      """
      SELECT p.song_id, p.start_ms, p.start_offset_s, p.session_id, h.context, p.was_skipped,
        p.decision IS NOT NULL AS by_dj
      FROM playback_events p LEFT JOIN historical_sessions h ON h.id = p.session_id
      ORDER BY p.start_ms, p.id
      """)
  }
}

extension RankingPlay: RowDecodable {
  /// A play as `rankingPlays()` selects it; a context this build does not know reads as none.
  package init(row: Row) throws(StoreError) {
    self.init(
      songID: row.int64("song_id") ?? 0, start: row.timestamp("start_ms", offset: "start_offset_s"),
      session: row.int64("session_id"), context: row.text("context").flatMap(ActivityContext.init),
      skipped: row.int("was_skipped") == 1, byDJ: row.int("by_dj") == 1)
  }
}
