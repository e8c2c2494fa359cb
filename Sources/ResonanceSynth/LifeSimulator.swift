import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the simulated person's life: plans the days, lays down the physiology, plays the music
/// (the DJ choosing by its settings, the person keeping or skipping by their own), and
/// lets the evening's music nudge the night's sleep.
package enum LifeSimulator {
  /// Simulates an experiment's whole period, and the history before it alone (what
  /// `synth --months M` simulated before the plan was made), whose files `SynthWriter`
  /// writes before the plan's first day.
  package static func runWithHistory(
    _ configuration: SynthConfiguration, progress: (Int, Int) -> Void = { _, _ in }
  ) -> (whole: SynthHistory, alone: SynthHistory?) {
    let alone = configuration.historyAlone.map { run($0) }
    return (run(configuration, progress: progress), alone)
  }

  /// Playlist names, one per context the DJ serves.
  package static let playlistNames = [
    "Focus Flow", "Workout Mix", "Evening Chill", "Sleep", "Commute", "Morning", "Everyday",
  ]

  /// Simulates the whole period. `progress` is called with (days done, days in all).
  ///
  /// `configuration.dayProblem` must be nil (the command line checks it).
  package static func run(
    _ configuration: SynthConfiguration, progress: (Int, Int) -> Void = { _, _ in }
  )
    -> SynthHistory
  {
    precondition(configuration.dayProblem == nil, configuration.dayProblem ?? "")
    let seed = configuration.seed
    let dayCount = configuration.dayCount
    let calendar = SynthCalendar(
      firstDay: configuration.firstDay,
      trips: DayPlanner.trips(
        dayCount: dayCount, historyDays: configuration.historyDayCount, seed: seed))
    // A flat person's songs do nothing to the body, so that no song's response is better.
    let songs = LibraryGenerator.songs(
      count: configuration.songs, seed: seed,
      effectScale: configuration.person == .flat ? 0 : configuration.effectScale,
      tempoSlope: configuration.planted?.tempoHeartRatePer10BPM)
    let t0 = calendar.utcMs(day: 0, localMinutes: 0)
    let minutes = Int((calendar.utcMs(day: dayCount, localMinutes: 12 * 60) - t0) / 60_000)
    var history = SynthHistory(
      configuration: configuration, calendar: calendar,
      person: SynthPerson.make(
        seed: seed, kind: configuration.person, tasteContrast: configuration.tasteContrast),
      songs: songs,
      playlists: playlists(songs, seed: seed), djFilePreferences: configuration.djPreferences,
      djFromMs: configuration.djFromDay.map {
        calendar.utcMs(day: Int($0 - configuration.firstDay), localMinutes: 0)
      },
      t0Ms: t0,
      days: [],
      baseHR: [Float](repeating: 0, count: minutes), baseHRV: [Float](repeating: 0, count: minutes),
      musicHR: [Float](repeating: 0, count: minutes),
      musicHRV: [Float](repeating: 0, count: minutes),
      activity: [UInt8](repeating: 0, count: minutes), sleep: [UInt8](repeating: 0, count: minutes))

    if let plan = configuration.experiment {
      let arms = Dictionary(
        plan.arms.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a }
      )
      for (date, name) in plan.assignment {
        guard let day = CalendarDay(date), let arm = arms[name] else { continue }
        history.armByDay[day.daysSinceEpoch] = arm
      }
    }

    var planRNG = SplitMix64(seed: seed, stream: "days")
    history.days = (0..<dayCount).map {
      DayPlanner.plan(day: $0, calendar: calendar, rng: &planRNG)
    }
    Physiology.fillAwake(&history)

    var listener = Listener(history: history)
    var extrasRNG = SplitMix64(seed: seed, stream: "extras")
    var sleepRNG = SplitMix64(seed: seed, stream: "sleep")
    for day in 0..<dayCount {
      listener.live(day: day)
      Extras.moods(day: day, into: &listener.history, rng: &extrasRNG)
      Extras.breathing(day: day, into: &listener.history, rng: &extrasRNG)
      Physiology.sleep(day: day, into: &listener.history, rng: &sleepRNG)
      progress(day + 1, dayCount)
    }
    return listener.history
  }

  /// Seven playlists, each drawn toward its context's energy.
  static func playlists(_ songs: [SynthSong], seed: UInt64) -> [[Int]] {
    var rng = SplitMix64(seed: seed, stream: "playlists")
    let contexts: [ActivityContext] = [
      .deepWork, .workout, .relax, .preSleep, .commute, .wakeUp, .general,
    ]
    return contexts.map { context in
      let target = SongScorer.contextProfile(context).energy
      var chosen: [Int] = []
      let size = min(songs.count, max(20, songs.count / 8) + rng.int(0...10))
      let weights = songs.map { exp(-abs($0.features.energy - target) * 5) }
      var available = weights
      while chosen.count < size {
        let i = rng.weightedIndex(available)
        if available[i] > 0 {
          chosen.append(i)
          available[i] = 0
        }
      }
      return chosen
    }
  }

  /// The playlist the DJ uses in a context.
  static func playlist(for context: ActivityContext) -> Int {
    switch context {
    case .deepWork: 0
    case .workout: 1
    case .relax: 2
    case .preSleep: 3
    case .commute: 4
    case .wakeUp: 5
    case .general: 6
    }
  }
}
