import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceStore

/// Which sessions a run can keep from the last one. A session's stored rows (the session,
/// its plays' biometrics, its state ticks) depend only on its plays and on the raw data from a
/// week before it to its end; when the plays are the same (same digest) and nothing was added
/// in that window since the last run, they are kept as they are.
extension AnalyzeCommand {
  /// Bumped whenever what a session's rows hold changes meaning, so that rows an older build
  /// wrote are recomputed rather than kept.
  static let sessionRowsVersion = "sessions-1"

  /// How far before a session its rows look: the state engine's resting-heart-rate record may
  /// be 7 days old. After its end: HRV around a play runs to 5 minutes after it.
  static let lookBackMs: Int64 = 7 * 86_400_000
  static let lookAheadMs: Int64 = 10 * 60_000

  /// Per session, in `analysis.sessions`' order: its inputs digest, and the stored session it
  /// is (nil: compute it). Nothing is kept on `--rebuild`, after a change of options, when the
  /// last run left no marks, or when the new data cannot be placed in time.
  static func reuse(
    _ store: Store, _ analysis: HistoryAnalysis, plays: [Int64: HistoricalPlay],
    scope: AnalysisScope, birthYear: Int?, rebuild: Bool
  ) throws -> [(digest: String, keptID: Int64?)] {
    let digests = analysis.sessions.map {
      digest($0.session, plays: plays, scope: scope, birthYear: birthYear)
    }
    guard !rebuild, let last = try store.lastAnalysis(), last.scope == scope,
      let marks = last.marks, let added = try store.spansAdded(after: marks)
    else { return digests.map { ($0, nil) } }
    let stored = try store.storedSessionDigests()
    return zip(analysis.sessions, digests).map { session, digest in
      guard let id = stored[digest] else { return (digest, nil) }
      let from = session.session.start.millisecondsSinceEpoch - lookBackMs
      let to = session.session.endMs + lookAheadMs
      // The spans are merged and in order, so their ends are too: the first ending after
      // `from` is the only one that can reach into the window first.
      let first = added.partitioningIndex { $0.endMs > from }
      let touched = first < added.count && added[first].startMs < to
      return (digest, touched ? nil : id)
    }
  }

  /// SHA-256 over what a session's rows are computed from, besides the raw data around it:
  /// its plays (id, times, how much was heard, skipped), its bounds and context, the options
  /// and the birth year (the state engine's maximum heart rate).
  static func digest(
    _ session: ListeningSession, plays: [Int64: HistoricalPlay], scope: AnalysisScope,
    birthYear: Int?
  ) -> String {
    var text =
      "\(sessionRowsVersion)|\(scope.gapMinutes)|\(scope.fromMs ?? -1)|\(scope.toMs ?? -1)|"
      + "\(birthYear ?? -1)|\(session.start.millisecondsSinceEpoch)|"
      + "\(session.start.utcOffsetSeconds)|\(session.endMs)|\(session.context.rawValue)"
    for id in session.playIDs {
      guard let p = plays[id] else { continue }
      text +=
        "|\(id),\(p.start.millisecondsSinceEpoch),\(p.start.utcOffsetSeconds),\(p.endMs),"
        + "\(p.playedMs ?? -1),\(p.mediaDurationMs ?? -1),\(p.wasSkipped)"
    }
    let hash = SHA256()
    hash.update(Array(text.utf8))
    return hash.finalize()
  }
}
