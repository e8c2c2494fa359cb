import ResonanceModel

/// The history stage over values: plays grouped into sessions with their contexts, and heart
/// rate and HRV around every play and session. `resonance analyze` loads the inputs from the
/// store and writes the results back.
package struct HistoryAnalysis: Sendable {
  /// What the cascade reads, each list in time order.
  package struct Signals: Sendable {
    package var workouts: [(startMs: Int64, endMs: Int64)]
    package var mac: [MacContextSnapshot]
    package var motion: [(timeMs: Int64, isMoving: Bool)]
    package var heartRate: [SignalSample]
    package var hrv: [SignalSample]

    package init(
      workouts: [(startMs: Int64, endMs: Int64)], mac: [MacContextSnapshot],
      motion: [(timeMs: Int64, isMoving: Bool)], heartRate: [SignalSample], hrv: [SignalSample]
    ) {
      self.workouts = workouts
      self.mac = mac
      self.motion = motion
      self.heartRate = heartRate
      self.hrv = hrv
    }
  }

  /// One session with its biometric summary: the mean heart rate and HRV during its plays,
  /// and their change against the window before its first play.
  package struct Session: Sendable {
    package var session: ListeningSession
    package var heartRate: SignalChange
    package var hrv: SignalChange
  }

  package var sessions: [Session]
  /// What the learning loop, replayed over the plays in time order, learned per song and
  /// context, with the time of the last play behind each.
  package var effects: [LearningReplay.Key: (effect: LearnedSongEffect, lastMs: Int64)]
  /// Per play, in the order of the plays given.
  package var plays: [(id: Int64, heartRate: SignalChange, hrv: SignalChange)]

  /// Sessions per context, as the cascade found them.
  package var sessionsByContext: [ActivityContext: Int] {
    var counts: [ActivityContext: Int] = [:]
    for s in sessions { counts[s.session.context, default: 0] += 1 }
    return counts
  }

  /// `workout 12, deep-work 9, …`: the counts, most first.
  package var sessionsByContextText: String {
    sessionsByContext.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
      .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
  }

  /// Plays with a heart-rate change, and with an HRV change (samples on both sides).
  package var playsWithHeartRate: Int { plays.filter { $0.heartRate.delta != nil }.count }
  package var playsWithHRV: Int { plays.filter { $0.hrv.delta != nil }.count }

  /// A Mac snapshot speaks for the 10 minutes after it (the companion writes every 5).
  package static let macReachMs: Int64 = 10 * 60_000
  /// A motion reading speaks for 2 minutes either side.
  package static let motionReachMs: Int64 = 2 * 60_000

  package init(
    plays: [HistoricalPlay], signals: Signals, gapMs: Int64 = SessionReconstructor.defaultGapMs
  ) {
    let listening = SessionReconstructor.sessions(plays, gapMs: gapMs) { time in
      Self.evidence(at: time.millisecondsSinceEpoch, signals)
    }
    self.plays = plays.map { play in
      (
        play.id,
        PlayBiometrics.heartRate(
          signals.heartRate, startMs: play.start.millisecondsSinceEpoch, endMs: play.endMs),
        PlayBiometrics.hrv(
          signals.hrv, startMs: play.start.millisecondsSinceEpoch, endMs: play.endMs)
      )
    }
    var contextOfPlay: [Int64: ActivityContext] = [:]
    for session in listening {
      for id in session.playIDs { contextOfPlay[id] = session.context }
    }
    effects = LearningReplay.replay(
      zip(plays, self.plays).map { play, measured in
        LearningReplay.Listen(
          songID: play.songID, startMs: play.start.millisecondsSinceEpoch,
          context: contextOfPlay[play.id] ?? .general, listenFraction: play.listenFraction,
          markedSkipped: play.wasSkipped, hrDeltaBPM: measured.heartRate.delta,
          hrvDeltaMs: measured.hrv.delta)
      })
    sessions = listening.map { session in
      Session(
        session: session,
        heartRate: PlayBiometrics.heartRate(
          signals.heartRate, startMs: session.start.millisecondsSinceEpoch, endMs: session.endMs),
        hrv: PlayBiometrics.hrv(
          signals.hrv, startMs: session.start.millisecondsSinceEpoch, endMs: session.endMs))
    }
  }

  /// What the signals say at one instant.
  static func evidence(at ms: Int64, _ signals: Signals) -> ContextEvidence {
    var evidence = ContextEvidence()
    // The latest workout starting at or before ms covers it if it has not ended.
    let w = lastIndex(signals.workouts.count, atOrBefore: ms) { signals.workouts[$0].startMs }
    if let w, signals.workouts[w].endMs >= ms { evidence.inWorkout = true }
    if let m = lastIndex(
      signals.mac.count, atOrBefore: ms, { signals.mac[$0].time.millisecondsSinceEpoch }),
      ms - signals.mac[m].time.millisecondsSinceEpoch <= macReachMs
    {
      evidence.macFocus = signals.mac[m].focusMode
      evidence.macAppCategory = signals.mac[m].appCategory
      evidence.inMeeting = signals.mac[m].inMeeting
    }
    if let i = lastIndex(
      signals.motion.count, atOrBefore: ms + motionReachMs, { signals.motion[$0].timeMs }),
      abs(signals.motion[i].timeMs - ms) <= motionReachMs
    {
      evidence.isMoving = signals.motion[i].isMoving
    }
    return evidence
  }

  /// The last index whose time is at or before `ms`, by binary search over sorted times.
  static func lastIndex(_ count: Int, atOrBefore ms: Int64, _ time: (Int) -> Int64) -> Int? {
    let after = (0..<count).partitioningIndex { time($0) > ms }
    return after > 0 ? after - 1 : nil
  }
}
