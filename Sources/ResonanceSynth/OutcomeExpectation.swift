import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What choosing one candidate at one logged decision would give, in expectation over the
/// person's outcome draws: the truth `decisions-truth.jsonl.gz` holds, from which the
/// one-step value of any preferences on the logged decisions follows exactly.
package struct CandidateTruth: Sendable, Equatable {
  /// The chance the person skips it.
  package var skip: Double
  /// The expected share of it heard, as the decision log's outcome measures it
  /// (`listened_ms / duration_ms`).
  package var share: Double
  /// The expected response score (clamp(0.5 + Δ / 20, 0, 1), as `Reward.response` scores it) of the music's part of the measured
  /// change toward the need (`OutcomeExpectation.response`).
  package var response: Double
}

/// The expectations behind `CandidateTruth`, computed from the same draws `Listener` makes
/// (`docs/synth.md`, "One-step truth").
enum OutcomeExpectation {
  /// The share lost to a scrub forward, on average, in a complete Apple Music play: a 0.94
  /// chance of no pause times a 0.04 chance of a scrub, times the mean jump of
  /// (1 − U(0.2, 0.6)) · U(0.1, 0.5) = 0.6 · 0.3 of the song.
  static let scrubLoss = 0.94 * 0.04 * 0.6 * 0.3

  /// The lengths a skipped play lasts, as `Listener` draws them: half early (800 … 5,000 ms,
  /// or a share 0.004 … 0.023 of the song for a flat person), half a share 0.04 … 0.9 of it.
  static let earlySkipMs = (800.0, 5_000.0)
  static let flatEarlySkipShare = (0.004, 0.023)
  static let lateSkipShare = (0.04, 0.9)

  /// The truth of a candidate with skip chance `skip`, of `durationMs`, with `remainingMs`
  /// of the session left (a flat person's session runs to the song's end), and the song's
  /// effect toward the need in context (`effect`: ms of SDNN or BPM of heart rate).
  static func truth(
    skip: Double, durationMs: Int, remainingMs: Int64, effect: Double, usesHRV: Bool,
    isFlat: Bool
  ) -> CandidateTruth {
    let duration = Double(durationMs)
    let remaining = isFlat ? Double.infinity : Double(remainingMs)
    let early =
      isFlat
      ? (flatEarlySkipShare.0 * duration, flatEarlySkipShare.1 * duration) : earlySkipMs
    let late = (lateSkipShare.0 * duration, lateSkipShare.1 * duration)
    let kept = duration <= remaining ? duration : remaining
    let keptShare = duration <= remaining ? 1 - scrubLoss : remaining / duration
    let skippedMs =
      0.5 * meanOfMin(uniform: early, cap: remaining)
      + 0.5 * meanOfMin(uniform: late, cap: remaining)
    let share = (1 - skip) * keptShare + skip * skippedMs / duration
    let music =
      (1 - skip) * lagMean(listenedMs: kept, usesHRV: usesHRV)
      + skip
      * (0.5 * lagMean(listenedMs: min((early.0 + early.1) / 2, remaining), usesHRV: usesHRV)
        + 0.5 * lateMean(late, cap: remaining, usesHRV: usesHRV))
    return CandidateTruth(
      skip: skip, share: share,
      response: SessionQualityScorer.hrvComponent(deltaMs: effect * music))
  }

  /// E[min(U(a, b), cap)].
  static func meanOfMin(uniform range: (Double, Double), cap: Double) -> Double {
    let (a, b) = range
    if cap >= b { return (a + b) / 2 }
    if cap <= a { return cap }
    return ((cap * cap - a * a) / 2 + cap * (b - cap)) / (b - a)
  }

  /// The mean of the lag's response to a unit effect over the window the measured change
  /// reads (`play_biometrics`): heart rate over the play, SDNN from its start to five
  /// minutes after its end. The body follows a first-order lag of 1.5 minutes
  /// (`Physiology.musicLagMinutes`): 1 − e^(−t/τ) while it plays, fading after.
  static func lagMean(listenedMs: Double, usesHRV: Bool) -> Double {
    let tau = Physiology.musicLagMinutes * 60_000
    let length = max(1, listenedMs)
    let rise = length - tau * (1 - exp(-length / tau))
    guard usesHRV else { return rise / length }
    let after = 5 * 60_000.0
    let fall = (1 - exp(-length / tau)) * tau * (1 - exp(-after / tau))
    return (rise + fall) / (length + after)
  }

  /// `lagMean` averaged over a late skip's length, U(a, b) capped at the session's end, by
  /// the midpoint rule on 16 points.
  static func lateMean(_ range: (Double, Double), cap: Double, usesHRV: Bool) -> Double {
    let points = 16
    var total = 0.0
    for k in 0..<points {
      let length = range.0 + (range.1 - range.0) * (Double(k) + 0.5) / Double(points)
      total += lagMean(listenedMs: min(length, cap), usesHRV: usesHRV)
    }
    return total / Double(points)
  }
}
