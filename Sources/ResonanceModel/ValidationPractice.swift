/// Breathing practice's estimates against the effects `synth` planted: each planted value, the
/// estimate with its 90% interval, and whether the interval covers it.
package struct PracticeValidation: Sendable, Equatable {
  /// One planted effect and its estimate.
  package struct Effect: Sendable, Equatable {
    /// `practice_acute_sdnn_ms`, `practice_night_sdnn_ms`, `practice_morning_resting_hr_bpm`.
    package var name: String
    package var planted: Double
    /// Nil when the store held too little to estimate it.
    package var estimate: Double?
    package var low90: Double?
    package var high90: Double?

    package init(name: String, planted: Double, estimate: Double?, low90: Double?, high90: Double?)
    {
      self.name = name
      self.planted = planted
      self.estimate = estimate
      self.low90 = low90
      self.high90 = high90
    }

    /// Whether the interval covers the planted value; nil without an interval.
    package var covered: Bool? {
      guard let low90, let high90 else { return nil }
      return low90 <= planted && planted <= high90
    }
  }

  package var effects: [Effect]

  package init(effects: [Effect]) { self.effects = effects }
}

/// The sustained-change rule against the step `synth --step` planted (or its absence): for
/// each signal, the day the rule flagged, if any.
package struct ChangeValidation: Sendable, Equatable {
  /// One signal's finding.
  package struct Finding: Sendable, Equatable {
    package var signal: SignalBaseline.Signal
    /// The first day of the change the rule flagged; nil for none.
    package var flagged: CalendarDay?
    /// Whether there were enough days to look.
    package var searched: Bool

    package init(signal: SignalBaseline.Signal, flagged: CalendarDay?, searched: Bool) {
      self.signal = signal
      self.flagged = flagged
      self.searched = searched
    }
  }

  /// How far from the planted day a flagged change still counts as found.
  package static let toleranceDays: Int64 = 14

  /// The planted step's first day; nil when none was planted.
  package var planted: CalendarDay?
  package var findings: [Finding]

  package init(planted: CalendarDay?, findings: [Finding]) {
    self.planted = planted
    self.findings = findings
  }

  /// Whether a finding is right: with a step, flagged within `toleranceDays` of it; without
  /// one, nothing flagged.
  package func isRight(_ finding: Finding) -> Bool {
    guard let planted else { return finding.flagged == nil }
    guard let flagged = finding.flagged else { return false }
    return abs(flagged.daysSinceEpoch - planted.daysSinceEpoch) <= Self.toleranceDays
  }
}
