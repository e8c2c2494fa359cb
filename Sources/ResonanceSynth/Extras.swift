import ResonanceModel

/// Mood inputs and breathing-pacer sessions.
enum Extras {
  static let expressions = ["neutral", "happy", "calm", "focused", "sad", "surprised"]

  /// About one mood input every two days: the Watch's three taps or the iPhone's sliders,
  /// a little happier after a night with more deep sleep.
  static func moods(day: Int, into history: inout SynthHistory, rng: inout SplitMix64) {
    guard rng.chance(0.5) else { return }
    let plan = history.days[day]
    let minute = rng.uniform(plan.wake + 30, max(plan.wake + 31, plan.bed - 30))
    let time = history.calendar.utcMs(day: day, localMinutes: minute)
    let lastDeep = history.nights.last?.deepShare ?? 0.16
    let mood = rng.normal(0.1 + 2 * (lastDeep - 0.16), 0.6)
    if rng.chance(0.6) {
      history.moods.append(
        SynthMood(timeMs: time, device: .watch, tap: mood > 0.35 ? 1 : mood < -0.35 ? -1 : 0))
    } else {
      history.moods.append(
        SynthMood(
          timeMs: time, device: .phone, tap: nil,
          valence: (max(0, min(1, 0.5 + mood / 2)) * 100).rounded() / 100,
          energy: (rng.uniform(0.2, 0.9) * 100).rounded() / 100))
    }
  }

  /// About three breathing sessions a week, morning or evening, each with an adherence drawn
  /// uniformly from 0.15 … 1 (some sessions followed well, some poorly).
  static func breathing(day: Int, into history: inout SynthHistory, rng: inout SplitMix64) {
    guard rng.chance(3.0 / 7.0) else { return }
    let plan = history.days[day]
    let minute = rng.chance(0.5) ? plan.wake + rng.uniform(15, 60) : plan.bed - rng.uniform(20, 60)
    let start = history.calendar.utcMs(day: day, localMinutes: minute)
    let pattern = rng.pick(SynthBreathing.Pattern.allCases)
    let adherence = rng.uniform(0.15, 1)
    history.breathing.append(
      SynthBreathing(
        id: history.breathing.count, startMs: start, pattern: pattern,
        adherence: adherence,
        expression: rng.pick(expressions), restingHR: history.heartRate(at: start),
        hrvBefore: history.hrv(at: start),
        hrvAfter: history.hrv(at: start) + adherence * rng.uniform(4, 12)))
  }
}
