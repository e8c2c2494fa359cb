import ResonanceModel

/// The history stage over values: plays grouped into sessions with their contexts, and heart
/// rate and HRV around every play and session. `resonance analyze` loads the inputs from the
/// store and writes the results back.
package struct HistoryAnalysis: Sendable {
  /// What the cascade reads, each list in time order.
  package struct Signals: Sendable {
    package var workouts: [TimeSpan]
    package var mac: [MacContextSnapshot]
    package var motion: [MotionReading]
    package var heartRate: [SignalSample]
    package var hrv: [SignalSample]

    package init(
      workouts: [TimeSpan], mac: [MacContextSnapshot], motion: [MotionReading],
      heartRate: [SignalSample], hrv: [SignalSample]
    ) {
      self.workouts = workouts
      self.mac = mac
      self.motion = motion
      self.heartRate = heartRate
      self.hrv = hrv
    }
  }

  /// Each session with its biometric summary.
  package var sessions: [SessionBiometrics]
  /// What the learning loop, replayed over the plays in time order, learned per song and
  /// context, in song and context order.
  package var effects: [SongEffect]
  /// Heart rate and HRV around each play, in the order of the plays given.
  package var plays: [PlayBiometrics]

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
      SongImpactCalculator.biometrics(
        playID: play.id, startMs: play.start.millisecondsSinceEpoch, endMs: play.endMs,
        heartRate: signals.heartRate, hrv: signals.hrv)
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
      SessionBiometrics(
        session: session,
        heartRate: SongImpactCalculator.heartRate(
          signals.heartRate, startMs: session.start.millisecondsSinceEpoch, endMs: session.endMs),
        hrv: SongImpactCalculator.hrv(
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
