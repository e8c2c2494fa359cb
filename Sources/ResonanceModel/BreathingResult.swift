/// What the breathing analysis measured in one session, as the store keeps it
/// (`docs/breathing.md` gives every formula). A figure that cannot be computed is nil, and a
/// note says why.
package struct BreathingResult: Sendable, Equatable {
  /// The app's Resonance Score, 0–100, with the pacer events it was scored on and how many the
  /// breath matched.
  package var resonanceScore: Double?
  package var events: Int
  package var matched: Int
  /// Breath cycles found in the chest waveform, and their mean rate, breaths/min.
  package var breaths: Int
  package var breathsPerMinute: Double?
  /// Standard deviation of the breath-by-breath rate, breaths/min.
  package var rateVariability: Double?
  /// The pacer's rate, breaths/min.
  package var pacerBreathsPerMinute: Double?
  /// Phase-locking value of the breath to the pacer, 0–1.
  package var phaseLocking: Double?
  /// How far the breath trails the pacer, seconds (negative: it leads).
  package var lagSeconds: Double?
  /// Share of the session the nudge would have said "In sync".
  package var inSyncShare: Double?
  /// Heart-rhythm coherence and the frequency of its peak, Hz.
  package var coherence: Double?
  package var coherencePeakHz: Double?
  /// Mean peak-to-trough pulse per breath, BPM.
  package var rsaAmplitude: Double?
  /// The first and last HRV readings of the session, ms.
  package var hrvBefore: Double?
  package var hrvAfter: Double?
  /// The facial expression seen most often.
  package var dominantExpression: String?
  /// Why a figure is missing, or what was repaired on the way.
  package var notes: [String]

  package init(
    resonanceScore: Double?, events: Int, matched: Int, breaths: Int, breathsPerMinute: Double?,
    rateVariability: Double?, pacerBreathsPerMinute: Double?, phaseLocking: Double?,
    lagSeconds: Double?, inSyncShare: Double?, coherence: Double?, coherencePeakHz: Double?,
    rsaAmplitude: Double?, hrvBefore: Double?, hrvAfter: Double?, dominantExpression: String?,
    notes: [String]
  ) {
    self.resonanceScore = resonanceScore
    self.events = events
    self.matched = matched
    self.breaths = breaths
    self.breathsPerMinute = breathsPerMinute
    self.rateVariability = rateVariability
    self.pacerBreathsPerMinute = pacerBreathsPerMinute
    self.phaseLocking = phaseLocking
    self.lagSeconds = lagSeconds
    self.inSyncShare = inSyncShare
    self.coherence = coherence
    self.coherencePeakHz = coherencePeakHz
    self.rsaAmplitude = rsaAmplitude
    self.hrvBefore = hrvBefore
    self.hrvAfter = hrvAfter
    self.dominantExpression = dominantExpression
    self.notes = notes
  }
}

/// One breathing-pacer session with what the analysis measured in it.
package struct BreathingSessionResult: Sendable, Equatable {
  /// The file it was read from (for a session in the store, the file it was imported from).
  package var file: String
  /// The app's session number.
  package var session: Int
  /// The pacer pattern (`box`, `478`, `coherent`).
  package var pattern: String
  package var started: Timestamp?
  package var result: BreathingResult

  package init(
    file: String, session: Int, pattern: String, started: Timestamp?, result: BreathingResult
  ) {
    self.file = file
    self.session = session
    self.pattern = pattern
    self.started = started
    self.result = result
  }
}

/// Breathing sessions grouped (by pattern, or by local month): how many, and their means over
/// the sessions that have each figure (nil when none has).
package struct BreathingGroup: Sendable, Equatable {
  /// The pattern, or the month as `YYYY-MM`.
  package var name: String
  package var sessions: Int
  package var meanScore: Double?
  package var meanBreathsPerMinute: Double?
  package var meanPhaseLocking: Double?

  package init(
    name: String, sessions: Int, meanScore: Double?, meanBreathsPerMinute: Double?,
    meanPhaseLocking: Double?
  ) {
    self.name = name
    self.sessions = sessions
    self.meanScore = meanScore
    self.meanBreathsPerMinute = meanBreathsPerMinute
    self.meanPhaseLocking = meanPhaseLocking
  }
}

/// A breathing session as the store holds it: its row id, the file it came from, the
/// recording rebuilt.
package struct StoredBreathingSession: Sendable {
  package var id: Int64
  package var file: String
  package var recording: BreathingRecording

  package init(id: Int64, file: String, recording: BreathingRecording) {
    self.id = id
    self.file = file
    self.recording = recording
  }
}
