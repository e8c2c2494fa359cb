/// One stored play, as the history stage needs it.
package struct HistoricalPlay: Sendable, Equatable {
  /// The play's id in the store, so results can be written back.
  package var id: Int64
  /// When it began, with the UTC offset the person lived in.
  package var start: Timestamp
  package var endMs: Int64
  package var playedMs: Int64?
  package var mediaDurationMs: Int64?
  package var wasSkipped: Bool
  /// The song's id in the store (what learning keys its effects on).
  package var songID: Int64

  package init(
    id: Int64, start: Timestamp, endMs: Int64, playedMs: Int64?, mediaDurationMs: Int64?,
    wasSkipped: Bool, songID: Int64 = 0
  ) {
    self.songID = songID
    self.id = id
    self.start = start
    self.endMs = endMs
    self.playedMs = playedMs
    self.mediaDurationMs = mediaDurationMs
    self.wasSkipped = wasSkipped
  }
}

/// A listening session: plays no more than the gap apart, with its context and how the person
/// engaged with it.
package struct ListeningSession: Sendable, Equatable {
  package var playIDs: [Int64]
  package var start: Timestamp
  package var endMs: Int64
  package var context: ActivityContext
  /// Source-marked skips over plays, 0…1.
  package var skipRate: Double
  /// Mean share of each song listened to, over the plays whose source gave a duration; nil
  /// when none did.
  package var engagement: Double?

  package init(
    playIDs: [Int64], start: Timestamp, endMs: Int64, context: ActivityContext,
    skipRate: Double, engagement: Double?
  ) {
    self.playIDs = playIDs
    self.start = start
    self.endMs = endMs
    self.context = context
    self.skipRate = skipRate
    self.engagement = engagement
  }

  /// The session's end, in the offset it started in.
  package var end: Timestamp {
    Timestamp(millisecondsSinceEpoch: endMs, utcOffsetSeconds: start.utcOffsetSeconds)
  }
}

/// A signal before and during a play or session: the means, their difference, and how many
/// samples stand behind each. Missing data stays missing: with no sample in a window its mean
/// is nil, and so is the delta.
package struct SignalChange: Sendable, Equatable {
  package var before: Double?
  package var during: Double?
  package var samplesBefore: Int
  package var samplesDuring: Int

  package init(before: Double?, during: Double?, samplesBefore: Int, samplesDuring: Int) {
    self.before = before
    self.during = during
    self.samplesBefore = samplesBefore
    self.samplesDuring = samplesDuring
  }

  /// `during − before`, when both are known.
  package var delta: Double? {
    guard let before, let during else { return nil }
    return during - before
  }
}

/// Heart rate and HRV before and during one play (`play_biometrics`).
package struct PlayBiometrics: Sendable, Equatable {
  package var playID: Int64
  package var heartRate: SignalChange
  package var hrv: SignalChange

  package init(playID: Int64, heartRate: SignalChange, hrv: SignalChange) {
    self.playID = playID
    self.heartRate = heartRate
    self.hrv = hrv
  }

  /// The change of `signal`.
  package subscript(signal: Signal) -> SignalChange {
    switch signal {
    case .heartRate: heartRate
    case .hrv: hrv
    }
  }
}

/// One reconstructed session with its biometric summary: the mean heart rate and HRV during
/// its plays, and their change against the window before its first play.
package struct SessionBiometrics: Sendable, Equatable {
  package var session: ListeningSession
  package var heartRate: SignalChange
  package var hrv: SignalChange

  package init(session: ListeningSession, heartRate: SignalChange, hrv: SignalChange) {
    self.session = session
    self.heartRate = heartRate
    self.hrv = hrv
  }
}

/// A play inside a reconstructed session, as validation and reports read it back: its song,
/// what of it was heard (start to start + played) and the session's context.
package struct SessionPlay: Sendable, Equatable {
  package var songID: Int64
  package var heard: TimeSpan
  package var context: ActivityContext

  package init(songID: Int64, heard: TimeSpan, context: ActivityContext) {
    self.songID = songID
    self.heard = heard
    self.context = context
  }
}
