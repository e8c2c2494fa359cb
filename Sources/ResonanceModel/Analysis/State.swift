/// The seed's five-dimensional state, each on 0 … 1, or nil when an input its formula needs was
/// missing (the engine never invents a reading).
package struct StateVector: Sendable, Equatable {
  /// Heart-rate reserve: 0 at the resting baseline, 1 at the age-predicted maximum.
  package var arousal: Double?
  /// From HRV: 0.5 × 50 ms / SDNN.
  package var stress: Double?
  /// 0.6 × arousal + 0.4 × (1 − stress).
  package var energy: Double?
  /// By context; pre-sleep is penalised by arousal.
  package var focus: Double?
  /// Stress-adjusted, blended with a recent manual mood input.
  package var valence: Double?

  package init(
    arousal: Double?, stress: Double?, energy: Double?, focus: Double?, valence: Double?
  ) {
    self.arousal = arousal
    self.stress = stress
    self.energy = energy
    self.focus = focus
    self.valence = valence
  }
}

/// Where a tick's resting heart-rate baseline came from (`state_ticks.resting_source`).
package enum RestingSource: String, Sendable, Equatable, CaseIterable {
  /// The latest resting-HR record at or before the refresh instant, at most 7 days old.
  case record
  /// No such record: the 5th percentile of the heart-rate samples in the 24 hours before the
  /// refresh instant (at least 30 of them).
  case percentile
  /// Neither: no baseline, so no arousal.
  case unavailable = "none"
}

/// How recent a tick's HRV reading was (`state_ticks.hrv_freshness`).
package enum HRVFreshness: String, Sendable, Equatable, CaseIterable {
  /// Taken at most 30 minutes before the tick.
  case fresh
  /// Older than 30 minutes but at most 6 hours: the last value, carried.
  case carried
  /// None in the last 6 hours: no stress.
  case missing
}

/// The inputs that stood behind one tick's state: which readings were used and how old.
package struct StateEvidence: Sendable, Equatable {
  /// The heart-rate sample used (bpm), the latest at most 10 minutes before the tick.
  package var heartRate: SignalSample?
  /// The resting baseline in force (bpm), refreshed every 30 minutes of the period.
  package var restingHeartRate: Double?
  package var restingSource: RestingSource
  /// Tanaka's 208 − 0.7 × age, in bpm.
  package var maxHeartRate: Double
  /// False when the age was unknown and the engine's default age stood in.
  package var isAgeKnown: Bool
  /// The HRV sample used (SDNN, ms), fresh or carried.
  package var hrv: SignalSample?
  package var hrvFreshness: HRVFreshness
  /// The mood input in force, as valence on 0 … 1: the latest with a valence at or before the
  /// tick, entered less than 15 minutes before it; nil when there is none.
  package var mood: SignalSample?
  /// Its weight in the valence blend: 0.7 at entry, falling linearly to 0 at 15 minutes.
  package var moodWeight: Double

  package init(
    heartRate: SignalSample?, restingHeartRate: Double?, restingSource: RestingSource,
    maxHeartRate: Double, isAgeKnown: Bool, hrv: SignalSample?, hrvFreshness: HRVFreshness,
    mood: SignalSample?, moodWeight: Double
  ) {
    self.heartRate = heartRate
    self.restingHeartRate = restingHeartRate
    self.restingSource = restingSource
    self.maxHeartRate = maxHeartRate
    self.isAgeKnown = isAgeKnown
    self.hrv = hrv
    self.hrvFreshness = hrvFreshness
    self.mood = mood
    self.moodWeight = moodWeight
  }
}

/// One 30-second estimate (`state_ticks`): when, over which period, the state, the need, and
/// the evidence.
package struct StateTick: Sendable, Equatable {
  /// UTC milliseconds: the period's start plus a whole number of 30-second steps.
  package var timeMs: Int64
  /// The index of its period: in the state engine's output, among the periods it was given;
  /// in `AnalysisResults`, among the results' sessions.
  package var period: Int
  package var context: ActivityContext
  package var state: StateVector
  /// What the person needs given context and stress; an unknown stress cannot force calm.
  package var need: Need
  package var evidence: StateEvidence

  package init(
    timeMs: Int64, period: Int, context: ActivityContext, state: StateVector, need: Need,
    evidence: StateEvidence
  ) {
    self.timeMs = timeMs
    self.period = period
    self.context = context
    self.state = state
    self.need = need
    self.evidence = evidence
  }
}
