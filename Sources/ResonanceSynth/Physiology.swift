import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The person's true heart rate and HRV, minute by minute.
///
/// Awake: resting HR (drifting over months) + 12 BPM + a circadian swing of ±3 BPM, plus
/// activity (walking +28, meetings +6, deep work +3, workouts up to their effort); SDNN around
/// the person's base, lower with effort and stress. Asleep: by stage. Both carry AR(1) noise.
/// Music adds each song's effect through a first-order lag (τ = 1.5 min).
enum Physiology {
  static let musicLagMinutes = 1.5

  static func restingHR(_ history: SynthHistory, day: Int) -> Double {
    let person = history.person
    let years = Double(day) / 365.25
    return person.restingHRStart + person.restingHRDriftPerYear * years
      + 0.8 * sin(2 * Double.pi * Double(day) / 47)
      + (stepped(history, day: day) ? Step.restingHRBPM : 0)
  }

  /// The resting heart rate Health records for `day`: the body's, and lower the morning after
  /// a day with breathing practice (`Practice.morningRestingHRBPM`).
  static func restingRecord(_ history: SynthHistory, day: Int) -> Double {
    restingHR(history, day: day)
      + (history.practiceDays.contains(day - 1) ? Practice.morningRestingHRBPM : 0)
  }

  /// Whether `day` is on or after the sustained change `--step` planted.
  static func stepped(_ history: SynthHistory, day: Int) -> Bool {
    guard let stepDay = history.configuration.stepDay else { return false }
    return Int64(day) >= stepDay - history.configuration.firstDay
  }

  /// What `--step DATE` changes from that day on: resting heart rate up, every SDNN scaled
  /// down — a sustained change such as a stressful season brings (`docs/synth.md`).
  enum Step {
    static let restingHRBPM = 3.0
    static let sdnnFactor = 0.8
  }

  static func fillAwake(_ history: inout SynthHistory) {
    var rng = SplitMix64(seed: history.configuration.seed, stream: "physiology")
    let calendar = history.calendar
    func mark(
      _ day: Int, _ block: DayPlan.Block, _ activity: Activity, in history: inout SynthHistory
    ) {
      let a = history.minute(calendar.utcMs(day: day, localMinutes: block.start))
      let b = history.minute(calendar.utcMs(day: day, localMinutes: block.end))
      if a < b { for m in a..<b { history.activity[m] = activity.rawValue } }
    }
    for plan in history.days {
      for block in plan.deepWork { mark(plan.day, block, .deepWork, in: &history) }
      for block in plan.meetings { mark(plan.day, block, .meeting, in: &history) }
      for block in plan.commutes + plan.walks { mark(plan.day, block, .walking, in: &history) }
      if let workout = plan.workout { mark(plan.day, workout.block, .workout, in: &history) }
    }
    // The night before the first day.
    let firstWake = history.minute(calendar.utcMs(day: 0, localMinutes: history.days[0].wake))
    for m in 0..<firstWake { history.activity[m] = Activity.asleep.rawValue }

    var hrNoise = 0.0
    var hrvNoise = 0.0
    var workoutMinute = 0
    for m in 0..<history.minuteCount {
      let utc = history.t0Ms + Int64(m) * 60_000
      let day = min(history.days.count - 1, max(0, m / 1440))
      let hour = calendar.localHour(utcMs: utc)
      let circadian = sin(2 * Double.pi * (hour - 9) / 24)
      var hr = restingHR(history, day: day) + 12 + 3 * circadian
      var hrv = history.person.hrvBaseMs - 4 * circadian
      switch Activity(rawValue: history.activity[m]) ?? .rest {
      case .rest: break
      case .asleep:
        hr = restingHR(history, day: day) - 3
        hrv = history.person.hrvBaseMs + 16
      case .walking:
        hr += 28
        hrv -= 14
      case .deepWork:
        hr += 3
        hrv -= 4
      case .meeting:
        hr += 6
        hrv -= 8
      case .workout:
        let plan = history.days[day]
        let effort = plan.workout?.kind.effortBPM ?? 60
        let ramp = min(1, Double(workoutMinute) / 6)
        hr += effort * ramp
        hrv = max(12, hrv - 30 * ramp)
      }
      workoutMinute = history.activity[m] == Activity.workout.rawValue ? workoutMinute + 1 : 0
      hrNoise = 0.9 * hrNoise + rng.normal(0, 1.0)
      hrvNoise = 0.9 * hrvNoise + rng.normal(0, 2.5)
      let factor = stepped(history, day: day) ? Step.sdnnFactor : 1
      history.baseHR[m] = Float(hr + hrNoise)
      history.baseHRV[m] = Float(max(8, (hrv + hrvNoise) * factor))
    }
  }

  /// Adds a song's effect while it plays (from `startMs` for `listenMs`) and its fading tail.
  ///
  /// The effect is a first-order lag (τ = `musicLagMinutes`) driven by the song while it plays.
  /// `musicHR[m]` holds the lag's exact value at the instant minute `m` begins (what
  /// `heartRate(at:)` interpolates between): each minute's step integrates the part of it the
  /// song covered, so the body never answers before a song starts. The lag is linear, so each
  /// play adds its own response to what earlier plays left (a song that ends mid-minute still
  /// drives that minute when the next one starts in it).
  static func addMusic(
    _ history: inout SynthHistory, startMs: Int64, listenMs: Int, hrEffect: Double,
    hrvEffect: Double
  ) {
    let tauMs = musicLagMinutes * 60_000
    let decay = exp(-60_000 / tauMs)
    let endMs = startMs + Int64(listenMs)
    let first = history.minute(startMs) + 1
    let tailEnd = min(history.minuteCount - 1, history.minute(endMs) + 16)
    guard first <= tailEnd else { return }
    var response = 0.0
    for m in first...tailEnd {
      let stepEnd = history.t0Ms + Int64(m) * 60_000
      let from = max(startMs, stepEnd - 60_000)
      let to = min(endMs, stepEnd)
      // ∫ over [from, to] of e^(−(stepEnd − t)/τ)/τ dt: how far the song drove this step.
      let drive =
        to > from ? exp(-Double(stepEnd - to) / tauMs) - exp(-Double(stepEnd - from) / tauMs) : 0
      response = response * decay + drive
      history.musicHR[m] += Float(hrEffect * response)
      history.musicHRV[m] += Float(hrvEffect * response)
    }
    let drive = MusicDrive(startMs: startMs, endMs: endMs, hr: hrEffect, hrv: hrvEffect)
    let at = history.musicDrives.partitioningIndex(where: { $0.startMs > startMs })
    history.musicDrives.insert(drive, at: at)
  }

  /// Whether the evening before `bedMs` had music: at least
  /// `ReportStatistics.eveningMusicMinutes` heard in the `hours` before bed (the report's
  /// `eveningHours` by default).
  static func eveningMusic(
    _ history: SynthHistory, bedMs: Int64, hours: Double = ReportStatistics.eveningHours
  ) -> Bool {
    let from = bedMs - Int64(hours * 3_600_000)
    var minutes = 0.0
    for play in history.plays.reversed() {
      if play.startMs + Int64(play.playedMs) <= from { break }
      let overlap = min(play.startMs + Int64(play.playedMs), bedMs) - max(play.startMs, from)
      if overlap > 0 { minutes += Double(overlap) / 60_000 }
    }
    return minutes >= ReportStatistics.eveningMusicMinutes
  }

  /// The night after `day`: stages in 90-minute cycles (deep early, REM late), shares nudged
  /// by the evening's calming music, and the physiology of each stage. A cohort member (or a
  /// lone person with `--evening-asleep`) first lies awake N(40, 8) minutes (10 to 70), less
  /// the planted minutes after evening music.
  static func sleep(day: Int, into history: inout SynthHistory, rng: inout SplitMix64) {
    let plan = history.days[day]
    let calendar = history.calendar
    let bedMs = calendar.utcMs(day: day, localMinutes: plan.bed)
    // The history's last night ends at 07:00 even when an experiment's days follow, as it
    // does in a run of the history alone.
    let hasNext = day + 1 < history.days.count && day + 1 != history.configuration.historyDayCount
    let nextWake = hasNext ? history.days[day + 1].wake + 1440 : 7 * 60 + 1440
    let wakeMs = calendar.utcMs(day: day, localMinutes: nextWake)
    let a = history.minute(bedMs)
    let b = history.minute(wakeMs)
    guard a < b else { return }

    // The evening's calming music: minutes heard in the two hours before bed, weighted by how
    // much each song lowers heart rate.
    var calmMinutes = 0.0
    for play in history.plays.reversed() {
      if play.startMs < bedMs - 2 * 3_600_000 { break }
      let song = history.songs[play.song]
      calmMinutes += max(0, -song.hrEffectBPM) / 5 * Double(play.playedMs) / 60_000
    }
    let nudge = max(-0.04, min(0.06, 0.004 * calmMinutes))
    let deepShare = max(0.05, rng.normal(0.16, 0.03) + nudge)
    let remShare = max(0.08, rng.normal(0.22, 0.03))
    let awakeShare = max(0.01, rng.normal(0.05, 0.015))

    var m = a
    // A cohort member, or a lone person with `--evening-asleep`, lies awake a while before
    // falling asleep, and less after an evening with music (a member: as the report counts
    // it; a lone person: in the hour before bed, an evening-music experiment's window): the
    // planted minutes asleep gained.
    let gain: (minutes: Double, hours: Double)? =
      if let planted = history.configuration.planted {
        (planted.eveningMusicAsleepMinutes, ReportStatistics.eveningHours)
      } else if let minutes = history.configuration.eveningAsleepMinutes {
        (minutes, Double(ExperimentPlan.Evening.standardWindowMinutes) / 60)
      } else {
        nil
      }
    var gained: (music: Bool, minutes: Double)?
    if let gain {
      let latency = min(70, max(10, rng.normal(40, 8)))
      let hadMusic = eveningMusic(history, bedMs: bedMs, hours: gain.hours)
      let music = hadMusic ? gain.minutes : 0
      let awake = min(b - a - 60, Int(max(0, latency - music).rounded()))
      gained = (hadMusic, Double(Int(latency.rounded()) - awake))
      while m < a + awake {
        history.sleep[m] = SleepStage.awake.rawValue
        m += 1
      }
    }
    let total = b - m
    let cycles = max(1, Int((Double(total) / 90).rounded()))
    let cycleLength = Double(total) / Double(cycles)
    let deepWeights = (0..<cycles).map { Double(cycles - $0) }
    let remWeights = (0..<cycles).map { Double($0 + 1) }
    let deepTotal = deepShare * Double(total)
    let remTotal = remShare * Double(total)
    for k in 0..<cycles {
      let deep = deepTotal * deepWeights[k] / deepWeights.reduce(0, +)
      let rem = remTotal * remWeights[k] / remWeights.reduce(0, +)
      // The night's awake share is of the whole time in bed, so that a member's shorter wait
      // to fall asleep is all minutes asleep gained (for a lone person, total is that time).
      let awake = awakeShare * (Double(b - a) / Double(cycles))
      let core = max(0, cycleLength - deep - rem - awake)
      let segments: [(SleepStage, Double)] = [
        (.core, core * 0.5), (.deep, deep), (.core, core * 0.5), (.rem, rem), (.awake, awake),
      ]
      for (stage, length) in segments {
        let end = min(b, m + Int(length.rounded()))
        while m < end {
          history.sleep[m] = stage.rawValue
          history.activity[m] = Activity.asleep.rawValue
          m += 1
        }
      }
    }
    while m < b {
      history.sleep[m] = SleepStage.core.rawValue
      history.activity[m] = Activity.asleep.rawValue
      m += 1
    }
    let rhr = restingHR(history, day: day)
    // A day with breathing practice raises that night's SDNN (`Practice.nightSDNNMs`).
    let practice =
      history.practiceDays.contains(day) ? Practice.nightSDNNMs(history.configuration) : 0
    let factor = stepped(history, day: day) ? Step.sdnnFactor : 1
    var noise = 0.0
    for minute in a..<b {
      noise = 0.85 * noise + rng.normal(0, 0.8)
      let (hr, hrv): (Double, Double)
      switch SleepStage(rawValue: history.sleep[minute]) ?? .core {
      case .deep: (hr, hrv) = (rhr - 7, history.person.hrvBaseMs + 28)
      case .rem: (hr, hrv) = (rhr - 1, history.person.hrvBaseMs + 8)
      case .awake: (hr, hrv) = (rhr + 8, history.person.hrvBaseMs)
      default: (hr, hrv) = (rhr - 4, history.person.hrvBaseMs + 18)
      }
      history.baseHR[minute] = Float(hr + noise)
      history.baseHRV[minute] = Float(max(8, (hrv + practice + 3 * noise) * factor))
    }
    history.nights.append(
      SynthNight(
        day: day, bedMs: bedMs, wakeMs: wakeMs, deepShare: deepShare, remShare: remShare,
        listeningNudge: nudge, eveningMusic: gained?.music, asleepGainMinutes: gained?.minutes))
  }
}
