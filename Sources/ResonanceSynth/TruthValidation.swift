import ResonanceBrain
import ResonanceModel

extension SynthTruth {
  /// The effect scale from which the song effects must rank the planted ones at Spearman
  /// ≥ 0.8: below it the realistic effects are too small against the noise for a ranking goal
  /// (`docs/validation.md`).
  package static let rankingGoalEffectScale = 3.0

  /// How well the analyses in `inputs` recover what this truth planted, each figure with the
  /// goals that apply to it.
  ///
  /// - Breathing: the stored sessions the truth names, their Resonance Score and phase locking
  ///   ranked against the planted adherence, and the breathing rate of those that followed the
  ///   pacer throughout against the planted rate.
  /// - Contexts: each play in a reconstructed session that starts inside a lived session,
  ///   its session's context against the lived one.
  /// - Song effects: each estimate against the truth it shows (see `effectValidation`).
  /// - Features: each song's tempo, energy and valence estimates against the planted values.
  ///
  /// Songs are matched by their Apple Music catalog id.
  ///
  /// - Complexity: O(*p* log *r* + *r*) per signal for *p* plays and *r* readings, plus
  ///   O(*n* log *n*) for the rankings.
  /// - Parameter inputs: What the store holds of the person's analyses.
  /// - Returns: The report; it `isEmpty` when nothing in `inputs` matches the truth.
  package func validate(_ inputs: ValidationInputs) -> ValidationReport {
    let lived = LivedSessions(sessions)
    let songs = Dictionary(self.songs.map { ($0.catalogId, $0) }, uniquingKeysWith: { $1 })
    return ValidationReport(
      breathing: breathingValidation(inputs.breathing),
      contexts: contextValidation(inputs.plays, lived: lived),
      effects: Signal.allCases.compactMap {
        effectValidation($0, inputs, songs: songs, lived: lived)
      },
      features: FeatureValidation.Feature.allCases.compactMap {
        featureValidation($0, inputs, songs: songs)
      },
      practice: practiceValidation(inputs), changes: changeValidation(inputs.baselines))
  }

  /// Breathing practice's three estimates against the planted effects: the within-session
  /// change against the mean planted change of the stored sessions, that night's SDNN and the
  /// next morning's resting heart rate against their planted shifts. Nil when the truth
  /// planted none (written before practice effects were) or the inputs hold no estimates.
  func practiceValidation(_ inputs: ValidationInputs) -> PracticeValidation? {
    guard let practice, let estimates = inputs.practice else { return nil }
    let stored = Set(inputs.breathing.map(\.session))
    let changes = breathing.filter { stored.contains($0.session) }.map(\.plantedSdnnChangeMs)
    let acute =
      changes.isEmpty ? practice.acuteSdnnMs : changes.reduce(0, +) / Double(changes.count)
    let within = estimates.withinSession
    let night = estimates.day("night_sdnn_ms")
    let morning = estimates.day("morning_resting_hr_bpm")
    return PracticeValidation(effects: [
      .init(
        name: "practice_acute_sdnn_ms", planted: acute, estimate: within?.change,
        low90: within?.low90, high90: within?.high90),
      .init(
        name: "practice_night_sdnn_ms", planted: practice.nightSdnnMs,
        estimate: night?.adjusted, low90: night?.low90, high90: night?.high90),
      .init(
        name: "practice_morning_resting_hr_bpm", planted: practice.morningRestingHrBpm,
        estimate: morning?.adjusted, low90: morning?.low90, high90: morning?.high90),
    ])
  }

  /// The sustained-change rule's findings against the planted step (or none); nil when no
  /// signal had a daily value.
  func changeValidation(_ baselines: [SignalBaseline]) -> ChangeValidation? {
    let measured = baselines.filter { $0.days > 0 }
    guard !measured.isEmpty else { return nil }
    return ChangeValidation(
      planted: step.flatMap { CalendarDay($0.date) },
      findings: measured.map {
        .init(signal: $0.signal, flagged: $0.change?.day, searched: $0.searched)
      })
  }

  /// The breathing analysis against the planted adherence and rates; `nil` when no session
  /// in `analysed` is in the truth.
  func breathingValidation(_ analysed: [ValidationInputs.BreathingSession])
    -> BreathingValidation?
  {
    let planted = Dictionary(breathing.map { ($0.session, $0) }, uniquingKeysWith: { $1 })
    var adherence: [Double] = []
    var scores: [Double] = []
    var locking: [Double] = []
    var followedErrors: [Double] = []
    for entry in analysed {
      guard let truth = planted[entry.session] else { continue }
      adherence.append(truth.adherence)
      // A session without a score or phase locking ranks below every one with it.
      scores.append(entry.result.resonanceScore ?? -1)
      locking.append(entry.result.phaseLocking ?? -1)
      if truth.adherence >= 0.999, let rate = entry.result.breathsPerMinute {
        followedErrors.append(abs(rate - truth.trueRateBpm))
      }
    }
    guard !adherence.isEmpty else { return nil }
    return BreathingValidation(
      sessions: adherence.count, spearmanScore: Statistics.spearman(scores, adherence),
      spearmanPhaseLocking: Statistics.spearman(locking, adherence),
      followedSessions: followedErrors.count, maxRateError: followedErrors.max())
  }

  /// How often session reconstruction gave a play the context it was lived in; `nil` when no
  /// play starts inside a lived session.
  func contextValidation(_ plays: [SessionPlay], lived: LivedSessions) -> ContextValidation? {
    struct Pair: Hashable {
      var lived: ActivityContext
      var reconstructed: ActivityContext
    }
    var count = 0
    var agreeing = 0
    var confusions: [Pair: Int] = [:]
    for play in plays {
      guard let context = lived.context(at: play.heard.startMs) else { continue }
      count += 1
      if context == play.context {
        agreeing += 1
      } else {
        confusions[Pair(lived: context, reconstructed: play.context), default: 0] += 1
      }
    }
    guard count > 0 else { return nil }
    let ranked = confusions.sorted {
      ($1.value, $0.key.lived.rawValue, $0.key.reconstructed.rawValue)
        < ($0.value, $1.key.lived.rawValue, $1.key.reconstructed.rawValue)
    }
    return ContextValidation(
      plays: count, agreeing: agreeing,
      confusions: ranked.map {
        .init(lived: $0.key.lived, reconstructed: $0.key.reconstructed, plays: $0.value)
      })
  }

  /// One signal's song-effect estimates against the planted effects; `nil` when no estimate
  /// is of a song in the truth.
  ///
  /// The estimates are relative to the exposure-weighted mean song, and a planted effect shows
  /// scaled by the gain of the context each play was lived in (`context_gain`, `sessions` in
  /// truth.json), so the truth each interval is judged against is the planted effect × the mean
  /// gain over the song's non-workout plays, each weighted by the minutes with a reading while
  /// it played, minus the same exposure-weighted mean.
  func effectValidation(
    _ signal: Signal, _ inputs: ValidationInputs, songs: [String: Song], lived: LivedSessions
  ) -> EffectValidation? {
    let gains = Dictionary(
      uniqueKeysWithValues: contextGain.compactMap { key, gain in
        ActivityContext(rawValue: key).map { ($0, gain) }
      })
    // Each play counts by the minutes with a reading while it played, as the model sees it.
    let times = inputs.readings(signal).map(\.timeMs)
    var gainSum: [Int64: Double] = [:]
    var weights: [Int64: Double] = [:]
    for play in inputs.plays where play.context != .workout {
      let minutes = Double(
        Statistics.measuredMinutes(times, from: play.heard.startMs, to: play.heard.endMs))
      guard minutes > 0 else { continue }
      let context = lived.context(at: play.heard.startMs) ?? play.context
      gainSum[play.songID, default: 0] += minutes * (gains[context] ?? 1)
      weights[play.songID, default: 0] += minutes
    }
    var rows: [(estimate: SongEffectEstimate, planted: Double, shown: Double)] = []
    for estimate in inputs.effectEstimates where estimate.signal == signal {
      guard let id = inputs.catalogIDs[estimate.songID], let song = songs[id] else { continue }
      let effect = song.effect(on: signal)
      let weight = weights[estimate.songID] ?? 0
      let gain = weight > 0 ? (gainSum[estimate.songID] ?? 0) / weight : 1
      let tempo = signal == .heartRate ? song.tempoEffectBpm ?? 0 : 0
      rows.append((estimate, effect, effect * gain + tempo))
    }
    guard !rows.isEmpty else { return nil }
    let totalMinutes = rows.reduce(0.0) { $0 + $1.estimate.minutes }
    let level =
      totalMinutes > 0
      ? rows.reduce(0.0) { $0 + $1.estimate.minutes * $1.shown } / totalMinutes : 0
    var covered = 0
    var distinguishable = 0
    var rightSign = 0
    for row in rows {
      let target = row.shown - level
      if row.estimate.low90 <= target, target <= row.estimate.high90 { covered += 1 }
      if row.estimate.isDistinguishableFromZero {
        distinguishable += 1
        if (row.estimate.estimate > 0) == (target > 0) { rightSign += 1 }
      }
    }
    let frequent = rows.filter { $0.estimate.plays >= 8 }
    let scale = generator.effectScale
    return EffectValidation(
      signal: signal, effectScale: scale, songs: rows.count, covered: covered,
      distinguishable: distinguishable, distinguishableRightSign: rightSign,
      songsWithEightPlays: frequent.count,
      spearman: frequent.count >= 3
        ? Statistics.spearman(frequent.map(\.estimate.estimate), frequent.map(\.planted)) : nil,
      spearmanGoal: scale >= Self.rankingGoalEffectScale ? .rankCorrelation : nil)
  }

  /// One feature's stored estimates against the planted values, grouped by where each came
  /// from; `nil` when no estimate is of a song in the truth.
  func featureValidation(
    _ feature: FeatureValidation.Feature, _ inputs: ValidationInputs, songs: [String: Song]
  ) -> FeatureValidation? {
    var groups: [FeatureSource: (songs: Int, error: Double, covered: Int)] = [:]
    for row in inputs.features {
      guard let id = inputs.catalogIDs[row.songID], let song = songs[id] else { continue }
      let estimate = row.estimate(of: feature)
      let error = abs(estimate.value - song.value(of: feature))
      var group = groups[estimate.source, default: (0, 0, 0)]
      group.songs += 1
      group.error += error
      if error <= SongResponseModel.z90 * estimate.sd { group.covered += 1 }
      groups[estimate.source] = group
    }
    guard !groups.isEmpty else { return nil }
    return FeatureValidation(
      feature: feature,
      bySource: groups.sorted { $0.key.rawValue < $1.key.rawValue }.map {
        .init(
          source: $0.key, songs: $0.value.songs,
          meanAbsoluteError: $0.value.error / Double($0.value.songs), covered: $0.value.covered)
      })
  }
}

extension SynthTruth.Song {
  /// The planted effect on `signal` before the context gain: bpm or ms of SDNN.
  func effect(on signal: Signal) -> Double {
    switch signal {
    case .heartRate: hrEffectBpm
    case .hrv: hrvEffectMs
    }
  }

  /// The planted value of `feature`.
  func value(of feature: FeatureValidation.Feature) -> Double {
    switch feature {
    case .bpm: bpm
    case .energy: energy
    case .valence: valence
    }
  }
}

extension SongFeatureEstimate {
  /// The estimate of `feature`.
  fileprivate func estimate(of feature: FeatureValidation.Feature) -> Estimate {
    switch feature {
    case .bpm: bpm
    case .energy: energy
    case .valence: valence
    }
  }
}

/// The sessions a truth says were lived, in time order, to look up the context of an instant.
struct LivedSessions {
  private var starts: [Int64] = []
  private var ends: [Int64] = []
  private var contexts: [ActivityContext] = []

  /// The sessions in start order; one whose context no `ActivityContext` names is left out.
  init(_ sessions: [SynthTruth.Session]) {
    let known = sessions.compactMap { s in
      ActivityContext(rawValue: s.context).map { (s.startMs, s.endMs, $0) }
    }
    for (start, end, context) in known.sorted(by: { $0.0 < $1.0 }) {
      starts.append(start)
      ends.append(end)
      contexts.append(context)
    }
  }

  /// The context of the latest session starting at or before `ms`, if it lasts until `ms`
  /// (its end included).
  func context(at ms: Int64) -> ActivityContext? {
    let i = starts.partitioningIndex { $0 > ms } - 1
    return i >= 0 && ms <= ends[i] ? contexts[i] : nil
  }
}
