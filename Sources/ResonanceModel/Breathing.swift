/// A breathing-pacer session as the pacer app records it (`resonance.breathing`,
/// `docs/formats.md`): the pacer's schedule and phase events, the chest waveform, and what the
/// camera SDK reported beside it. Times are seconds since the session's start.
package struct BreathingRecording: Sendable, Equatable {
  /// A pacer phase: `inhale`, `hold` or `exhale`.
  package enum Phase: String, Sendable, Equatable, Codable {
    case inhale, hold, exhale
  }

  /// One phase of the pacer's cycle and its length, seconds.
  package struct Step: Sendable, Equatable {
    package var phase: Phase
    package var seconds: Double

    package init(_ phase: Phase, _ seconds: Double) {
      self.phase = phase
      self.seconds = seconds
    }
  }

  /// The pacer turning to a phase, seconds since the start.
  package struct PacerEvent: Sendable, Equatable {
    package var t: Double
    package var phase: Phase

    package init(_ t: Double, _ phase: Phase) {
      self.t = t
      self.phase = phase
    }
  }

  /// The expression the camera read on the face, seconds since the start.
  package struct Expression: Sendable, Equatable {
    package var t: Double
    package var label: String

    package init(_ t: Double, _ label: String) {
      self.t = t
      self.label = label
    }
  }

  /// A value at a time, seconds since the start.
  package struct Sample: Sendable, Equatable {
    package var t: Double
    package var value: Double

    package init(_ t: Double, _ value: Double) {
      self.t = t
      self.value = value
    }
  }

  package var session: Int
  /// `relaxed`, `box` or `4-7-8` (any name is kept as written).
  package var pattern: String
  /// The pacer's cycle: each phase and its length in seconds.
  package var schedule: [Step]
  package var started: Timestamp?
  package var durationSeconds: Double?
  /// Pacer transitions, in time order.
  package var pacer: [PacerEvent]
  /// The chest waveform (`breathing.upperTrace`).
  package var trace: [Sample]
  package var pulse: [Sample]
  /// The SDK's own breathing-rate estimate, breaths/min.
  package var sdkRate: [Sample]
  package var hrv: [Sample]
  package var expressions: [Expression]

  package init(
    session: Int, pattern: String, schedule: [Step] = [], started: Timestamp? = nil,
    durationSeconds: Double? = nil, pacer: [PacerEvent] = [], trace: [Sample] = [],
    pulse: [Sample] = [], sdkRate: [Sample] = [], hrv: [Sample] = [],
    expressions: [Expression] = []
  ) {
    self.session = session
    self.pattern = pattern
    self.schedule = schedule
    self.started = started
    self.durationSeconds = durationSeconds
    self.pacer = pacer
    self.trace = trace
    self.pulse = pulse
    self.sdkRate = sdkRate
    self.hrv = hrv
    self.expressions = expressions
  }
}
