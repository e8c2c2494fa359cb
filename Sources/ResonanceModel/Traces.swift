/// A Watch sensor reading from the app's trace (→ BiometricSample).
package struct BiometricReading: Sendable, Equatable {
  package var time: Timestamp
  package var heartRate: Double?
  package var hrv: Double?
  package var isStationary: Bool?
  package var isWorkout: Bool?

  package init(
    time: Timestamp, heartRate: Double?, hrv: Double?, isStationary: Bool?, isWorkout: Bool?
  ) {
    self.time = time
    self.heartRate = heartRate
    self.hrv = hrv
    self.isStationary = isStationary
    self.isWorkout = isWorkout
  }
}

/// A Mac context snapshot from the companion's trace (→ MacOSContext).
package struct MacContextSnapshot: Sendable, Equatable {
  package var time: Timestamp
  package var focusMode: String?
  package var appCategory: String?
  package var inMeeting: Bool?

  package init(time: Timestamp, focusMode: String?, appCategory: String?, inMeeting: Bool?) {
    self.time = time
    self.focusMode = focusMode
    self.appCategory = appCategory
    self.inMeeting = inMeeting
  }
}

/// A mood input: the Watch's three taps (1, 0, −1 for 😊 😐 😔) or the iPhone's sliders.
package struct MoodInput: Sendable, Equatable {
  package var time: Timestamp
  package var device: String
  package var tap: Int?
  package var valence: Double?
  package var energy: Double?

  package init(time: Timestamp, device: String, tap: Int?, valence: Double?, energy: Double?) {
    self.time = time
    self.device = device
    self.tap = tap
    self.valence = valence
    self.energy = energy
  }
}

/// One line of the DJ's decision log: its keys, and the line itself (kept whole for replay).
package struct DecisionRecord: Sendable, Equatable {
  package var time: Timestamp
  package var decision: Int
  package var session: Int?
  package var need: String?
  package var context: String?
  package var chosen: String?
  /// The chosen candidate's artist, as the candidate list gives it.
  package var chosenArtist: String?
  /// What happened to the chosen song, when the line says.
  package var outcome: DecisionOutcome?
  package var line: String

  package init(
    time: Timestamp, decision: Int, session: Int?, need: String?, context: String?, chosen: String?,
    chosenArtist: String? = nil, outcome: DecisionOutcome? = nil, line: String
  ) {
    self.time = time
    self.decision = decision
    self.session = session
    self.need = need
    self.context = context
    self.chosen = chosen
    self.chosenArtist = chosenArtist
    self.outcome = outcome
    self.line = line
  }
}

/// The `outcome` of a decision: how long the chosen song was listened to, and how it ended.
package struct DecisionOutcome: Sendable, Equatable {
  package var listenedMs: Int64
  package var durationMs: Int64?
  package var skipped: Bool
  package var completed: Bool?

  package init(listenedMs: Int64, durationMs: Int64?, skipped: Bool, completed: Bool?) {
    self.listenedMs = listenedMs
    self.durationMs = durationMs
    self.skipped = skipped
    self.completed = completed
  }
}

/// What one of the apps' recordings holds, by format.
package enum TraceContent: Sendable {
  case watch([BiometricReading])
  case mac([MacContextSnapshot])
  case mood([MoodInput])
  case decisions([DecisionRecord])
  case breathing(BreathingRecording)
}

/// A recording of one of our formats: its header's format and version, and its content.
package struct TraceFile: Sendable {
  package var format: String
  package var version: Int
  /// The first instant the recording holds.
  package var started: Timestamp?
  /// Lines after the header that were read.
  package var samples: Int
  package var content: TraceContent

  package init(
    format: String, version: Int, started: Timestamp?, samples: Int, content: TraceContent
  ) {
    self.format = format
    self.version = version
    self.started = started
    self.samples = samples
    self.content = content
  }
}
