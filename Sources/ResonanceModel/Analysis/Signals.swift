/// The two physiological signals the analysis follows around music.
package enum Signal: String, CaseIterable, Sendable, Codable, Hashable {
  /// Heart rate, in beats per minute.
  case heartRate = "hr"
  /// Heart-rate variability as the Watch reports it: SDNN, in milliseconds.
  case hrv

  /// The unit its values are in: `bpm` or `ms`.
  package var unit: String {
    switch self {
    case .heartRate: "bpm"
    case .hrv: "ms"
    }
  }

  /// How people call it: `heart rate` or `HRV`.
  package var displayName: String {
    switch self {
    case .heartRate: "heart rate"
    case .hrv: "HRV"
    }
  }
}

/// A timed reading of one signal: heart rate (bpm) or HRV (SDNN, ms).
package struct SignalSample: Sendable, Equatable, Hashable {
  /// UTC milliseconds since the epoch.
  package var timeMs: Int64
  package var value: Double

  package init(timeMs: Int64, value: Double) {
    self.timeMs = timeMs
    self.value = value
  }
}

/// A reading of one signal with what its source says of the person's motion at that moment:
/// Apple's heart-rate motion context (active) or a Watch trace sample taken while moving.
package struct SignalReading: Sendable, Equatable, Hashable {
  /// UTC milliseconds since the epoch.
  package var timeMs: Int64
  package var value: Double
  /// Whether the person was moving (active, or not stationary, or in a workout).
  package var isMoving: Bool

  package init(timeMs: Int64, value: Double, isMoving: Bool) {
    self.timeMs = timeMs
    self.value = value
    self.isMoving = isMoving
  }

  /// The reading without its motion flag.
  package var sample: SignalSample { SignalSample(timeMs: timeMs, value: value) }
}

/// Whether the person was moving at one instant, as a Watch trace or a heart-rate record's
/// motion context says.
package struct MotionReading: Sendable, Equatable, Hashable {
  /// UTC milliseconds since the epoch.
  package var timeMs: Int64
  package var isMoving: Bool

  package init(timeMs: Int64, isMoving: Bool) {
    self.timeMs = timeMs
    self.isMoving = isMoving
  }
}

/// A span of time in UTC milliseconds since the epoch, `startMs` up to `endMs`.
///
/// Whether the end belongs to the span is for the user of the value to say (a workout covers
/// its end; a listening window does not).
package struct TimeSpan: Sendable, Equatable, Hashable {
  package var startMs: Int64
  package var endMs: Int64

  package init(startMs: Int64, endMs: Int64) {
    self.startMs = startMs
    self.endMs = endMs
  }
}
