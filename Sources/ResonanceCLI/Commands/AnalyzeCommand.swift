import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceStore

/// `resonance analyze`: the derived tables brought up to date from what the store holds.
struct AnalyzeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "analyze",
    abstract:
      "The history stage: sessions, heart rate and HRV around every play, what each song does, sleep, quality and states.",
    discussion: """
      Groups the stored plays into sessions (a new one after a gap of more than 30 minutes, or \
      where the context changes for three plays or more), gives each the context the seed's \
      five-level cascade finds (Watch workout, the Mac's Focus, apps and meetings, motion, \
      time of day with weekends, fallback), its skip rate \
      and engagement, and measures heart rate and HRV before and during every play and \
      session, with the number of samples behind each figure: most plays have no HRV sample, \
      and then there is no figure (docs/brain.md gives every window).

      It also finds the nights in the sleep records, gives each session its next night and \
      its quality (skip rate, HRV response, engagement, next-night sleep), and estimates the \
      state every 30 seconds of every session (state_ticks).

      Beyond the seed it estimates what each song does to heart rate and HRV while it plays, \
      against the person's average music, with a 90% interval (song_effect_estimates), and \
      stores every song's tempo, energy and valence estimates (song_features).

      A run brings the derived tables up to date in one transaction and records itself in \
      analysis_runs with the last import it saw and its options. A session whose plays are \
      unchanged and that no data imported since can reach (from a week before it to its end) \
      keeps its row, its plays' biometrics and its state ticks; the rest are computed again. \
      What depends on the whole history is recomputed every time: the song effects (one fit \
      over every play), the learning replay (from the first play, in order), the nights and \
      session quality (against the person's typical night) and the song features. When \
      nothing was imported since the last run and the options are the same, it says the \
      tables are up to date and changes nothing; --rebuild recomputes everything (after \
      upgrading resonance, say). --from and --to restrict the analysis to the plays that start \
      in those days.
      """,
    options: [
      CommonOptions.db,
      OptionDefinition(
        "gap", .value(placeholder: "MINUTES"),
        help: "The silence that ends a session, 1–1440 minutes. Default: 30."),
      OptionDefinition(
        "from", .value(placeholder: "DATE"),
        help: "Only plays starting on or after this day (YYYY-MM-DD, UTC)."),
      OptionDefinition(
        "to", .value(placeholder: "DATE"),
        help: "Only plays starting before this day (YYYY-MM-DD, UTC): the day after the last."),
      OptionDefinition(
        "rebuild", .flag,
        help:
          "Recompute every session, even those the last run left unchanged, and even when nothing was imported since."
      ),
      CommonOptions.json,
      CommonOptions.quiet,
    ],
    examples: [
      Example("resonance analyze", "Sessions and per-play biometrics for ./resonance.sqlite."),
      Example(
        "resonance analyze --gap 45 --json --db /tmp/person.sqlite",
        "Sessions split by 45-minute silences, the summary as JSON."),
      Example(
        "resonance analyze --from 2022-06-01 --to 2022-09-01 --rebuild",
        "Only the summer's plays, recomputed whatever the last run did."),
    ])

  var storePath: String
  var scope: AnalysisScope
  var gapMinutes: Int { scope.gapMinutes }
  var isRebuild: Bool
  var isJSON: Bool
  var isQuiet: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    storePath = CommonOptions.storePath(parsed, environment)
    isJSON = parsed.flag("json")
    isQuiet = parsed.flag("quiet")
    isRebuild = parsed.flag("rebuild")
    scope = AnalysisScope()
    if let text = parsed.value("gap") {
      guard let minutes = Int(text), (1...1440).contains(minutes) else {
        throw UsageError(
          "--gap: expected whole minutes from 1 to 1440, found '\(text)'",
          hint: "resonance analyze --gap 30")
      }
      scope.gapMinutes = minutes
    }
    for (name, text) in [("from", parsed.value("from")), ("to", parsed.value("to"))] {
      guard let text else { continue }
      guard let ms = HRVCommand.day(text) else {
        throw UsageError(
          "--\(name): expected a day YYYY-MM-DD, found '\(text)'",
          hint: "resonance analyze --from 2022-06-01 --to 2022-07-01")
      }
      if name == "from" { scope.fromMs = ms } else { scope.toMs = ms }
    }
    if let from = scope.fromMs, let to = scope.toMs, from >= to {
      throw UsageError(
        "--from must be before --to", hint: "resonance analyze --from 2022-06-01 --to 2022-07-01")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let started = Date()
    let startedAt = Clock.nowMilliseconds()
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    if !isRebuild, let last = try store.lastAnalysis(), last.scope == scope,
      last.lastImportID == (try store.lastImportID())
    {
      reportUpToDate(last.lastImportID, finishedAtMs: last.finishedAtMs, context: context)
      return .ok
    }
    let outcome = try Self.analyze(
      store, scope: scope, startedAt: startedAt, rebuild: isRebuild)
    let seconds = Date().timeIntervalSince(started)
    report(outcome, try store.derivedSummary(), seconds: seconds, context: context)
    return .ok
  }

  /// What one analysis found, for the summary.
  struct Outcome {
    var history: HistoryAnalysis
    /// Sessions kept as the store held them (their inputs unchanged since the run that wrote
    /// them).
    var keptSessions: Int
    /// The song-response model per signal (`hr`, `hrv`); nil where there was too little to fit.
    var responses: [(signal: String, fit: SongResponseModel.Fit?)]
    var features: FeatureSummary
  }

  /// Loads what the analysis reads, runs it, and brings the derived tables up to date: the
  /// sessions whose inputs did not change since the last run keep their rows (unless
  /// `rebuild`), every other derived row is replaced.
  static func analyze(
    _ store: Store, scope: AnalysisScope = AnalysisScope(), startedAt: Int64,
    rebuild: Bool = false
  ) throws -> Outcome {
    let gapMinutes = scope.gapMinutes
    // Before anything is read: rows added while the run reads are found by the next one.
    let marks = try store.rawMarks()
    let plays = try store.historicalPlays().filter { p in
      p.startMs >= (scope.fromMs ?? .min) && p.startMs < (scope.toMs ?? .max)
    }.map { p in
      HistoricalPlay(
        id: p.id, start: Timestamp(millisecondsSinceEpoch: p.startMs, utcOffsetSeconds: p.offset),
        endMs: p.endMs, playedMs: p.playedMs, mediaDurationMs: p.mediaMs, wasSkipped: p.skipped,
        songID: p.songID)
    }
    let heartRate = try store.signal(.heartRate)
    let hrv = try store.signal(.hrv)
    let mac = try store.macSnapshots()
    let signals = HistoryAnalysis.Signals(
      workouts: try store.workoutSpans(), mac: mac, motion: try store.motionReadings(),
      heartRate: heartRate.map { SignalSample(timeMs: $0.timeMs, value: $0.value) },
      hrv: hrv.map { SignalSample(timeMs: $0.timeMs, value: $0.value) })
    let analysis = HistoryAnalysis(
      plays: plays, signals: signals, gapMs: Int64(gapMinutes) * 60_000)
    let genres = try store.songGenres()
    let sleep = try store.sleepIntervals()
    let asleep = sleep.filter(\.value.isAsleep).map {
      (startMs: $0.start.millisecondsSinceEpoch, endMs: $0.end.millisecondsSinceEpoch)
    }
    let responses = Self.songResponses(
      analysis, plays: plays, heartRate: heartRate, hrv: hrv, mac: mac, genres: genres,
      asleep: asleep, stress: try store.decisionStress())
    let features = try Self.songFeatures(store)
    let byID = Dictionary(uniqueKeysWithValues: plays.map { ($0.id, $0) })
    let birthYear = try store.birthYear()
    let reuse = try Self.reuse(
      store, analysis, plays: byID, scope: scope, birthYear: birthYear, rebuild: rebuild)
    let computedPlays = Set(
      zip(analysis.sessions, reuse).filter { $1.keptID == nil }.flatMap { $0.0.session.playIDs })
    func tuple(_ c: SignalChange) -> (Double?, Double?, Int, Int) {
      (c.before, c.during, c.samplesBefore, c.samplesDuring)
    }
    try store.replaceAnalysis(
      sessions: zip(analysis.sessions, reuse).map { s, reuse in
        Store.SessionRow(
          playIDs: s.session.playIDs, start: s.session.start,
          end: Timestamp(
            millisecondsSinceEpoch: s.session.endMs,
            utcOffsetSeconds: s.session.start.utcOffsetSeconds),
          context: s.session.context.rawValue, skipRate: s.session.skipRate,
          engagement: s.session.engagement, meanHR: s.heartRate.during, meanHRV: s.hrv.during,
          hrDelta: s.heartRate.delta, hrvDelta: s.hrv.delta, inputsDigest: reuse.digest,
          keptID: reuse.keptID)
      },
      biometrics: analysis.plays.filter { computedPlays.contains($0.id) }.map {
        Store.PlayBiometricsRow(playID: $0.id, hr: tuple($0.heartRate), hrv: tuple($0.hrv))
      },
      effects: analysis.effects.map { key, value in
        Store.SongEffectRow(
          songID: key.songID, context: key.context.rawValue, calm: value.effect.calm,
          energy: value.effect.energy, focus: value.effect.focus, mood: value.effect.mood,
          samples: value.effect.sampleCount, updatedAtMs: value.lastMs)
      },
      estimates: responses.flatMap { signal, fit in
        (fit?.responses ?? []).map {
          Store.EffectEstimateRow(
            songID: $0.songID, signal: signal, plays: $0.plays, minutes: $0.minutes,
            rawMean: $0.unpooled,
            priorMean: $0.genreMean, estimate: $0.estimate, sd: $0.sd, low90: $0.low90,
            high90: $0.high90)
        }
      },
      derived: try derivedRows(
        store, analysis, signals: signals, sleep: sleep, birthYear: birthYear,
        ticksFor: reuse.map { $0.keptID == nil }),
      features: features.rows, scope: scope, marks: marks, startedAt: startedAt,
      finishedAt: Clock.nowMilliseconds())
    return Outcome(
      history: analysis, keptSessions: reuse.filter { $0.keptID != nil }.count,
      responses: responses, features: features.summary)
  }

  /// The song-response model for heart rate and for HRV over the reconstructed sessions.
  static func songResponses(
    _ analysis: HistoryAnalysis, plays: [HistoricalPlay],
    heartRate: [(timeMs: Int64, value: Double, isMoving: Bool)],
    hrv: [(timeMs: Int64, value: Double, isMoving: Bool)], mac: [MacContextSnapshot],
    genres: [Int64: String], asleep: [(startMs: Int64, endMs: Int64)], stress: [Int64: Double]
  ) -> [(signal: String, fit: SongResponseModel.Fit?)] {
    let byID = Dictionary(uniqueKeysWithValues: plays.map { ($0.id, $0) })
    // The HRV a DJ chose on, from the stress it logged: stress = 0.5 × 50 ms / SDNN, clamped
    // at 1 (an SDNN of 25 ms or less reads as 25).
    func sessions(chosenOnHRV: Bool) -> [SongResponseModel.Session] {
      analysis.sessions.map { s in
        SongResponseModel.Session(
          context: s.session.context,
          plays: s.session.playIDs.compactMap { byID[$0] }.map { p in
            let start = p.start.millisecondsSinceEpoch
            let heard = p.playedMs.map { min(p.endMs, start + $0) } ?? p.endMs
            let chosenOn =
              chosenOnHRV
              ? stress[p.id].flatMap { $0 > 0 ? 0.5 * NeedRule.populationHRVMs / $0 : nil } : nil
            return SongResponseModel.Play(
              songID: p.songID, startMs: start, heardEndMs: heard, chosenOn: chosenOn)
          })
      }
    }
    func fit(
      _ samples: [(timeMs: Int64, value: Double, isMoving: Bool)], chosenOnHRV: Bool
    ) -> SongResponseModel.Fit? {
      SongResponseModel.fit(
        sessions: sessions(chosenOnHRV: chosenOnHRV),
        samples: samples.map { .init(timeMs: $0.timeMs, value: $0.value, isMoving: $0.isMoving) },
        mac: mac, genres: genres, asleep: asleep)
    }
    return [("hr", fit(heartRate, chosenOnHRV: false)), ("hrv", fit(hrv, chosenOnHRV: true))]
  }

  private func reportUpToDate(_ lastImport: Int64?, finishedAtMs: Int64, context: CommandContext) {
    if isJSON {
      let object: [String: Any] = [
        "up_to_date": true, "last_import_id": lastImport.map { $0 as Any } ?? NSNull(),
        "analysed_at_ms": finishedAtMs,
      ]
      let data =
        (try? JSONSerialization.data(
          withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
      context.console.out(String(decoding: data, as: UTF8.self) + "\n")
    } else if !isQuiet {
      context.report(
        "analyze: up to date: nothing imported since the last analysis, with the same options (--rebuild recomputes anyway)"
      )
    }
  }

  private func report(
    _ outcome: Outcome, _ derived: Store.DerivedSummary, seconds: Double,
    context: CommandContext
  ) {
    let analysis = outcome.history
    let withHR = analysis.playsWithHeartRate
    let withHRV = analysis.playsWithHRV
    if isJSON {
      let contexts = Dictionary(
        uniqueKeysWithValues: analysis.sessionsByContext.map { ($0.key.rawValue, $0.value) })
      let object: [String: Any] = Self.derivedJSON(derived).merging([
        "plays": analysis.plays.count, "sessions": analysis.sessions.count,
        "contexts": contexts, "plays_with_hr_delta": withHR, "plays_with_hrv_delta": withHRV,
        "gap_minutes": gapMinutes, "seconds": seconds, "up_to_date": false,
        "sessions_kept": outcome.keptSessions,
        "song_responses": Dictionary(
          uniqueKeysWithValues: outcome.responses.map { ($0.signal, Self.responseJSON($0.fit)) }),
        "song_features": outcome.features.json,
      ]) { $1 }
      let data =
        (try? JSONSerialization.data(
          withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
        ?? Data()
      context.console.out(String(decoding: data, as: UTF8.self) + "\n")
      return
    }
    guard !isQuiet else { return }
    let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
    let share = { (n: Int) in
      analysis.plays.isEmpty
        ? "0" : ProgressReporter.fixed(100 * Double(n) / Double(analysis.plays.count), 0)
    }
    let byContext = analysis.sessionsByContextText
    context.report(
      "analyze: \(count(analysis.plays.count)) plays in \(count(analysis.sessions.count)) sessions"
        + (byContext.isEmpty ? "" : " (\(byContext))"))
    if outcome.keptSessions > 0 {
      context.report(
        "analyze: \(count(outcome.keptSessions)) sessions kept as the last run stored them (their plays and the data around them unchanged), \(count(analysis.sessions.count - outcome.keptSessions)) computed"
      )
    }
    context.report(
      "analyze: heart rate before and during \(count(withHR)) plays (\(share(withHR))%), HRV around \(count(withHRV)) (\(share(withHRV))%); the rest have no samples there, and no figure, in \(ProgressReporter.fixed(seconds, 1)) s"
    )
    context.report(Self.derivedText(derived, sessions: analysis.sessions.count))
    for (signal, fit) in outcome.responses {
      context.report(Self.responseText(signal, fit))
    }
    context.report(outcome.features.text)
  }

  static func responseJSON(_ fit: SongResponseModel.Fit?) -> Any {
    guard let fit else { return NSNull() }
    return [
      "songs": fit.responses.count,
      "distinguishable": fit.responses.filter(\.isDistinguishableFromZero).count,
      "lag_minutes": fit.lagMinutes, "measured_minutes": fit.minutes, "sessions": fit.sessions,
      "noise_sd": fit.noiseSD, "noise_persistence": fit.noise.persistence,
      "reading_noise": fit.noise.readingNoise, "design_effect": fit.designEffect,
      "song_sd": fit.songSD,
      "genre_sd": fit.genreSD, "moving": fit.moving, "meeting": fit.meeting,
      "work_focus": fit.workFocus,
    ] as [String: Any]
  }

  static func responseText(_ signal: String, _ fit: SongResponseModel.Fit?) -> String {
    let name = signal == "hr" ? "heart rate" : "HRV"
    guard let fit else {
      return "analyze: song effects on \(name): too few measured minutes to fit"
    }
    let unit = signal == "hr" ? "bpm" : "ms"
    let f = { (x: Double) in ProgressReporter.fixed(x, 1) }
    let distinguishable = fit.responses.filter(\.isDistinguishableFromZero).count
    return
      "analyze: song effects on \(name): \(fit.responses.count) songs from \(ProgressReporter.grouped(Int64(fit.minutes))) measured minutes in \(fit.sessions) sessions, \(distinguishable) distinguishable from the average song at 90%; response lag \(f(fit.lagMinutes)) min; noise keeps \(ProgressReporter.fixed(fit.noise.persistence, 2)) per minute; moving \(f(fit.moving)) \(unit), meeting \(f(fit.meeting)), work Focus \(f(fit.workFocus))"
  }
}
