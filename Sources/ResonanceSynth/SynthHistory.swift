import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one simulated day holds, in local minutes after that day's midnight (values past 1440
/// run into the next day).
package struct DayPlan: Sendable, Equatable {
  /// An activity with a span in local minutes.
  package struct Block: Sendable, Equatable {
    package var start: Double
    package var end: Double
  }

  package enum WorkoutKind: String, Sendable, CaseIterable {
    case running = "HKWorkoutActivityTypeRunning"
    case cycling = "HKWorkoutActivityTypeCycling"
    case strength = "HKWorkoutActivityTypeTraditionalStrengthTraining"
    case yoga = "HKWorkoutActivityTypeYoga"
    case hiit = "HKWorkoutActivityTypeHighIntensityIntervalTraining"

    /// Heart rate added above the awake baseline at full effort, BPM.
    var effortBPM: Double {
      switch self {
      case .running: 78
      case .cycling: 62
      case .strength: 45
      case .yoga: 22
      case .hiit: 85
      }
    }

    /// Active energy per minute at full effort, kcal.
    var kcalPerMinute: Double {
      switch self {
      case .running: 11
      case .cycling: 9
      case .strength: 6
      case .yoga: 3.5
      case .hiit: 12
      }
    }

    var isOutdoor: Bool { self == .running || self == .cycling }
  }

  package var day: Int
  package var weekday: Int
  package var isWorkday: Bool
  package var tripPlace: String?
  package var wake: Double
  /// Bedtime that evening (may exceed 1440).
  package var bed: Double
  package var commutes: [Block] = []
  package var deepWork: [Block] = []
  package var meetings: [Block] = []
  package var walks: [Block] = []
  package var workout: (kind: WorkoutKind, block: Block)?

  package static func == (a: DayPlan, b: DayPlan) -> Bool {
    a.day == b.day && a.wake == b.wake && a.bed == b.bed && a.commutes == b.commutes
      && a.deepWork == b.deepWork && a.meetings == b.meetings
      && a.workout?.block == b.workout?.block
  }
}

/// One song played, as it happened.
package struct SynthPlay: Sendable, Equatable {
  package enum Service: String, Sendable { case appleMusic = "apple-music", spotify }

  package var song: Int
  package var session: Int
  package var context: ActivityContext
  package var startMs: Int64
  /// Time actually listened.
  package var playedMs: Int
  package var isSkipped: Bool
  /// Whether the play reached the song's end.
  package var isComplete: Bool
  /// Whether the DJ chose it (else the person did).
  package var byDJ: Bool
  package var service: Service
  /// A pause in the middle: (after how many ms of listening, for how long).
  package var pause: (atMs: Int, lengthMs: Int)?
  /// A scrub forward in the middle: after how many ms, skipping how many.
  package var scrub: (atMs: Int, jumpMs: Int)?
  /// The decision that chose it, when the DJ did.
  package var decision: Int?
  /// Shuffle on (manual listening only).
  package var shuffle: Bool

  /// The wall-clock end: listening time plus any pause.
  package var endMs: Int64 { startMs + Int64(playedMs) + Int64(pause?.lengthMs ?? 0) }

  package static func == (a: SynthPlay, b: SynthPlay) -> Bool {
    a.song == b.song && a.startMs == b.startMs && a.playedMs == b.playedMs
      && a.isSkipped == b.isSkipped
  }
}

/// A listening session: consecutive plays in one context.
package struct SynthSession: Sendable, Equatable {
  package var id: Int
  package var context: ActivityContext
  package var byDJ: Bool
  package var startMs: Int64
  package var endMs: Int64
  package var playlist: Int
}

/// One DJ decision as the app logged it.
package struct SynthDecision: Sendable {
  package var id: Int
  package var session: Int
  package var moment: DecisionMoment
  /// The candidates the app considered, in the playlist's order (song indices).
  package var candidateSongs: [Int]
  package var candidates: [Candidate]
  package var scored: [ScoredCandidate]
  /// Index into `scored` of the one chosen.
  package var chosen: Int
  package var play: Int
  /// The Watch's heart rate when the DJ decided, and the adjuster's state it decided under.
  package var heartRate: Double
  package var adjuster: AdjusterState
  /// What each of `scored` would give, in its order (`CandidateTruth`).
  package var truth: [CandidateTruth]
}

/// A mood input from the Watch's three taps or the iPhone's sliders.
package struct SynthMood: Sendable, Equatable {
  package enum Device: String, Sendable { case watch, phone }
  package var timeMs: Int64
  package var device: Device
  /// Watch: 😊 😐 😔 as 1, 0, −1. Phone: valence and energy sliders in 0 … 1.
  package var tap: Int?
  package var valence: Double?
  package var energy: Double?
}

/// A breathing-pacer session with its hidden truth.
package struct SynthBreathing: Sendable, Equatable {
  package enum Pattern: String, Sendable, CaseIterable {
    case relaxed, box, fourSevenEight = "4-7-8"

    /// Phase lengths in seconds: inhale, hold, exhale, hold.
    package var phases: [(phase: String, seconds: Double)] {
      switch self {
      case .relaxed: [("inhale", 5), ("exhale", 5)]
      case .box: [("inhale", 4), ("hold", 4), ("exhale", 4), ("hold", 4)]
      case .fourSevenEight: [("inhale", 4), ("hold", 7), ("exhale", 8)]
      }
    }

    /// Session length in seconds, as the app runs it.
    package var sessionSeconds: Double {
      switch self {
      case .relaxed: 60
      case .box: 96
      case .fourSevenEight: 114
      }
    }
  }

  package var id: Int
  package var startMs: Int64
  package var pattern: Pattern
  /// The chance the person follows each inhale or exhale phase (the recording reports the
  /// share actually followed).
  package var adherence: Double
  package var expression: String
  package var restingHR: Double
  package var hrvBefore: Double
  package var hrvAfter: Double
  /// The change the session itself made to the after reading, ms (`Practice.acute`): the rest
  /// of after − before is the body's own wander and the readings' noise.
  package var plantedChange: Double
}

/// The next night's sleep and what the evening's listening did to it.
package struct SynthNight: Sendable, Equatable {
  package var day: Int
  package var bedMs: Int64
  package var wakeMs: Int64
  package var deepShare: Double
  package var remShare: Double
  /// How much the evening's calming listening raised the deep share.
  package var listeningNudge: Double
  /// With a planted minutes-asleep effect: whether the evening had the music that earns it,
  /// and the minutes asleep it gained; nil without one.
  package var eveningMusic: Bool? = nil
  package var asleepGainMinutes: Double? = nil
}

/// Everything the simulation produced, before it is written out in the export formats.
package struct SynthHistory: Sendable {
  package var configuration: SynthConfiguration
  package var calendar: SynthCalendar
  package var person: SynthPerson
  package var songs: [SynthSong]
  package var playlists: [[Int]]
  /// The settings `--dj-preferences` gives the simulated DJ (the app's defaults without it),
  /// in force from `djFromMs` on; `djPreferences(atMs:)` says which ran a decision.
  package var djFilePreferences: UserPreferences
  /// The UTC instant the DJ switches from the app's defaults to `djFilePreferences`
  /// (`--dj-from`: local midnight of the first of a month, where a decision log file
  /// starts); nil when it runs them throughout.
  package var djFromMs: Int64?
  /// The arm each local day of the experiment runs (days since 1970-01-01 → an index into
  /// `configuration.experiment`'s arms); empty without one.
  package var armByDay: [Int64: Int] = [:]
  /// UTC milliseconds of minute 0 of the physiology series.
  package var t0Ms: Int64
  package var days: [DayPlan]
  /// Per-minute true heart rate and HRV without music, and music's added effect at the
  /// instant each minute begins (`Physiology.addMusic`).
  package var baseHR: [Float]
  package var baseHRV: [Float]
  package var musicHR: [Float]
  package var musicHRV: [Float]
  /// Every play's drive on the body, in start order: what `music(at:)` needs to follow the
  /// lag between two minutes' marks.
  package var musicDrives: [MusicDrive] = []
  /// Per-minute activity (`Activity.rawValue`) and sleep stage (`SleepStage.rawValue`).
  package var activity: [UInt8]
  package var sleep: [UInt8]
  package var sessions: [SynthSession] = []
  package var plays: [SynthPlay] = []
  package var decisions: [SynthDecision] = []
  package var moods: [SynthMood] = []
  package var breathing: [SynthBreathing] = []
  /// The days (from 0) with a breathing session: their night and the next morning carry the
  /// practice's planted effect (`Practice`).
  package var practiceDays: Set<Int> = []
  package var nights: [SynthNight] = []

  package var minuteCount: Int { baseHR.count }

  /// The settings the DJ runs at `utcMs`: the app's defaults before `djFromMs`, else
  /// `djFilePreferences`.
  package func djPreferences(atMs utcMs: Int64) -> UserPreferences {
    if let djFromMs, utcMs < djFromMs { return .appDefault }
    if let arm = djArm(atMs: utcMs), let plan = configuration.experiment {
      return plan.arms[arm].preferences
    }
    return djFilePreferences
  }

  /// The experiment's arm the DJ runs at `utcMs`: the arm of the person's local day there;
  /// nil outside the plan's days.
  package func djArm(atMs utcMs: Int64) -> Int? {
    guard !armByDay.isEmpty else { return nil }
    // An evening block's day runs to `dayStartHour` the next morning: a session after
    // midnight still runs the evening's arm.
    let shift = Int64(configuration.experiment?.evening?.dayStartHour ?? 0) * 3_600_000
    let local = utcMs + Int64(calendar.offset(utcMs: utcMs)) * 1000 - shift
    return armByDay[SynthCalendar.floorDiv(local, 86_400_000)]
  }

  /// The arm of the evening of `day` (from 0) in an `evening-music` experiment; nil outside
  /// its days or without one.
  package func eveningArm(day: Int) -> ExperimentPlan.Arm? {
    guard let plan = configuration.experiment, plan.evening != nil,
      let arm = armByDay[configuration.firstDay + Int64(day)]
    else { return nil }
    return plan.arms[arm]
  }

  /// Tonight's bedtime as the app predicts it (`BedtimePrediction`), in local minutes after
  /// the midnight of `day` (from 0): from the bedtimes of the nights before it, which the app
  /// reads from the Watch's sleep records.
  package func predictedBedtime(day: Int) -> Double {
    var bedtimes: [Int64: Double] = [:]
    for earlier in max(0, day - BedtimePrediction.lookbackDays)..<day {
      bedtimes[configuration.firstDay + Int64(earlier)] = days[earlier].bed
    }
    return BedtimePrediction(bedtimes: bedtimes).minutes(
      forEvening: configuration.firstDay + Int64(day))
  }

  /// The minute index of an instant (clamped into the series).
  package func minute(_ utcMs: Int64) -> Int {
    max(0, min(minuteCount - 1, Int((utcMs - t0Ms) / 60_000)))
  }

  /// True heart rate at an instant: the body's own, interpolated between minutes, plus
  /// music's exact response at that instant.
  package func heartRate(at utcMs: Int64) -> Double {
    interpolate(utcMs) { Double(baseHR[$0]) } + music(at: utcMs).hr
  }

  /// True SDNN at an instant: the body's own, interpolated between minutes, plus music's exact
  /// response at that instant.
  package func hrv(at utcMs: Int64) -> Double {
    interpolate(utcMs) { Double(baseHRV[$0]) } + music(at: utcMs).hrv
  }

  /// Music's response at an instant: the lag's value where the minute began, decayed to
  /// `utcMs`, plus what the plays in between drove since. Interpolating the minute marks
  /// instead would start the body answering a song up to a minute before it plays (a chord
  /// under the lag's curve), which hides about a tenth of each effect from a model of the lag.
  package func music(at utcMs: Int64) -> (hr: Double, hrv: Double) {
    let m = minute(utcMs)
    let mark = t0Ms + Int64(m) * 60_000
    let t = max(utcMs, mark)
    let tauMs = Physiology.musicLagMinutes * 60_000
    let carried = exp(-Double(t - mark) / tauMs)
    var hr = Double(musicHR[m]) * carried
    var hrv = Double(musicHRV[m]) * carried
    // The drives that began before `t`, newest first, back to the first that ended by the mark.
    var i = musicDrives.partitioningIndex(where: { $0.startMs >= t }) - 1
    while i >= 0, musicDrives[i].endMs > mark {
      let drive = musicDrives[i]
      let from = max(drive.startMs, mark)
      let to = min(drive.endMs, t)
      if to > from {
        let share = exp(-Double(t - to) / tauMs) - exp(-Double(t - from) / tauMs)
        hr += drive.hr * share
        hrv += drive.hrv * share
      }
      i -= 1
    }
    return (hr, hrv)
  }

  private func interpolate(_ utcMs: Int64, _ value: (Int) -> Double) -> Double {
    let position = Double(utcMs - t0Ms) / 60_000
    let i = max(0, min(minuteCount - 2, Int(position.rounded(.down))))
    let f = max(0, min(1, position - Double(i)))
    return value(i) * (1 - f) + value(i + 1) * f
  }
}

/// One play's drive on the body: from its start for as long as it was heard, with its
/// effects after the context's gain.
package struct MusicDrive: Sendable {
  package var startMs: Int64
  package var endMs: Int64
  package var hr: Double
  package var hrv: Double
}

/// What a person is doing in a minute.
package enum Activity: UInt8, Sendable {
  case rest = 0, asleep, walking, workout, deepWork, meeting
}

/// A sleep stage in a minute (0 when not in bed).
package enum SleepStage: UInt8, Sendable {
  case none = 0, core, deep, rem, awake
}
