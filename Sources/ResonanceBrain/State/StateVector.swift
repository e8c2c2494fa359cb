import ResonanceModel

/// The seed's five-dimensional state, each on 0 … 1, or nil when an input its formula needs was
/// missing (the engine never invents a reading).
package struct StateVector: Sendable, Equatable {
  /// Heart-rate reserve: 0 at the resting baseline, 1 at the age-predicted maximum.
  package var arousal: Double?
  /// From HRV: 0.5 × 50 ms / SDNN (`NeedRule.stress`).
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

/// A span of time the engine estimates state over — a listening session — with its context.
///
/// Times are UTC milliseconds; the span is half-open, `startMs ..< endMs`.
package struct StatePeriod: Sendable, Equatable {
  package var startMs: Int64
  package var endMs: Int64
  package var context: ActivityContext

  package init(startMs: Int64, endMs: Int64, context: ActivityContext) {
    self.startMs = startMs
    self.endMs = endMs
    self.context = context
  }
}

/// What the engine knows of the person's age, for the maximum heart rate.
package enum PersonAge: Sendable, Equatable {
  /// The Health export's year of birth; the age at a period is its UTC year minus this.
  case birthYear(Int)
  /// An age in whole years, the same for every period.
  case years(Int)
  /// Neither is known: the engine uses `StateEngine.defaultAgeYears`, flagged.
  case unknown
}

/// Where a tick's resting heart-rate baseline came from.
package enum RestingSource: Sendable, Equatable {
  /// The latest resting-HR record at or before the refresh instant, at most 7 days old.
  case record
  /// No such record: the 5th percentile of the heart-rate samples in the 24 hours before the
  /// refresh instant (at least 30 of them).
  case percentile
  /// Neither: no baseline, so no arousal.
  case unavailable
}

/// How recent a tick's HRV reading was.
package enum HRVFreshness: Sendable, Equatable {
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
  /// False when the age was unknown and `StateEngine.defaultAgeYears` stood in.
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

/// One 30-second estimate: when, over which period, the state, the need, and the evidence.
package struct StateTick: Sendable, Equatable {
  /// UTC milliseconds: the period's start plus a whole number of 30-second steps.
  package var timeMs: Int64
  /// The index of the period in the array the engine was given.
  package var period: Int
  package var context: ActivityContext
  package var state: StateVector
  /// `NeedRule.need(context:stress:)`; an unknown stress cannot force calm.
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
