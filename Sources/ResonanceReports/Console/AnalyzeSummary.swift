import ResonanceModel

/// What `resonance analyze` prints: the run's summary as lines for people and as JSON.
package enum AnalyzeSummary {
  /// `workout 12, deep-work 9, …`: sessions per context, most first.
  package static func contexts(_ counts: [ActivityContext: Int]) -> String {
    counts.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
      .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
  }

  /// The summary lines, each starting `analyze: `.
  package static func lines(
    _ summary: HistorySummary, derived: DerivedSummary, seconds: Double
  ) -> [String] {
    let count = Format.grouped(_:) as (Int) -> String
    let share = { (n: Int) in
      summary.plays == 0 ? "0" : Format.fixed(100 * Double(n) / Double(summary.plays), 0)
    }
    let byContext = contexts(summary.sessionsByContext)
    var lines = [
      "analyze: \(count(summary.plays)) plays in \(count(summary.sessions)) sessions"
        + (byContext.isEmpty ? "" : " (\(byContext))")
    ]
    if summary.sessionsKept > 0 {
      lines.append(
        "analyze: \(count(summary.sessionsKept)) sessions kept as the last run stored them (their plays and the data around them unchanged), \(count(summary.sessions - summary.sessionsKept)) computed"
      )
    }
    lines.append(
      "analyze: heart rate before and during \(count(summary.playsWithHeartRate)) plays (\(share(summary.playsWithHeartRate))%), HRV around \(count(summary.playsWithHRV)) (\(share(summary.playsWithHRV))%); the rest have no samples there, and no figure, in \(Format.fixed(seconds, 1)) s"
    )
    lines.append(derivedLine(derived, sessions: summary.sessions))
    for signal in Signal.allCases {
      lines.append(responseLine(signal, summary.response(signal)))
    }
    lines.append(featuresLine(summary.features))
    return lines
  }

  /// The nights, sessions with a next night, mean quality and ticks.
  static func derivedLine(_ derived: DerivedSummary, sessions: Int) -> String {
    let count = Format.grouped(_:) as (Int) -> String
    let quality =
      derived.meanQuality.map {
        "mean session quality \(Format.fixed($0, 2)) over \(count(derived.sessionsWithQuality))"
      } ?? "no session quality"
    return
      "analyze: \(count(derived.nights)) nights of sleep, \(count(derived.sessionsWithNextNight)) of \(count(sessions)) sessions with a next night; \(quality); \(count(derived.ticks)) state ticks (every 30 s of every session)"
  }

  /// One signal's song-response fit in a line.
  static func responseLine(_ signal: Signal, _ fit: SongResponseFit?) -> String {
    guard let fit else {
      return "analyze: song effects on \(signal.displayName): too few measured minutes to fit"
    }
    let f = { (x: Double) in Format.fixed(x, 1) }
    return
      "analyze: song effects on \(signal.displayName): \(fit.songs) songs from \(Format.grouped(fit.minutes)) measured minutes in \(Format.grouped(fit.sessions)) sessions, \(fit.distinguishable) distinguishable from the average song at 90%; response lag \(f(fit.lagMinutes)) min; noise keeps \(Format.fixed(fit.noise.persistence, 2)) per minute; moving \(f(fit.moving)) \(signal.unit), meeting \(f(fit.meeting)), work Focus \(f(fit.workFocus))"
  }

  /// Where the songs' tempos came from, in a line.
  static func featuresLine(_ s: SongFeatureSummary) -> String {
    let count = Format.grouped(_:) as (Int) -> String
    return
      "analyze: features for \(count(s.songs)) songs: BPM from the library for \(count(s.libraryBPM)), "
      + "the genre ridge fit for \(count(s.ridgeBPM)), the genre prior for \(count(s.priorBPM)), "
      + "the unknown-genre fallback for \(count(s.fallbackBPM)); "
      + "\(count(s.unknownGenre)) without a recognised genre"
  }

  /// The run as `--json` gives it (`docs/cli.md`): one shape whether this run computed the
  /// tables or found them up to date. Up to date, the figures are those of the run whose
  /// tables are in force (null for a run by a build that did not keep them), and `seconds` is
  /// this command's.
  ///
  /// - Parameters:
  ///   - summary: what the run in force found (nil for a run by a build that kept none).
  ///   - scope: that run's scope.
  ///   - analysedAt: when that run finished, UTC milliseconds.
  ///   - stored: false for a range previewed without `--replace`, whose figures the derived
  ///     tables do not hold.
  package static func json(
    _ summary: HistorySummary?, scope: AnalysisScope, derived: DerivedSummary, upToDate: Bool,
    analysedAt: Int64,
    lastImportID: Int64?, seconds: Double, stored: Bool = true
  ) -> JSONValue {
    var responses: [String: JSONValue] = [:]
    for signal in Signal.allCases {
      responses[signal.rawValue] = summary?.response(signal).map(responseJSON) ?? .null
    }
    let features: JSONValue =
      summary.map { s in
        let f = s.features
        return [
          "songs": .integer(f.songs), "bpm_library": .integer(f.libraryBPM),
          "bpm_genre_ridge": .integer(f.ridgeBPM), "bpm_genre_prior": .integer(f.priorBPM),
          "bpm_fallback": .integer(f.fallbackBPM), "unknown_genre": .integer(f.unknownGenre),
        ]
      } ?? .null
    let contexts: JSONValue =
      summary.map { s in
        .object(
          Dictionary(
            uniqueKeysWithValues: s.sessionsByContext.map { ($0.key.rawValue, .integer($0.value)) }
          ))
      } ?? .null
    return .object(
      derivedJSON(derived).merging([
        "format_version": 1, "up_to_date": .bool(upToDate), "stored": .bool(stored),
        "analysed_at": .string(Timestamp.iso8601UTC(millisecondsSinceEpoch: analysedAt)),
        "last_import_id": .integer(lastImportID), "plays": .integer(summary?.plays),
        "sessions": .integer(summary?.sessions), "contexts": contexts,
        "plays_with_hr_delta": .integer(summary?.playsWithHeartRate),
        "plays_with_hrv_delta": .integer(summary?.playsWithHRV),
        "gap_minutes": .integer(scope.gapMinutes),
        "from": .text(scope.days.from?.description), "to": .text(scope.days.to?.description),
        "seconds": .number(seconds), "sessions_kept": .integer(summary?.sessionsKept),
        "song_responses": .object(responses), "song_features": features,
      ]) { $1 })
  }

  static func derivedJSON(_ d: DerivedSummary) -> [String: JSONValue] {
    [
      "nights": .integer(d.nights), "sessions_with_next_night": .integer(d.sessionsWithNextNight),
      "sessions_with_quality": .integer(d.sessionsWithQuality),
      "mean_session_quality": .number(d.meanQuality), "state_ticks": .integer(d.ticks),
    ]
  }

  static func responseJSON(_ fit: SongResponseFit) -> JSONValue {
    [
      "songs": .integer(fit.songs), "distinguishable": .integer(fit.distinguishable),
      "lag_minutes": .number(fit.lagMinutes), "measured_minutes": .integer(fit.minutes),
      "sessions": .integer(fit.sessions), "noise_sd": .number(fit.noiseSD),
      "noise_persistence": .number(fit.noise.persistence),
      "reading_noise": .number(fit.noise.readingNoise), "design_effect": .number(fit.designEffect),
      "song_sd": .number(fit.songSD), "genre_sd": .number(fit.genreSD),
      "moving": .number(fit.moving), "meeting": .number(fit.meeting),
      "work_focus": .number(fit.workFocus),
    ]
  }
}

extension AnalyzeSummary {
  /// The run in one sentence, as the demo's index page gives it.
  package static func outcome(_ summary: HistorySummary) -> String {
    let count = Format.grouped(_:) as (Int) -> String
    let effects = summary.responses.map { fit in
      "\(fit.signal == .heartRate ? "heart-rate" : "HRV") effects of \(count(fit.songs)) songs (\(count(fit.distinguishable)) apart from the average song at 90%)"
    }
    return
      "\(count(summary.sessions)) listening sessions (\(contexts(summary.sessionsByContext))); heart rate before and during \(count(summary.playsWithHeartRate)) of \(count(summary.plays)) plays, HRV around \(count(summary.playsWithHRV))"
      + (effects.isEmpty ? "" : "; " + effects.joined(separator: ", "))
  }
}
