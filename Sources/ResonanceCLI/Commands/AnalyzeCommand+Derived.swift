import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceStore

/// The part of `resonance analyze` that follows the sessions: the nights in the sleep records,
/// each session's next night and quality, and the state engine's 30-second timeline over every
/// session. `analyze(_:scope:startedAt:)` hands the rows to `replaceAnalysis`, so they are
/// replaced in the same transaction as the sessions they belong to.
extension AnalyzeCommand {
  /// The nights, session outcomes and state ticks for `analysis`'s sessions, as the store's
  /// rows (sessions named by their index in `analysis.sessions`). Ticks only for the sessions
  /// `ticksFor` marks (those whose stored ticks are not kept); outcomes for all, since a new
  /// night moves every session's sleep baseline.
  ///
  /// Reads the resting heart rates and mood inputs; the sleep records, heart rate, HRV and
  /// birth year come already loaded. `docs/brain.md` gives the rules
  /// ("Sleep and session quality", "State").
  ///
  /// - Complexity: O((s + n) log n + T + S) for s sessions, n nights, T ticks and S samples.
  /// - Throws: `StoreError` when a read fails.
  static func derivedRows(
    _ store: Store, _ analysis: HistoryAnalysis, signals: HistoryAnalysis.Signals,
    sleep: [SleepInterval], birthYear: Int?, ticksFor: [Bool]
  ) throws -> Store.DerivedRows {
    let nights = SleepNights.nights(from: sleep)
    let sessions = analysis.sessions
    let baseline = SleepBaseline(nights: nights)
    let indexOfEvening = Dictionary(
      uniqueKeysWithValues: nights.enumerated().map { ($1.eveningDay, $0) })
    let next = SleepNights.nextNights(for: sessions.map(\.session), in: nights)
    let outcomes = zip(sessions, next).map { s, night in
      let quality = SessionQualityScorer.quality(
        s.session, hrvDeltaMs: s.hrv.delta, nextNight: night, baseline: baseline)
      return Store.SessionOutcomeRow(
        nextNight: night.flatMap { indexOfEvening[$0.eveningDay] },
        sleepScore: night.flatMap { SessionQualityScorer.sleepScore($0, baseline: baseline) },
        quality: quality.score, basis: quality.basis.map(\.rawValue))
    }

    let computed = sessions.indices.filter { ticksFor[$0] }
    let ticks = StateEngine.ticks(
      periods: computed.map {
        StatePeriod(
          startMs: sessions[$0].session.start.millisecondsSinceEpoch,
          endMs: sessions[$0].session.endMs, context: sessions[$0].session.context)
      },
      heartRate: signals.heartRate, hrv: signals.hrv,
      restingHeartRate: try store.restingHeartRates().map {
        SignalSample(timeMs: $0.timeMs, value: $0.bpm)
      },
      age: birthYear.map { .birthYear($0) } ?? .unknown,
      mood: try store.moodInputs())

    return Store.DerivedRows(
      nights: nights.map(row), outcomes: outcomes,
      ticks: ticks.map { t in
        Store.StateTickRow(
          session: computed[t.period], timeMs: t.timeMs, arousal: t.state.arousal,
          stress: t.state.stress,
          energy: t.state.energy, focus: t.state.focus, valence: t.state.valence,
          need: t.need.rawValue, restingSource: code(t.evidence.restingSource),
          hrvFreshness: code(t.evidence.hrvFreshness), moodWeight: t.evidence.moodWeight)
      })
  }

  /// The summary's keys for `--json`: `nights`, `sessions_with_next_night`,
  /// `sessions_with_quality`, `mean_session_quality` (null when no session has one) and
  /// `state_ticks`.
  static func derivedJSON(_ summary: Store.DerivedSummary) -> [String: Any] {
    [
      "nights": summary.nights, "sessions_with_next_night": summary.sessionsWithNextNight,
      "sessions_with_quality": summary.sessionsWithQuality,
      "mean_session_quality": summary.meanQuality.map { $0 as Any } ?? NSNull(),
      "state_ticks": summary.ticks,
    ]
  }

  /// The summary's line: nights, sessions with a next night, mean quality, ticks.
  static func derivedText(_ summary: Store.DerivedSummary, sessions: Int) -> String {
    let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
    let quality =
      summary.meanQuality.map {
        "mean session quality \(ProgressReporter.fixed($0, 2)) over \(count(summary.sessionsWithQuality))"
      } ?? "no session quality"
    return
      "analyze: \(count(summary.nights)) nights of sleep, \(count(summary.sessionsWithNextNight)) of \(count(sessions)) sessions with a next night; \(quality); \(count(summary.ticks)) state ticks (every 30 s of every session)"
  }

  private static func row(_ n: NightSleep) -> Store.NightRow {
    Store.NightRow(
      evening: String(
        Timestamp.iso8601UTC(millisecondsSinceEpoch: n.eveningDay * 86_400_000)
          .prefix(10)),
      bedtime: n.bedtime, wake: n.wake, sleepOnset: n.sleepOnset, timeInBedMs: n.timeInBedMs,
      asleepMs: n.asleepMs, efficiency: n.efficiency, deepShare: n.deepShare,
      remShare: n.remShare, awakeMinutes: n.awakeMinutes, primarySource: n.primarySource)
  }

  private static func code(_ source: RestingSource) -> String {
    switch source {
    case .record: "record"
    case .percentile: "percentile"
    case .unavailable: "none"
    }
  }

  private static func code(_ freshness: HRVFreshness) -> String {
    switch freshness {
    case .fresh: "fresh"
    case .carried: "carried"
    case .missing: "missing"
    }
  }
}
