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

  /// Songs faster than this are penalised in the morning (05:00–09:00 local).
  package static let morningBPMCap = 120.0
  /// Songs faster than this are penalised at night (22:00–05:00 local); the guard filters
  /// reject songs above `GuardFilters.nightBPMHardCap` outright.
  package static let nightBPMCap = 95.0
  /// How long a played song keeps a recency penalty, in minutes (linear decay to zero).
  package static let recencyWindowMinutes = 240.0
  /// Width of the BPM match's Gaussian, in BPM.
  package static let bpmTolerance = 15.0

  /// The seven component values of `candidate` at `moment`.
  package static func components(for candidate: Candidate, at moment: DecisionMoment)
    -> ScoringComponents
  {
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
      recency = max(0, min(1, 1 - minutes / recencyWindowMinutes))
    }

    return ScoringComponents(
      bpm: bpm, energy: energy, familiarity: familiarity, historical: historical,
      context: context, recency: recency,
      timeOfDay: timeOfDayPenalty(bpm: features.bpm, localHour: moment.localHour))
  }

  /// 0 when the tempo is within the hour's cap, rising linearly to 1 at 30 BPM over it.
  package static func timeOfDayPenalty(bpm: Double, localHour: Double) -> Double {
    let cap: Double
    if localHour >= 22 || localHour < 5 {
      cap = nightBPMCap
    } else if localHour < 9 {
      cap = morningBPMCap
    } else {
      return 0
    }
    return max(0, min(1, (bpm - cap) / 30))
  }

  /// The weighted base score: matches added, penalties subtracted.
  package static func baseScore(_ c: ScoringComponents, weights w: ScoringWeights) -> Double {
    w.bpm * c.bpm + w.energy * c.energy + w.familiarity * c.familiarity
      + w.historical * c.historical + w.context * c.context - w.recency * c.recency
      - w.timeOfDay * c.timeOfDay
  }
}
