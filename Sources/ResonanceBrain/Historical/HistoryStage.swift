import ResonanceModel

/// The history stage as one call: from what the store holds to everything `analyze` derives —
/// sessions with their biometrics, the learning replay, each song's effect on heart rate and
/// HRV, song features, the nights, each session's next night and quality, and the state
/// timeline — keeping the sessions the last run left unchanged.
///
/// `docs/brain.md` gives every rule; this type only puts the Brain's parts together in the
/// order they depend on each other.
package enum HistoryStage {
  /// Bumped whenever what a session's stored rows hold changes meaning, so that rows an older
  /// build wrote are recomputed rather than kept.
  package static let sessionRowsVersion = "sessions-1"

  /// How far before a session its rows look: the state engine's resting-heart-rate record may
  /// be 7 days old. After its end: HRV around a play runs to 5 minutes after it, and data
  /// within 10 minutes of the end is taken to reach it.
  package static let lookBackMs: Int64 = 7 * 86_400_000
  package static let lookAheadMs: Int64 = 10 * 60_000

  /// Runs the stage over `inputs`.
  ///
  /// - Parameters:
  ///   - scope: the session gap and the instants of the plays to take.
  ///   - stored: what the last run left that this one may keep, or nil to compute every
  ///     session (`--rebuild`, another scope, or new data that cannot be placed in time).
  ///   - digest: the hash that names a session's inputs (SHA-256 in hex, from the caller).
  ///   - progress: told of each part of the work as it begins and ends.
  /// - Returns: the results to store, and the summary of the run.
  package static func run(
    _ inputs: AnalysisInputs, scope: AnalysisScope, stored: StoredSessions?,
    digest: (String) -> String, progress: any StageProgress = SilentProgress()
  ) -> (results: AnalysisResults, summary: HistorySummary) {
    let plays = inputs.plays.filter { scope.contains($0.start) }
    let signals = HistoryAnalysis.Signals(
      workouts: inputs.workouts, mac: inputs.mac, motion: inputs.motion,
      heartRate: inputs.heartRate.map(\.sample), hrv: inputs.hrv.map(\.sample))
    let analysis = progress.step(
      "analyze: sessions and heart rate around plays", total: nil, unit: .items("")
    ) {
      HistoryAnalysis(plays: plays, signals: signals, gapMs: Int64(scope.gapMinutes) * 60_000)
    }
    let asleep = inputs.sleep.filter(\.value.isAsleep).map {
      TimeSpan(startMs: $0.start.millisecondsSinceEpoch, endMs: $0.end.millisecondsSinceEpoch)
    }
    let (responses, contextEstimates) = songResponses(
      analysis, plays: plays, inputs: inputs, asleep: asleep, progress: progress)
    let features = SongFeatureEstimator.estimate(inputs.songs)

    let byID = Dictionary(uniqueKeysWithValues: plays.map { ($0.id, $0) })
    let digests = analysis.sessions.map {
      sessionText($0.session, plays: byID, scope: scope, birthYear: inputs.birthYear)
    }.map(digest)
    let kept = keptSessions(analysis.sessions, digests: digests, stored: stored)
    let computedPlays = Set(
      zip(analysis.sessions, kept).filter { $1 == nil }.flatMap { $0.0.session.playIDs })

    var results = AnalysisResults(
      scope: scope,
      sessions: analysis.sessions.indices.map {
        AnalysedSession(
          biometrics: analysis.sessions[$0], inputsDigest: digests[$0], keptID: kept[$0])
      },
      biometrics: analysis.plays.filter { computedPlays.contains($0.playID) },
      effects: analysis.effects, estimates: responses.flatMap(\.estimates),
      features: features, marks: inputs.marks)
    results.contextEstimates = contextEstimates
    results.songScores = EntityScores.songs(effects: analysis.effects, features: features)
    results.playlistScores = EntityScores.playlists(
      inputs.playlists, songs: results.songScores,
      sessions: analysis.sessions.map(\.session), songOfPlay: byID.mapValues(\.songID))
    progress.step("analyze: nights, quality and states", total: nil, unit: .items("")) {
      addSleepAndState(
        to: &results, analysis, signals: signals, inputs: inputs,
        ticksFor: kept.map { $0 == nil })
    }

    var byContext: [ActivityContext: Int] = [:]
    for s in analysis.sessions { byContext[s.session.context, default: 0] += 1 }
    let summary = HistorySummary(
      scope: scope, plays: analysis.plays.count, sessions: analysis.sessions.count,
      sessionsByContext: byContext, playsWithHeartRate: analysis.playsWithHeartRate,
      playsWithHRV: analysis.playsWithHRV, sessionsKept: kept.filter { $0 != nil }.count,
      responses: responses, features: SongFeatureEstimator.summary(inputs.songs, features))
    return (results, summary)
  }

  /// The song-response model for heart rate and for HRV over the reconstructed sessions, and
  /// from the same model each song's effect per context (`SongResponseModel.contextEffects`);
  /// a signal with too little to fit is left out.
  ///
  /// For HRV the model is told the HRV a DJ chose each song on, from the stress its decision
  /// log records (`NeedRule.hrv(stress:)`).
  static func songResponses(
    _ analysis: HistoryAnalysis, plays: [HistoricalPlay], inputs: AnalysisInputs,
    asleep: [TimeSpan], progress: any StageProgress = SilentProgress()
  ) -> (fits: [SongResponseFit], contexts: [SongContextEffectEstimate]) {
    let byID = Dictionary(uniqueKeysWithValues: plays.map { ($0.id, $0) })
    func sessions(chosenOnHRV: Bool) -> [SongResponseModel.Session] {
      analysis.sessions.map { s in
        SongResponseModel.Session(
          context: s.session.context,
          plays: s.session.playIDs.compactMap { byID[$0] }.map { p in
            let start = p.start.millisecondsSinceEpoch
            let heard = p.playedMs.map { min(p.endMs, start + $0) } ?? p.endMs
            let chosenOn =
              chosenOnHRV ? inputs.decisionStress[p.id].flatMap(NeedRule.hrv(stress:)) : nil
            return SongResponseModel.Play(
              songID: p.songID, startMs: start, heardEndMs: heard, chosenOn: chosenOn)
          })
      }
    }
    // Both fits' candidate fits and each one's per-context fit, heart rate first, are one
    // step's done/total.
    let steps = SongResponseModel.fitSteps() + 1
    return progress.step(
      "analyze: song effects", total: Int64(2 * steps), unit: .items("fits")
    ) {
      var fits: [SongResponseFit] = []
      var contexts: [SongContextEffectEstimate] = []
      for (k, signal) in [Signal.heartRate, .hrv].enumerated() {
        let signalSessions = sessions(chosenOnHRV: signal == .hrv)
        let samples = signal == .hrv ? inputs.hrv : inputs.heartRate
        let base = Int64(k * steps)
        // HRV takes heart rate's lag: both answer the same nerve, and a reading a minute
        // cannot tell 1 from 1.5 minutes the way readings every 5 s can (docs/brain.md).
        var configuration = SongResponseModel.Configuration()
        if signal == .hrv, let heart = fits.first(where: { $0.signal == .heartRate }) {
          configuration.lagCandidates = [heart.lagMinutes]
        }
        guard
          let fit = SongResponseModel.fit(
            signal, sessions: signalSessions, samples: samples, mac: inputs.mac,
            genres: inputs.genres, asleep: asleep, configuration: configuration,
            progress: { done, _ in progress.advance(to: base + Int64(done)) })
        else { continue }
        fits.append(fit)
        contexts +=
          SongResponseModel.contextEffects(
            fit, sessions: signalSessions, samples: samples, mac: inputs.mac, genres: inputs.genres,
            asleep: asleep) ?? []
        progress.advance(to: base + Int64(steps))
      }
      return (fits, contexts)
    }
  }

  /// The nights in the sleep records, each session's next night and quality, and the state
  /// engine's 30-second timeline over the sessions `ticksFor` marks (those whose stored ticks
  /// are not kept); outcomes for all, since a new night moves every session's sleep baseline.
  ///
  /// - Complexity: O((s + n) log n + T + S) for s sessions, n nights, T ticks and S samples.
  static func addSleepAndState(
    to results: inout AnalysisResults, _ analysis: HistoryAnalysis,
    signals: HistoryAnalysis.Signals, inputs: AnalysisInputs, ticksFor: [Bool]
  ) {
    let nights = SleepNights.nights(from: inputs.sleep)
    let sessions = analysis.sessions
    let baseline = SleepBaseline(nights: nights)
    let indexOfEvening = Dictionary(
      uniqueKeysWithValues: nights.enumerated().map { ($1.eveningDay, $0) })
    let next = SleepNights.nextNights(for: sessions.map(\.session), in: nights)
    results.nights = nights
    let measured = zip(sessions, next).map { s, night in
      SessionQualityScorer.quality(
        s.session, hrvDeltaMs: s.hrv.delta, nextNight: night, baseline: baseline)
    }
    let qualities = SessionQualityScorer.completed(
      measured, contexts: sessions.map(\.session.context))
    results.outcomes = zip(zip(sessions, next), qualities).map { pair, quality in
      let night = pair.1
      return SessionOutcome(
        nextNight: night.flatMap { indexOfEvening[$0.eveningDay] },
        sleepScore: night.flatMap { SessionQualityScorer.sleepScore($0, baseline: baseline) },
        quality: quality.score, basis: quality.basis)
    }

    let computed = sessions.indices.filter { ticksFor[$0] }
    results.ticks = StateEngine.ticks(
      periods: computed.map {
        StatePeriod(
          startMs: sessions[$0].session.start.millisecondsSinceEpoch,
          endMs: sessions[$0].session.endMs, context: sessions[$0].session.context)
      },
      heartRate: signals.heartRate, hrv: signals.hrv, restingHeartRate: inputs.restingHeartRate,
      age: inputs.birthYear.map { .birthYear($0) } ?? .unknown, mood: inputs.mood
    ).map { tick in
      var tick = tick
      tick.period = computed[tick.period]
      return tick
    }
  }

  /// Per session, the stored session it is (nil: compute it). A session's stored rows depend
  /// only on its plays and on the raw data from a week before it to its end; when the plays
  /// are the same (same digest) and nothing was added in that window since the last run, they
  /// are kept as they are.
  static func keptSessions(
    _ sessions: [SessionBiometrics], digests: [String], stored: StoredSessions?
  ) -> [Int64?] {
    guard let stored else { return sessions.map { _ in nil } }
    return zip(sessions, digests).map { session, digest in
      guard let id = stored.digests[digest] else { return nil }
      let from = session.session.start.millisecondsSinceEpoch - lookBackMs
      let to = session.session.endMs + lookAheadMs
      // The spans are merged and in order, so their ends are too: the first ending after
      // `from` is the only one that can reach into the window first.
      let added = stored.added
      let first = added.partitioningIndex { $0.endMs > from }
      let touched = first < added.count && added[first].startMs < to
      return touched ? nil : id
    }
  }

  /// What a session's rows are computed from, besides the raw data around it, as text to
  /// hash: its plays (id, times, how much was heard, skipped), its bounds and context, the
  /// options and the birth year (the state engine's maximum heart rate).
  static func sessionText(
    _ session: ListeningSession, plays: [Int64: HistoricalPlay], scope: AnalysisScope,
    birthYear: Int?
  ) -> String {
    let dayMs: Int64 = 86_400_000
    let from = scope.days.from.map { $0.daysSinceEpoch * dayMs } ?? -1
    let to = scope.days.to.map { $0.daysSinceEpoch * dayMs } ?? -1
    var text =
      "\(sessionRowsVersion)|\(scope.gapMinutes)|\(from)|\(to)|"
      + "\(birthYear ?? -1)|\(session.start.millisecondsSinceEpoch)|"
      + "\(session.start.utcOffsetSeconds)|\(session.endMs)|\(session.context.rawValue)"
    for id in session.playIDs {
      guard let p = plays[id] else { continue }
      text +=
        "|\(id),\(p.start.millisecondsSinceEpoch),\(p.start.utcOffsetSeconds),\(p.endMs),"
        + "\(p.playedMs ?? -1),\(p.mediaDurationMs ?? -1),\(p.wasSkipped)"
    }
    return text
  }
}
