/// Everything that decides what `resonance synth` writes. The same configuration always
/// gives byte-identical files: every default is fixed, none depends on today's date.
package struct SynthConfiguration: Sendable, Equatable {
  /// How the simulated person judges what the DJ plays (`--person`, `docs/synth.md`).
  package enum PersonKind: String, Sendable, Equatable, CaseIterable {
    /// Each seed draws its own mix of the app-model taste with satiation, drift and hidden
    /// features.
    case mixed
    /// The app's seven components under a taste drawn per seed.
    case appModel = "app-model"
    /// A song's appeal falls with its plays over the last days and recovers.
    case satiation
    /// The taste moves over the months.
    case drift
    /// Appeal depends on an affinity per artist and a latent trait per song as well.
    case hiddenFeature = "hidden-feature"
    /// The taste is the app's weights: at the log's temperature the app's preferences are
    /// the person's best.
    case null
    /// Skips, the share heard and the response do not depend on the song chosen.
    case flat
  }

  package var months: Int = 1
  package var seed: UInt64 = 1
  package var songs: Int = 400
  /// Multiplies the sampling density of the Watch streams (HR, energy, steps), not the life.
  package var scale: Double = 1
  /// The first local day, as (year, month, day).
  package var start: (year: Int, month: Int, day: Int) = (2022, 6, 1)
  package var writesZip: Bool = false
  /// Write every file compressed as it ships (`--compress`): the Health export as
  /// `export.zip`, the Apple Media Services and Spotify folders as `Apple_Media_Services.zip`
  /// and `my_spotify_data.zip`, the apps' recordings as `.jsonl.gz`. Setting it sets
  /// `writesZip` too, since the Health export is one of those files.
  package var compresses: Bool = false {
    didSet { if compresses { writesZip = true } }
  }
  package var person: PersonKind = .mixed
  /// How far the person's drawn taste lies from the app's weights (`--taste-contrast`): the
  /// spread of each weight's draw is multiplied by it.
  package var tasteContrast: Double = 1
  /// Multiplies every song's true effect on heart rate and HRV.
  package var effectScale: Double = 1
  /// The settings the simulated DJ runs (`--dj-preferences`; from `djFromMonth` on when it is
  /// set), and where they came from (`app` for the app's defaults, else the file's name), for
  /// `truth.json`.
  package var djPreferences: UserPreferences = .appDefault
  package var djPreferencesSource = "app"
  /// The month from whose first day the DJ runs `djPreferences` (`--dj-from`): a month, not
  /// any day, since the decision log is one file a month and each file's header states the
  /// settings in force. Before it the DJ runs the app's defaults; nil when it runs
  /// `djPreferences` throughout.
  package var djFromMonth: (year: Int, month: Int)?
  /// The experiment the DJ carries out (`--dj-preferences` naming a plan, `docs/experiments.md`):
  /// before the plan's first day the DJ runs `djPreferences` (the plan's in-force arm), from
  /// it each day runs the arm the plan gives that day, and the days after the plan the
  /// in-force arm again. Nil for none.
  package var experiment: ExperimentPlan?
  /// The day a sustained change begins (`--step`): from it on resting heart rate is higher
  /// and HRV lower (`docs/synth.md`); nil for none.
  package var step: (year: Int, month: Int, day: Int)?
  /// The person-level effects a cohort member carries (`--cohort`, `docs/synth.md`,
  /// "A cohort"); nil for a lone person, whose songs' heart-rate effects owe nothing planted
  /// to tempo, whose evening music moves only the deep-sleep share, and whose practice raises
  /// the night's SDNN by `PlantedEffects.standardPracticeNightSDNNMs`.
  package var planted: PlantedEffects?
  /// The minutes asleep a lone person gains on a night after music in the hour before bed
  /// (`--evening-asleep`, `docs/synth.md`): with it the person lies awake a while before
  /// falling asleep, less after such an evening, as a cohort member does after an evening
  /// with music. Nil: a lone person's evening music moves only the deep-sleep share.
  package var eveningAsleepMinutes: Double?

  package init() {}

  package static func == (a: SynthConfiguration, b: SynthConfiguration) -> Bool {
    a.months == b.months && a.seed == b.seed && a.songs == b.songs && a.scale == b.scale
      && a.start == b.start && a.writesZip == b.writesZip && a.person == b.person
      && a.tasteContrast == b.tasteContrast
      && a.effectScale == b.effectScale && a.djPreferences == b.djPreferences
      && a.compresses == b.compresses && a.djPreferencesSource == b.djPreferencesSource
      && a.djFromDay == b.djFromDay && a.stepDay == b.stepDay && a.planted == b.planted
      && a.experiment == b.experiment && a.eveningAsleepMinutes == b.eveningAsleepMinutes
  }

  /// Days from `start` through `months` calendar months later.
  package var dayCount: Int {
    var year = start.year
    var month = start.month + months
    while month > 12 {
      month -= 12
      year += 1
    }
    let first = Timestamp.days(
      fromYear: Int64(start.year), month: Int64(start.month), day: Int64(start.day))
    let end = Timestamp.days(fromYear: Int64(year), month: Int64(month), day: Int64(start.day))
    return Int(end - first)
  }

  /// Days since 1970-01-01 of the first simulated day.
  package var firstDay: Int64 {
    Timestamp.days(fromYear: Int64(start.year), month: Int64(start.month), day: Int64(start.day))
  }

  /// Days since 1970-01-01 of `djFromMonth`'s first day, the day the DJ switches settings.
  package var djFromDay: Int64? {
    djFromMonth.map { Timestamp.days(fromYear: Int64($0.year), month: Int64($0.month), day: 1) }
  }

  /// Days since 1970-01-01 of the experiment's first day; nil without one (or with a start
  /// that is no date, which the plan's reader refuses first).
  package var experimentDay: Int64? {
    experiment.flatMap { CalendarDay($0.start)?.daysSinceEpoch }
  }

  /// The days of the history the experiment follows: those before its first day, or every
  /// day without one. What the person does by the period's length (the middle third's
  /// listening on Spotify) is cut from these, so that `--months M+K` with a plan starting
  /// after M months lives the first M months exactly as `--months M` does.
  package var historyDayCount: Int {
    guard let day = experimentDay else { return dayCount }
    return max(0, min(dayCount, Int(day - firstDay)))
  }

  /// The history alone: this configuration without the experiment, over the whole months
  /// before the plan's first day — what `synth --months M` wrote before the plan was made.
  /// Nil without an experiment, or when its first day is not whole months after `start`.
  package var historyAlone: SynthConfiguration? {
    guard experiment != nil else { return nil }
    var alone = self
    alone.experiment = nil
    for months in 1..<max(1, self.months) {
      alone.months = months
      if alone.dayCount == historyDayCount { return alone }
    }
    return nil
  }

  /// Days since 1970-01-01 of `step`, the first day of the sustained change.
  package var stepDay: Int64? {
    step.map {
      Timestamp.days(fromYear: Int64($0.year), month: Int64($0.month), day: Int64($0.day))
    }
  }

  /// Why a day the options name cannot be used, in lower case as a usage error says it: the
  /// DJ's switch (`--dj-from`) or the step (`--step`) lies outside the period; nil when both
  /// lie inside it, or neither is set.
  package var dayProblem: String? {
    func text(_ day: Int64) -> String {
      String(Timestamp.iso8601UTC(millisecondsSinceEpoch: day * 86_400_000).prefix(10))
    }
    let last = firstDay + Int64(dayCount) - 1
    if let day = experimentDay {
      guard day > firstDay && day <= last else {
        return "the experiment's first day, \(text(day)), is outside the simulated period after"
          + " its first day, \(text(firstDay + 1)) to \(text(last))"
      }
      guard historyAlone != nil else {
        return "the experiment's first day, \(text(day)), is not whole months after the"
          + " simulated period's first day, \(text(firstDay)): the history before it must be"
          + " what 'synth --months M' writes"
      }
    }
    for (option, day) in [("--dj-from", djFromDay), ("--step", stepDay)] {
      guard let day, day < firstDay || day > last else { continue }
      return "'\(option)' \(text(day)) is outside the simulated period, \(text(firstDay)) to"
        + " \(text(last))"
    }
    return nil
  }
}

/// The three person-level effects `synth --cohort` plants in each member of a cohort, each drawn
/// from the cohort's population (`CohortPopulation`). They are what a hand-off's
/// `effects.json` estimates (`PersonEffect.Name`), so a pooled estimate can be judged against
/// the population that made them.
package struct PlantedEffects: Sendable, Equatable {
  /// The night's SDNN rise after a day with breathing practice when nothing else is planted.
  package static let standardPracticeNightSDNNMs = 5.0

  /// Heart rate while a song plays, bpm, per 10 BPM of its tempo: a term added to every
  /// song's effect, outside the context's gain, after the library's own tempo trend is taken
  /// out of the drawn effects.
  package var tempoHeartRatePer10BPM: Double
  /// Minutes asleep gained on a night after an evening with music (as the report counts it:
  /// ten minutes heard in the four hours before bed), by falling asleep sooner.
  package var eveningMusicAsleepMinutes: Double
  /// The rise of the night's SDNN after a day with breathing practice, ms.
  package var practiceNightSDNNMs: Double

  package init(
    tempoHeartRatePer10BPM: Double, eveningMusicAsleepMinutes: Double, practiceNightSDNNMs: Double
  ) {
    self.tempoHeartRatePer10BPM = tempoHeartRatePer10BPM
    self.eveningMusicAsleepMinutes = eveningMusicAsleepMinutes
    self.practiceNightSDNNMs = practiceNightSDNNMs
  }

  /// The planted value of the effect `effects.json` calls `name`; nil for one not planted
  /// (the tuning gain).
  package func value(of name: PersonEffect.Name) -> Double? {
    switch name {
    case .tempoHeartRate: tempoHeartRatePer10BPM
    case .eveningMusicAsleep: eveningMusicAsleepMinutes
    case .practiceNightSDNN: practiceNightSDNNMs
    case .tuningHeldOutGain: nil
    }
  }
}

/// The population a simulated cohort is drawn from: each effect's mean μ and between-person
/// standard deviation τ, fixed so that `cohort-truth.json` is the same for the same seed and
/// a pooled estimate has a known answer (`docs/synth.md`, "A cohort").
package enum CohortPopulation {
  /// Each planted effect with μ and τ, in `PersonEffect.Name`'s order.
  package static let effects: [(name: PersonEffect.Name, mu: Double, tau: Double)] = [
    (.tempoHeartRate, 1.0, 0.5),
    (.eveningMusicAsleep, 15.0, 8.0),
    (.practiceNightSDNN, 5.0, 2.0),
  ]

  /// Member `index`'s effects, one normal draw per effect from the cohort seed's stream for
  /// that member: the same seed and index always give the same person.
  package static func draw(seed: UInt64, index: Int) -> PlantedEffects {
    var rng = SplitMix64(seed: seed, stream: "cohort-\(index)")
    let values = effects.map { $0.mu + $0.tau * rng.normal() }
    return PlantedEffects(
      tempoHeartRatePer10BPM: values[0], eveningMusicAsleepMinutes: values[1],
      practiceNightSDNNMs: values[2])
  }
}
