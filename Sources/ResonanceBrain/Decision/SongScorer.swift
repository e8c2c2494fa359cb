import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The seed app's seven-component song scorer. Every formula is written once here and in
/// `docs/brain.md`; the simulated app, the replay and the sweeps all call these functions.
package enum SongScorer {
  /// Target tempo for each need, in BPM.
  package static func targetBPM(for need: Need) -> Double {
    switch need {
    case .energy: 128
    case .calm: 68
    case .focus: 100
    case .moodLift: 116
    }
  }

  /// Target energy for each need, 0 … 1.
  package static func targetEnergy(for need: Need) -> Double {
    switch need {
    case .energy: 0.85
    case .calm: 0.2
    case .focus: 0.45
    case .moodLift: 0.7
    }
  }

  /// The energy and valence a context asks of a song, for context alignment.
  package static func contextProfile(_ context: ActivityContext) -> (
    energy: Double, valence: Double
  ) {
    switch context {
    case .workout: (0.9, 0.65)
    case .deepWork: (0.4, 0.5)
    case .commute: (0.65, 0.65)
    case .preSleep: (0.15, 0.4)
    case .wakeUp: (0.55, 0.7)
    case .relax: (0.3, 0.55)
    case .general: (0.55, 0.6)
    }
  }

  /// Width of the BPM match's Gaussian, in BPM.
  package static let bpmTolerance = 15.0

  /// The seven component values of `candidate` at `moment`; the recency window and the
  /// time-of-day caps are the preferences'.
  package static func components(
    for candidate: Candidate, at moment: DecisionMoment,
    preferences: UserPreferences = .appDefault
  ) -> ScoringComponents {
    let features = candidate.features
    let bpmGap = (features.bpm - targetBPM(for: moment.need)) / bpmTolerance
    let bpm = exp(-0.5 * bpmGap * bpmGap)
    let energy = 1 - min(1, abs(features.energy - targetEnergy(for: moment.need)))

    var familiarity = Familiarity.score(
      playCount: candidate.playCount, maxPlayCount: moment.maxPlayCount)
    if moment.stress > 0.6 || moment.need == .focus {
      familiarity = min(1, familiarity * 1.25)
    }

    let historical = candidate.learnedEffect.map { (1 + max(-1, min(1, $0))) / 2 } ?? 0.5

    let profile = contextProfile(moment.context)
    let context =
      1 - (abs(features.energy - profile.energy) + abs(features.valence - profile.valence)) / 2

    var recency = 0.0
    if let last = candidate.lastPlayedAtMs {
      let minutes = Double(moment.nowMs - last) / 60_000
      recency = max(0, min(1, 1 - minutes / preferences.recencyWindowMinutes))
    }

    return ScoringComponents(
      bpm: bpm, energy: energy, familiarity: familiarity, historical: historical,
      context: context, recency: recency,
      timeOfDay: timeOfDayPenalty(
        bpm: features.bpm, localHour: moment.localHour, preferences: preferences))
  }

  /// 0 when the tempo is within the hour's cap (the night's from `nightStartHour` to
  /// `nightEndHour`, else the morning's from `morningStartHour` to `morningEndHour`; none
  /// otherwise), rising linearly to 1 at 30 BPM over it.
  package static func timeOfDayPenalty(
    bpm: Double, localHour: Double, preferences: UserPreferences = .appDefault
  ) -> Double {
    let cap: Double
    if isNight(localHour, preferences) {
      cap = preferences.nightBPMCap
    } else if localHour >= preferences.morningStartHour, localHour < preferences.morningEndHour {
      cap = preferences.morningBPMCap
    } else {
      return 0
    }
    return max(0, min(1, (bpm - cap) / 30))
  }

  /// Whether a local hour is in the preferences' night (which runs past midnight when it
  /// starts later than it ends).
  package static func isNight(_ localHour: Double, _ preferences: UserPreferences) -> Bool {
    let start = preferences.nightStartHour
    let end = preferences.nightEndHour
    return start > end
      ? localHour >= start || localHour < end : localHour >= start && localHour < end
  }

  /// The weights a decision scores with: the preferences', the familiarity weight multiplied
  /// by the adjuster's boost.
  package static func weights(_ preferences: UserPreferences, adjuster: AdjusterState)
    -> ScoringWeights
  {
    var weights = preferences.weights
    weights.familiarity *= adjuster.familiarityBoost
    return weights
  }

  /// The weighted base score: matches added, penalties subtracted.
  package static func baseScore(_ c: ScoringComponents, weights w: ScoringWeights) -> Double {
    w.bpm * c.bpm + w.energy * c.energy + w.familiarity * c.familiarity
      + w.historical * c.historical + w.context * c.context - w.recency * c.recency
      - w.timeOfDay * c.timeOfDay
  }
}
