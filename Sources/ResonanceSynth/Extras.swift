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
    let expression = rng.pick(expressions)
    let change = Practice.acute(adherence: adherence, draw: rng.uniform(0, 1))
    // Each reading is the body's SDNN at that instant plus the reading's own noise (a minute
    // of beats); the session adds its planted change to the one after it.
    let id = history.breathing.count
    let seed = history.configuration.seed
    let end = start + Int64(pattern.sessionSeconds * 1000)
    history.breathing.append(
      SynthBreathing(
        id: id, startMs: start, pattern: pattern, adherence: adherence, expression: expression,
        restingHR: history.heartRate(at: start),
        hrvBefore: history.hrv(at: start)
          + Practice.readingNoiseMs * HashNoise.normal(seed, key: UInt64(id), salt: 31),
        hrvAfter: history.hrv(at: end) + change
          + Practice.readingNoiseMs * HashNoise.normal(seed, key: UInt64(id), salt: 32),
        plantedChange: change))
    history.practiceDays.insert(day)
  }
}

/// What breathing practice does to the body, planted separately so that `validate` can judge
/// each estimate against its own truth (`docs/synth.md`, "Breathing practice").
enum Practice {
  /// Within a session: the after reading is raised by adherence × U(4, 12) ms — 8 ms on
  /// average for a session followed throughout, nothing for one ignored.
  static func acute(adherence: Double, draw: Double) -> Double {
    adherence * (4 + 8 * draw)
  }

  /// The SD of a single SDNN reading's noise around the body's value, ms.
  static let readingNoiseMs = 3.0
  /// The night after a day with practice: SDNN raised by this much through the night, ms —
  /// the cohort member's planted value, else `PlantedEffects.standardPracticeNightSDNNMs`.
  static func nightSDNNMs(_ configuration: SynthConfiguration) -> Double {
    configuration.planted?.practiceNightSDNNMs ?? PlantedEffects.standardPracticeNightSDNNMs
  }
  /// The night's rise as lived, averaged over the days with practice: `nightSDNNMs`, scaled
  /// by `--step`'s factor on the nights after it — what comparing nights estimates.
  static func nightSDNN(_ history: SynthHistory) -> Double {
    let rise = nightSDNNMs(history.configuration)
    guard !history.practiceDays.isEmpty else { return rise }
    let total = history.practiceDays.reduce(0.0) {
      $0 + rise * (Physiology.stepped(history, day: $1) ? Physiology.Step.sdnnFactor : 1)
    }
    return total / Double(history.practiceDays.count)
  }

  /// The morning after a day with practice: resting heart rate changed by this much, bpm.
  static let morningRestingHRBPM = -1.0
}
