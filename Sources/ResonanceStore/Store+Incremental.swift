import Foundation
import ResonanceModel

/// What `resonance analyze` needs to bring the session tables up to date without recomputing
/// them: where the raw tables stood at the last run, what has arrived since, and which sessions
/// the last runs stored.
extension Store {
  /// The raw tables a session's derived rows read (its context, biometrics and state ticks),
  /// with the columns that say when each row happened (none for `person`, the birth year,
  /// which every session reads). Rows are only ever added to them, so a row id above the last
  /// run's mark is a row that run did not see.
  static let sessionInputs: [(table: String, span: (start: String, end: String)?)] = [
    ("health_records", ("start_ms", "end_ms")), ("workouts", ("start_ms", "end_ms")),
    ("biometric_samples", ("time_ms", "time_ms")), ("macos_contexts", ("time_ms", "time_ms")),
    ("mood_inputs", ("time_ms", "time_ms")), ("person", nil),
  ]

  /// The largest row id of each of `sessionInputs`' tables (0 for an empty one).
  ///
  /// - Throws: `StoreError` when a query fails.
  package func rawMarks() throws(StoreError) -> [String: Int64] {
    var marks: [String: Int64] = [:]
    for input in Self.sessionInputs {
      marks[input.table] =
        try connection.row("SELECT COALESCE(MAX(id), 0) AS mark FROM \(input.table)")?.int64(
          "mark") ?? 0
    }
    return marks
  }

  /// What was added after `marks`: the time the new rows cover, as hours merged into spans
  /// (each hour that holds a new row's start, to the latest end among them), or nil when a
  /// change cannot be placed in time — a new birth year, or a table `marks` does not name —
  /// and every session must be recomputed.
  ///
  /// - Complexity: one index range scan per table over the rows added since.
  /// - Throws: `StoreError` when a query fails.
  package func spansAdded(after marks: [String: Int64]) throws(StoreError) -> [TimeSpan]? {
    var hours: [TimeSpan] = []
    for input in Self.sessionInputs {
      guard let mark = marks[input.table] else { return nil }
      guard let span = input.span else {
        let added =
          try connection.row(
            "SELECT COUNT(*) AS added FROM \(input.table) WHERE id > ?", [mark])?.int("added")
          ?? 0
        if added > 0 { return nil }
        continue
      }
      for row in try connection.rows(
        """
        SELECT \(span.start) / 3600000 AS hour, MAX(\(span.end)) AS end_ms FROM \(input.table)
        WHERE id > ?
        GROUP BY 1
        """, [mark])
      {
        let hour = (row.int64("hour") ?? 0) * 3_600_000
        hours.append(
          TimeSpan(startMs: hour, endMs: max(hour + 3_600_000, row.int64("end_ms") ?? hour)))
      }
    }
    hours.sort { $0.startMs < $1.startMs }
    var merged: [TimeSpan] = []
    for span in hours {
      if let last = merged.last, span.startMs <= last.endMs {
        merged[merged.count - 1].endMs = max(last.endMs, span.endMs)
      } else {
        merged.append(span)
      }
    }
    return merged
  }

  /// The stored sessions that carry an inputs digest, by digest (sessions written before
  /// schema 15 have none, and are always recomputed).
  ///
  /// - Throws: `StoreError` when the query fails.
  package func storedSessionDigests() throws(StoreError) -> [String: Int64] {
    var result: [String: Int64] = [:]
    for row in try connection.rows(
      "SELECT inputs_digest, id FROM historical_sessions WHERE inputs_digest IS NOT NULL")
    {
      result[row.string("inputs_digest")] = row.int64("id") ?? 0
    }
    return result
  }
}

extension Store {
  /// What the last run left that a run over `scope` may keep: nil when there was no run with
  /// that scope, it left no marks, or what was added since cannot be placed in time.
  ///
  /// - Throws: `StoreError` when a query fails.
  package func storedSessions(for scope: AnalysisScope) throws(StoreError) -> StoredSessions? {
    guard let last = try lastAnalysis(), last.scope == scope, let marks = last.marks,
      let added = try spansAdded(after: marks)
    else { return nil }
    return StoredSessions(digests: try storedSessionDigests(), added: added)
  }
}
