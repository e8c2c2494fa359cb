/// A randomised N-of-1 experiment the DJ carries out: the `experiment` section of a preference
/// file (`docs/formats.md`, `docs/experiments.md`). Each arm holds the full preferences the
/// DJ runs on its days; `assignment` gives every day of the plan its arm; the stopping rule
/// and the power analysis say when the experiment may stop and how long it was planned for.
package struct ExperimentPlan: Sendable, Equatable, Codable {
  /// The question the experiment answers.
  package enum Question: String, Sendable, Equatable, Codable, CaseIterable {
    /// The preferences in force against one or more candidates, by keep rate.
    case tuning
    /// Calm music, the person's usual or no music in the hour before bed, by that night's
    /// minutes asleep.
    case eveningMusic = "evening-music"
  }

  /// What the DJ does in the hour before bed on an arm's evenings (`evening-music`).
  package enum EveningMode: String, Sendable, Equatable, Codable, CaseIterable {
    /// Whatever the person would have had: the DJ as it runs outside the experiment.
    case usual
    /// The DJ plays the arm's calm songs from the hour before the predicted bedtime until the
    /// person stops it.
    case calm
    /// The DJ plays nothing in the hour before the predicted bedtime; what the person plays
    /// by hand then breaks the arm.
    case noMusic = "none"
  }

  /// A song of a calm list, as the app finds it in the library: its Apple Music catalog ID
  /// when the store has one, else its title and artist.
  package struct Song: Sendable, Equatable, Codable {
    package var catalogID: String?
    package var title: String
    package var artist: String
    /// Its estimated heart-rate effect, bpm against the person's average song.
    package var heartRateEffect: Double

    package init(catalogID: String?, title: String, artist: String, heartRateEffect: Double) {
      self.catalogID = catalogID
      self.title = title
      self.artist = artist
      self.heartRateEffect = heartRateEffect
    }
  }

  /// The evening block of an `evening-music` experiment: the window before the predicted
  /// bedtime the arms differ in, and how the app predicts bedtime (`BedtimePrediction`).
  package struct Evening: Sendable, Equatable, Codable {
    /// The window the plan writes: the hour before the predicted bedtime.
    package static let standardWindowMinutes = 60
    /// Ten minutes of music in the hour before bed make an evening with music.
    package static let standardMusicMinutes = 10.0
    /// A block's day runs from 06:00 to 06:00 the next morning.
    package static let standardDayStartHour = 6

    /// The window's length before the predicted bedtime, minutes.
    package var windowMinutes: Int
    /// Music heard for at least this many minutes in the hour before the actual bedtime makes
    /// an evening *with music*: what the arms are checked against and the music effect is of.
    package var musicMinutes: Double
    /// The local hour a block's day starts: an evening's decisions after midnight belong to
    /// the evening before.
    package var dayStartHour: Int
    /// The prediction's rule: the median bedtime of the last `lookbackDays` nights of the same
    /// kind (Friday and Saturday nights, or the rest).
    package var lookbackDays: Int
    /// The predictions the history's last nights gave, as local clock times: for a weeknight
    /// and for a Friday or Saturday night.
    package var weeknightBedtime: String
    package var weekendBedtime: String

    package init(
      windowMinutes: Int, musicMinutes: Double, dayStartHour: Int, lookbackDays: Int,
      weeknightBedtime: String, weekendBedtime: String
    ) {
      self.windowMinutes = windowMinutes
      self.musicMinutes = musicMinutes
      self.dayStartHour = dayStartHour
      self.lookbackDays = lookbackDays
      self.weeknightBedtime = weeknightBedtime
      self.weekendBedtime = weekendBedtime
    }
  }

  /// One arm: its name and the preferences the DJ runs on its days.
  package struct Arm: Sendable, Equatable, Codable {
    package var name: String
    package var preferences: UserPreferences
    /// What the DJ does before bed on the arm's evenings (`evening-music`; nil otherwise),
    /// and the calm arm's songs.
    package var evening: EveningMode?
    package var songs: [Song]?

    package init(
      name: String, preferences: UserPreferences, evening: EveningMode? = nil,
      songs: [Song]? = nil
    ) {
      self.name = name
      self.preferences = preferences
      self.evening = evening
      self.songs = songs
    }
  }

  /// When the person may stop: after each whole cycle, the confidence sequence of every
  /// contrast against arm 0 (`alpha` each, Bonferroni across the contrasts), `adopt` when a
  /// contrast's lower end is above 0, `keep` when every upper end is below `margin` or the
  /// plan's days are over, `continue` otherwise.
  package struct StoppingRule: Sendable, Equatable, Codable {
    /// `confidence-sequence`: the asymptotic normal-mixture sequence over cycles.
    package var kind: String
    /// The error rate of the whole experiment, and of each contrast (Bonferroni).
    package var alpha: Double
    package var contrastAlpha: Double
    /// The mixture's ρ², tuned for the planned cycles.
    package var rho2: Double
    /// Days a cycle: every weekday once per arm; the sequence moves a cycle at a time.
    package var cycleDays: Int
    /// The smallest worthwhile gain in the outcome.
    package var margin: Double
    /// Whole cycles before the sequence is read.
    package var minimumCycles: Int
    /// The contrast's standard deviation measured on history, pooled into the sequence's as
    /// `priorCycles` cycles' worth.
    package var priorSD: Double
    package var priorCycles: Double
    /// Where `alpha` came from (`ErrorLedger.experimentShare`): the error budget of the
    /// in-force preferences' family, what its `tune` runs had spent and what its other
    /// experiments held when the plan was made; `alpha` is half of what was left.
    package var familyAlpha: Double?
    package var familySpent: Double?
    package var familyReserved: Double?

    package init(
      kind: String, alpha: Double, contrastAlpha: Double, rho2: Double, cycleDays: Int,
      margin: Double, minimumCycles: Int, priorSD: Double, priorCycles: Double,
      familyAlpha: Double? = nil, familySpent: Double? = nil, familyReserved: Double? = nil
    ) {
      self.familyAlpha = familyAlpha
      self.familySpent = familySpent
      self.familyReserved = familyReserved
      self.minimumCycles = minimumCycles
      self.priorSD = priorSD
      self.priorCycles = priorCycles
      self.kind = kind
      self.alpha = alpha
      self.contrastAlpha = contrastAlpha
      self.rho2 = rho2
      self.cycleDays = cycleDays
      self.margin = margin
    }
  }

  /// How the plan's length was found (`docs/experiments.md`, "How long").
  package struct Power: Sendable, Equatable, Codable {
    /// The power aimed at, and the gain it is for.
    package var target: Double
    package var gain: Double
    /// Where the gain came from: `margin` (given), `tune` (the candidate's estimated change
    /// in keep rate on the month it was not chosen on) or `default`.
    package var gainSource: String
    /// Days of history read, and those with an outcome; the outcome's mean, day-to-day
    /// standard deviation and lag-1 autocorrelation there.
    package var historyDays: Int
    package var observedDays: Int
    package var outcomeMean: Double
    package var dailySD: Double
    package var autocorrelation: Double
    /// The standard deviation of a cycle's contrast, measured on the history's cycles under
    /// random schedules.
    package var contrastSD: Double
    /// The days needed for the power at the gain; nil when more than ten years.
    package var daysNeeded: Int?
    /// Whether they fit within `maxDays`.
    package var fits: Bool
    /// The gain the planned days would show with the power aimed at.
    package var detectableGain: Double

    package init(
      target: Double, gain: Double, gainSource: String, historyDays: Int, observedDays: Int,
      outcomeMean: Double, dailySD: Double, autocorrelation: Double, contrastSD: Double,
      daysNeeded: Int?, fits: Bool, detectableGain: Double
    ) {
      self.target = target
      self.gain = gain
      self.gainSource = gainSource
      self.historyDays = historyDays
      self.observedDays = observedDays
      self.outcomeMean = outcomeMean
      self.dailySD = dailySD
      self.autocorrelation = autocorrelation
      self.contrastSD = contrastSD
      self.daysNeeded = daysNeeded
      self.fits = fits
      self.detectableGain = detectableGain
    }
  }

  package var question: Question
  /// The primary outcome: `keep-rate` (the share of the day's DJ decisions kept) or
  /// `minutes-asleep` (that night's, after the evening).
  package var outcome: String
  /// The unit of randomisation: `day`, or `evening` (the hour before bed, a day's evening
  /// running to `evening.dayStartHour` the next morning).
  package var block: String
  package var arms: [Arm]
  /// The first day (`YYYY-MM-DD`, local), and the planned days: whole cycles.
  package var start: String
  package var days: Int
  /// The longest the person would run it.
  package var maxDays: Int
  /// The seed the schedule was drawn from.
  package var seed: UInt64
  /// Day → arm name, every day of the plan.
  package var assignment: [String: String]
  package var stoppingRule: StoppingRule
  package var power: Power
  /// The evening block (`evening-music`); nil for a plan by day.
  package var evening: Evening?

  package init(
    question: Question, outcome: String, block: String, arms: [Arm], start: String, days: Int,
    maxDays: Int, seed: UInt64, assignment: [String: String], stoppingRule: StoppingRule,
    power: Power, evening: Evening? = nil
  ) {
    self.evening = evening
    self.question = question
    self.outcome = outcome
    self.block = block
    self.arms = arms
    self.start = start
    self.days = days
    self.maxDays = maxDays
    self.seed = seed
    self.assignment = assignment
    self.stoppingRule = stoppingRule
    self.power = power
  }
}

/// What `resonance experiment plan` asks.
package struct ExperimentPlanRequest: Sendable, Equatable {
  package var store: StoreLocation
  package var question: ExperimentPlan.Question
  /// Candidate preference files; none: the candidate of the store's latest `tune`.
  package var candidates: [String]
  /// The smallest worthwhile gain in the outcome (keep rate, or minutes asleep); nil: the
  /// candidate's estimated gain, or `ExperimentPlanStage.defaultMinutes`.
  package var margin: Double?
  package var maxDays: Int
  package var seed: UInt64
  /// The first day; nil: the day after the store's last decision.
  package var start: CalendarDay?
  package var out: String
  package var encoding: PreferenceFile.Encoding

  package init(
    store: StoreLocation, question: ExperimentPlan.Question = .tuning, candidates: [String] = [],
    margin: Double? = nil, maxDays: Int = 120, seed: UInt64 = 1, start: CalendarDay? = nil,
    out: String, encoding: PreferenceFile.Encoding = .json
  ) {
    self.store = store
    self.question = question
    self.candidates = candidates
    self.margin = margin
    self.maxDays = maxDays
    self.seed = seed
    self.start = start
    self.out = out
    self.encoding = encoding
  }
}

/// The plan written, and where.
package struct ExperimentPlanOutcome: Sendable, Equatable {
  package var plan: ExperimentPlan
  package var out: String

  package init(plan: ExperimentPlan, out: String) {
    self.plan = plan
    self.out = out
  }
}

/// What `resonance experiment analyze` asks: the plan, the day to analyse through, and the
/// days counted.
package struct ExperimentAnalyzeRequest: Sendable, Equatable {
  package var store: StoreLocation
  package var plan: String
  /// The last day counted; nil: the store's last decision's day.
  package var asOf: CalendarDay?
  /// Count only the days the log shows ran their planned arm (`--per-protocol`), rather than
  /// every day under its planned arm.
  package var perProtocol: Bool

  package init(
    store: StoreLocation, plan: String, asOf: CalendarDay? = nil, perProtocol: Bool = false
  ) {
    self.store = store
    self.plan = plan
    self.asOf = asOf
    self.perProtocol = perProtocol
  }
}

/// One local day of the DJ's decisions, as an experiment reads it: how many there were,
/// how many have an outcome and how many of those were kept, the arms the decisions ran
/// (nil: none named, the settings in force) and the plans' seeds the log carried.
package struct DecisionDay: Sendable, Equatable {
  package var day: CalendarDay
  package var decisions: Int
  package var outcomes: Int
  package var kept: Int
  package var arms: [String?: Int]
  package var seeds: Set<UInt64>

  package init(
    day: CalendarDay, decisions: Int = 0, outcomes: Int = 0, kept: Int = 0,
    arms: [String?: Int] = [:], seeds: Set<UInt64> = []
  ) {
    self.day = day
    self.decisions = decisions
    self.outcomes = outcomes
    self.kept = kept
    self.arms = arms
    self.seeds = seeds
  }

  /// The share of the day's decisions with an outcome that were kept; nil with none.
  package var keepRate: Double? { outcomes > 0 ? Double(kept) / Double(outcomes) : nil }
}

/// How closely the DJ followed a plan, as its decision log shows it.
package struct ExperimentCompliance: Sendable, Equatable, Codable {
  /// What a decision made with the settings in force outside any arm ran, where an arm's name
  /// goes: not a name an arm can have (an evening-music plan has an arm called `none`).
  package static let noArm = "(no arm)"

  /// An arm a day's decisions ran, by name (`noArm` for the settings in force without an
  /// arm), with how many decisions.
  package struct Ran: Sendable, Equatable, Codable {
    package var arm: String
    package var decisions: Int

    package init(arm: String, decisions: Int) {
      self.arm = arm
      self.decisions = decisions
    }
  }

  /// A day of the plan on which the DJ ran another arm than the planned one.
  package struct Departure: Sendable, Equatable, Codable {
    package var day: String
    package var planned: String
    /// The arms the day's decisions ran, the most decisions first.
    package var ran: [Ran]

    package init(day: String, planned: String, ran: [Ran]) {
      self.day = day
      self.planned = planned
      self.ran = ran
    }
  }

  /// Whether the log names the arm of its decisions (version 3 with this plan's seed); when
  /// not, nothing can be said of what ran.
  package var logged: Bool
  /// The plan's days so far with decisions, and those whose every decision ran the planned arm.
  package var daysWithDecisions: Int
  package var followedDays: Int
  package var departures: [Departure]

  package init(
    logged: Bool, daysWithDecisions: Int, followedDays: Int, departures: [Departure]
  ) {
    self.logged = logged
    self.daysWithDecisions = daysWithDecisions
    self.followedDays = followedDays
    self.departures = departures
  }
}

/// What an experiment's days say so far, and what the stopping rule decides.
package struct ExperimentAnalyzeOutcome: Sendable, Equatable, Codable {
  /// One candidate against the preferences in force: whole cycles measured, the mean cycle
  /// contrast in keep rate with the confidence sequence's interval at `level`, and the
  /// randomisation test's p-value (nil before two cycles).
  package struct Contrast: Sendable, Equatable, Codable {
    package var arm: String
    package var cycles: Int
    package var estimate: Double?
    package var lower: Double?
    package var upper: Double?
    package var level: Double
    package var permutationP: Double?

    package init(
      arm: String, cycles: Int, estimate: Double?, lower: Double?, upper: Double?,
      level: Double, permutationP: Double?
    ) {
      self.arm = arm
      self.cycles = cycles
      self.estimate = estimate
      self.lower = lower
      self.upper = upper
      self.level = level
      self.permutationP = permutationP
    }
  }

  package var plan: String
  /// `adopt`, `keep` or `continue`.
  package var decision: String
  /// The arm adopted, with `adopt`.
  package var adopted: String?
  package var asOf: String
  package var daysLeft: Int
  package var contrasts: [Contrast]
  /// `itt`: every day counted under the arm the plan gave it; `per-protocol`: only the days
  /// the log shows ran it.
  package var analysis: String
  package var compliance: ExperimentCompliance
  /// An evening-music experiment's evenings, and the effect of music before bed; nil for a
  /// plan by day.
  package var evenings: Evenings?

  /// What an evening-music experiment's evenings held: per arm, the evenings with a night
  /// and those with music in the hour before its bedtime; and the minutes asleep music then
  /// brings (`MusicEffect`), the calm arm's evenings against the no-music arm's.
  package struct Evenings: Sendable, Equatable, Codable {
    package struct Arm: Sendable, Equatable, Codable {
      package var arm: String
      package var evenings: Int
      package var withMusic: Int

      package init(arm: String, evenings: Int, withMusic: Int) {
        self.arm = arm
        self.evenings = evenings
        self.withMusic = withMusic
      }
    }

    package var arms: [Arm]
    /// Whole cycles with both arms' evenings, the mean contrasts in minutes asleep and in the
    /// share of evenings with music, and their ratio with its interval at `level` (nil ends:
    /// unbounded so far).
    package var cycles: Int
    package var asleepContrast: Double?
    package var musicContrast: Double?
    package var estimate: Double?
    package var lower: Double?
    package var upper: Double?
    package var level: Double

    package init(
      arms: [Arm], cycles: Int, asleepContrast: Double?, musicContrast: Double?,
      estimate: Double?, lower: Double?, upper: Double?, level: Double
    ) {
      self.arms = arms
      self.cycles = cycles
      self.asleepContrast = asleepContrast
      self.musicContrast = musicContrast
      self.estimate = estimate
      self.lower = lower
      self.upper = upper
      self.level = level
    }
  }

  package init(
    plan: String, decision: String, adopted: String?, asOf: String, daysLeft: Int,
    contrasts: [Contrast], analysis: String, compliance: ExperimentCompliance,
    evenings: Evenings? = nil
  ) {
    self.evenings = evenings
    self.compliance = compliance
    self.plan = plan
    self.decision = decision
    self.adopted = adopted
    self.asOf = asOf
    self.daysLeft = daysLeft
    self.contrasts = contrasts
    self.analysis = analysis
  }
}
