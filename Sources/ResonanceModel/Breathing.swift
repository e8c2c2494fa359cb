/// A breathing-pacer session as the pacer app records it (`resonance.breathing`,
/// `docs/formats.md`): the pacer's schedule and phase events, the chest waveform, and what the
/// camera SDK reported beside it. Times are seconds since the session's start.
package struct BreathingRecording: Sendable, Equatable {
  /// A pacer phase: `inhale`, `hold` or `exhale`.
  package enum Phase: String, Sendable, Equatable, Codable {
    case inhale, hold, exhale
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
  package var schedule: [(phase: Phase, seconds: Double)]
  package var started: Timestamp?
  package var durationSeconds: Double?
  /// Pacer transitions, in time order.
  package var pacer: [(t: Double, phase: Phase)]
  /// The chest waveform (`breathing.upperTrace`).
  package var trace: [Sample]
  package var pulse: [Sample]
  /// The SDK's own breathing-rate estimate, breaths/min.
  package var sdkRate: [Sample]
  package var hrv: [Sample]
  package var expressions: [(t: Double, label: String)]

  package init(
    session: Int, pattern: String, schedule: [(phase: Phase, seconds: Double)] = [],
    started: Timestamp? = nil, durationSeconds: Double? = nil,
    pacer: [(t: Double, phase: Phase)] = [], trace: [Sample] = [], pulse: [Sample] = [],
    sdkRate: [Sample] = [], hrv: [Sample] = [], expressions: [(t: Double, label: String)] = []
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

  package static func == (a: BreathingRecording, b: BreathingRecording) -> Bool {
    a.session == b.session && a.pattern == b.pattern && a.trace == b.trace
      && a.pacer.map(\.t) == b.pacer.map(\.t) && a.pacer.map(\.phase) == b.pacer.map(\.phase)
  }
}
