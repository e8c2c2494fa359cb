import ResonanceModel

/// The seed's state engine, offline: a `StateVector` every 30 seconds of each listening
/// session, from heart rate, HRV, resting heart rate, age, manual mood inputs and context.
///
/// Every formula and window is here, once; `docs/brain.md` ("State") writes them out. Stress
/// and need come from `NeedRule`, which the decision engine shares. The timeline itself —
/// cursors over the sorted inputs — is in `StateEngine+Timeline.swift`.
package enum StateEngine {
  /// The seed's tick: one state every 30 seconds, from each period's start.
  package static let tickMs: Int64 = 30_000
  /// The resting baseline is looked up again every 30 minutes from each period's start.
  package static let restingRefreshMs: Int64 = 30 * 60_000
  /// A resting-HR record older than this at the refresh instant is not used.
  package static let restingRecordMaxAgeMs: Int64 = 7 * 86_400_000
  /// The fallback baseline's window: the heart rate of the 24 hours before the refresh.
  package static let restingFallbackWindowMs: Int64 = 86_400_000
  /// The fallback baseline is this percentile of that window's heart rate…
  package static let restingFallbackPercentile = 0.05
  /// …when the window holds at least this many samples.
  package static let restingFallbackMinimumSamples = 30
  /// A heart-rate sample older than this at a tick is not used: no arousal then.
  package static let heartRateStalenessMs: Int64 = 10 * 60_000
  /// An HRV reading at most this old is fresh…
  package static let hrvFreshMs: Int64 = 30 * 60_000
  /// …and up to this old it is carried, flagged; older, there is no stress.
  package static let hrvCarryMs: Int64 = 6 * 3_600_000
  /// A mood input's weight falls to zero over this span.
  package static let moodWindowMs: Int64 = 15 * 60_000
  /// A mood input's weight when just entered.
  package static let moodMaxWeight = 0.7
  /// The age assumed when neither birth year nor age is known (maximum heart rate 180).
  package static let defaultAgeYears = 40

  /// Tanaka's age-predicted maximum heart rate, 208 − 0.7 × age, in bpm (age 40 → 180).
  package static func maxHeartRate(ageYears: Int) -> Double {
    208 - 0.7 * Double(ageYears)
  }

  /// The age to use at an instant, and whether it was known. A birth year gives the UTC year
  /// of `timeMs` minus that year; an age outside 1 … 120 counts as unknown.
  package static func age(_ age: PersonAge, atMs timeMs: Int64) -> (years: Int, isKnown: Bool) {
    let years: Int? =
      switch age {
      case .birthYear(let year):
        Int(Timestamp.civil(fromDays: floorDiv(timeMs, 86_400_000)).year) - year
      case .years(let years): years
      case .unknown: nil
      }
    guard let years, (1...120).contains(years) else { return (defaultAgeYears, false) }
    return (years, true)
  }

  /// Arousal by heart-rate reserve: (HR − resting) / (max − resting), clamped to 0 … 1; nil
  /// without a reading or a baseline, or when the reserve is not positive.
  package static func arousal(heartRate: Double?, resting: Double?, maximum: Double) -> Double? {
    guard let heartRate, let resting, maximum > resting else { return nil }
    return clamp((heartRate - resting) / (maximum - resting))
  }

  /// Energy, the seed's composite: 0.6 × arousal + 0.4 × (1 − stress); nil if either is.
  package static func energy(arousal: Double?, stress: Double?) -> Double? {
    guard let arousal, let stress else { return nil }
    return 0.6 * arousal + 0.4 * (1 - stress)
  }

  /// Focus by context: deep work 0.8 (the seed's base), workout 0.3 (the seed's fixed value),
  /// general 0.5, commute and wake-up 0.4, relax 0.3, and pre-sleep 0.3 × (1 − arousal) —
  /// penalised by arousal, so nil when arousal is.
  package static func focus(context: ActivityContext, arousal: Double?) -> Double? {
    switch context {
    case .deepWork: 0.8
    case .workout: 0.3
    case .general: 0.5
    case .commute, .wakeUp: 0.4
    case .relax: 0.3
    case .preSleep: arousal.map { 0.3 * (1 - $0) }
    }
  }

  /// Valence before any mood input, from stress alone: 0.75 − 0.5 × stress, so the population
  /// HRV baseline (stress 0.5) is neutral 0.5, and the range is 0.25 … 0.75.
  package static func baseValence(stress: Double) -> Double {
    0.75 - 0.5 * stress
  }

  /// A mood input's weight `elapsedMs` after it was entered: 0.7 × (1 − elapsed / 15 min) from
  /// 0 up to 15 minutes, 0 after (and 0 for an input still in the future).
  package static func moodWeight(elapsedMs: Int64) -> Double {
    guard elapsedMs >= 0, elapsedMs < moodWindowMs else { return 0 }
    return moodMaxWeight * (1 - Double(elapsedMs) / Double(moodWindowMs))
  }

  /// A mood input as valence on 0 … 1: the iPhone's valence slider as given (clamped), else
  /// the Watch's tap mapped 😔 −1 → 0, 😐 0 → 0.5, 😊 1 → 1; nil when it has neither (an
  /// energy slider alone does not move valence).
  package static func moodValence(_ input: MoodInput) -> Double? {
    if let valence = input.valence, valence.isFinite { return clamp(valence) }
    if let tap = input.tap, (-1...1).contains(tap) { return (Double(tap) + 1) / 2 }
    return nil
  }

  /// Valence: (1 − w) × base + w × mood, with `w` the mood input's weight; nil without a
  /// stress-based base (a mood input alone is in the evidence, not passed off as a state).
  package static func valence(stress: Double?, mood: Double?, weight: Double) -> Double? {
    guard let stress else { return nil }
    let base = baseValence(stress: stress)
    guard let mood, weight > 0 else { return base }
    return (1 - weight) * base + weight * mood
  }

  /// The need from context and stress; an unknown stress is taken as 0, so only a measured
  /// high stress forces calm.
  package static func need(context: ActivityContext, stress: Double?) -> Need {
    NeedRule.need(context: context, stress: stress ?? 0)
  }

  static func clamp(_ x: Double) -> Double { max(0, min(1, x)) }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }
}
