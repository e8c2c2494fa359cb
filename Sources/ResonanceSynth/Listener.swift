import ResonanceBrain
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The person listening, and the app's DJ in the loop: sessions, choices, keeps and skips, and
/// the app's learning from what the Watch measured.
struct Listener {
  var history: SynthHistory
  private var rng: SplitMix64
  private var playCount: [Int]
  private var lastPlayed: [Int64?]
  private var recentArtists: [String] = []
  private var learned: [LearnedKey: LearnedSongEffect] = [:]
  private var sessionCount = 0
  /// Draws for the DJ's and the person's choices, apart from `rng` (outcomes) and the day
  /// plans (`live(day:)`), so that another DJ changes what it chose and what followed, never
  /// the day the person lives.
  private var choiceRNG: SplitMix64

  private struct LearnedKey: Hashable {
    var song: Int
    var context: ActivityContext
  }

  init(history: SynthHistory) {
    self.history = history
    rng = SplitMix64(seed: history.configuration.seed, stream: "listening")
    choiceRNG = SplitMix64(seed: history.configuration.seed, stream: "choices")
    // Songs already in the library carry some history, as a real library does.
    var seedRNG = SplitMix64(seed: history.configuration.seed, stream: "prior-plays")
    playCount = history.songs.map { _ in Int(seedRNG.exponential(mean: 6)) }
    lastPlayed = history.songs.map { _ in nil }
  }

  /// The middle third of the period, when the person listened by hand on Spotify.
  private func usesSpotify(day: Int) -> Bool {
    let n = history.days.count
    return day >= n / 3 && day < 2 * n / 3
  }

  mutating func live(day: Int) {
    let plan = history.days[day]
    // The day's sessions come from a stream of their own, keyed by the day: the same seed
    // gives the same sessions whatever the DJ chose before.
    var planRNG = SplitMix64(seed: history.configuration.seed, stream: "sessions-\(day)")
    var sessions: [(start: Double, end: Double, context: ActivityContext)] = []
    if plan.isWorkday {
      let commute = plan.commutes
      if planRNG.chance(0.85) { sessions.append((commute[0].start, commute[0].end, .commute)) }
      if let first = plan.deepWork.first, planRNG.chance(0.7) {
        sessions.append(
          (first.start + 5, min(first.end, first.start + planRNG.uniform(60, 150)), .deepWork))
      }
      if plan.deepWork.count > 1, planRNG.chance(0.4) {
        let block = plan.deepWork[1]
        sessions.append(
          (block.start, min(block.end, block.start + planRNG.uniform(40, 100)), .deepWork))
      }
      if planRNG.chance(0.8) { sessions.append((commute[1].start, commute[1].end, .commute)) }
    } else {
      if planRNG.chance(0.35) {
        sessions.append((plan.wake + 20, plan.wake + planRNG.uniform(40, 60), .wakeUp))
      }
      let start = 14 * 60 + planRNG.uniform(0, 120)
      if planRNG.chance(0.6) { sessions.append((start, start + planRNG.uniform(30, 90), .relax)) }
      let general = 11 * 60 + planRNG.uniform(0, 90)
      if planRNG.chance(0.5) {
        sessions.append((general, general + planRNG.uniform(25, 60), .general))
      }
    }
    if let workout = plan.workout {
      sessions.append((workout.block.start, workout.block.end, .workout))
    }
    if planRNG.chance(0.3) {
      let start = 20 * 60 + planRNG.uniform(0, 45)
      sessions.append((start, start + planRNG.uniform(25, 50), .relax))
    }
    if planRNG.chance(0.4) {
      sessions.append((plan.bed - planRNG.uniform(30, 45), plan.bed - 3, .preSleep))
    }
    sessions.sort { $0.start < $1.start }
    var lastEnd = -Double.infinity
    for session in sessions where session.start > lastEnd + 5 && session.end > session.start + 5 {
      let startMs = history.calendar.utcMs(day: day, localMinutes: session.start)
      let endMs = history.calendar.utcMs(day: day, localMinutes: session.end)
      let byDJ = planRNG.chance(0.65)
      play(
        session: session.context, from: startMs, to: endMs, byDJ: byDJ,
        service: byDJ || !usesSpotify(day: day) ? .appleMusic : .spotify)
      lastEnd = session.end + 5
    }
  }

  private mutating func play(
    session context: ActivityContext, from startMs: Int64, to endMs: Int64, byDJ: Bool,
    service: SynthPlay.Service
  ) {
    let sessionID = sessionCount
    sessionCount += 1
    let playlist = LifeSimulator.playlist(for: context)
    let preferences = history.djPreferences
    var adjuster = RealTimeGuardAdjuster.start(
      heartRate: byDJ ? WatchSensor.heartRate(history, at: startMs) : nil)
    var t = startMs
    var previous: SongFeatures?
    while t < endMs - 20_000 {
      // The app keeps its state to four decimals; the log holds exactly what it scored with.
      let stress =
        (NeedRule.stress(hrvMs: WatchSensor.hrv(history, at: t)) * 10_000).rounded() / 10_000
      let hour = (history.calendar.localHour(utcMs: t) * 10_000).rounded() / 10_000
      let moment = DecisionMoment(
        need: NeedRule.need(context: context, stress: stress), context: context, nowMs: t,
        localHour: hour, stress: stress, previous: previous,
        recentArtists: recentArtists, maxPlayCount: playCount.max() ?? 0)
      let songIndices = history.playlists[playlist]
      let candidates = songIndices.map { candidate($0, context: context, need: moment.need) }
      let heartRate = byDJ ? WatchSensor.heartRate(history, at: t) : 0
      if byDJ {
        adjuster = RealTimeGuardAdjuster.beforeDecision(
          adjuster, need: moment.need, heartRate: heartRate)
      }
      // What each candidate is worth to the person, whoever chooses: the app's own components
      // under its default rules weighed by the person's hidden weights, blended with the
      // transition from the song before as the app blends its scores (the person, too, likes
      // a smooth transition), and after skips in a row reaching for the familiar as the
      // adjuster assumes; their mean is the skip model's reference.
      let tastes = SongScorer.weights(
        UserPreferences.appDefault.with(weights: history.person.preferences), adjuster: adjuster)
      let utilities = candidates.map {
        TransitionController.finalScore(
          base: SongScorer.baseScore(
            SongScorer.components(for: $0, at: moment, preferences: .appDefault),
            weights: tastes),
          next: $0.features, previous: previous)
      }
      let reference = utilities.reduce(0, +) / Double(max(1, utilities.count))

      // The app scores for the person's benefit; the person judges by their own weights.
      let chosen: Int
      var decision: SynthDecision?
      if byDJ {
        let scored = DecisionEngine.score(
          candidates, at: moment, preferences: preferences, adjuster: adjuster)
        let pick = DecisionEngine.choose(scored, uniform: choiceRNG.uniform())
        chosen = scored[pick].index
        decision = SynthDecision(
          id: history.decisions.count, session: sessionID, moment: moment,
          candidateSongs: songIndices, candidates: candidates, scored: scored, chosen: pick,
          play: history.plays.count, heartRate: heartRate, adjuster: adjuster)
      } else {
        let scored = DecisionEngine.score(
          candidates, at: moment, weights: history.person.preferences,
          policy: .softmax(temperature: 0.08))
        chosen = scored[DecisionEngine.choose(scored, uniform: choiceRNG.uniform())].index
      }
      let chosenSong = songIndices[chosen]
      let skipChance = SkipModel.chance(
        utility: utilities[chosen], reference: reference, byDJ: byDJ,
        targetSkipShare: history.person.targetSkipShare)
      let song = history.songs[chosenSong]
      let isSkipped = rng.chance(skipChance)
      var playedMs: Int
      if isSkipped {
        // About half of skips come in the first five seconds (Lamere 2014: 24% of all plays).
        playedMs =
          rng.chance(0.5)
          ? Int(rng.uniform(800, 5_000))
          : Int(Double(song.durationMs) * rng.uniform(0.04, 0.9))
      } else {
        playedMs = song.durationMs
      }
      var isComplete = !isSkipped
      let remaining = Int(endMs - t)
      if playedMs > remaining {
        // The session ends mid-song: paused and not resumed.
        playedMs = max(1_000, remaining)
        isComplete = false
      }
      var entry = SynthPlay(
        song: chosenSong, session: sessionID, context: context, startMs: t, playedMs: playedMs,
        isSkipped: isSkipped, isComplete: isComplete, byDJ: byDJ, service: service,
        pause: nil, scrub: nil, decision: decision?.id, shuffle: !byDJ && rng.chance(0.4))
      if isComplete && service == .appleMusic {
        if rng.chance(0.06) {
          entry.pause = (
            Int(Double(playedMs) * rng.uniform(0.2, 0.8)), Int(rng.uniform(30_000, 12 * 60_000))
          )
        } else if rng.chance(0.04) {
          let at = Int(Double(playedMs) * rng.uniform(0.2, 0.6))
          let jump = Int(Double(playedMs - at) * rng.uniform(0.1, 0.5))
          entry.scrub = (at, jump)
          entry.playedMs -= jump
        }
      }
      let gain = LibraryGenerator.contextGain[context] ?? 1
      Physiology.addMusic(
        &history, startMs: t, listenMs: entry.playedMs, hrEffect: song.hrEffectBPM * gain,
        hrvEffect: song.hrvEffectMs * gain)
      if byDJ {
        learn(from: entry, song: chosenSong, context: context)
        adjuster = RealTimeGuardAdjuster.afterPlay(adjuster, skipped: isSkipped)
      }

      history.plays.append(entry)
      if let decision { history.decisions.append(decision) }
      playCount[chosenSong] += 1
      lastPlayed[chosenSong] = t
      recentArtists.insert(song.artist, at: 0)
      if recentArtists.count > 5 { recentArtists.removeLast() }
      previous = song.features
      t = entry.endMs + Int64(rng.uniform(500, 3_000))
    }
    if t > startMs {
      history.sessions.append(
        SynthSession(
          id: sessionID, context: context, byDJ: byDJ, startMs: startMs, endMs: t,
          playlist: LifeSimulator.playlist(for: context)))
    }
  }

  private func candidate(_ song: Int, context: ActivityContext, need: Need) -> Candidate {
    let s = history.songs[song]
    return Candidate(
      songID: s.catalogID, artist: s.artist, features: s.features, playCount: playCount[song],
      learnedEffect: learned[LearnedKey(song: song, context: context)]?.score(for: need),
      lastPlayedAtMs: lastPlayed[song])
  }

  /// The app's learning loop after a DJ play, from what the Watch measured around it.
  private mutating func learn(from play: SynthPlay, song: Int, context: ActivityContext) {
    let s = history.songs[song]
    let end = play.startMs + Int64(play.playedMs)
    let hrStart = WatchSensor.heartRate(history, at: play.startMs)
    let hrEnd = WatchSensor.heartRate(history, at: end)
    let hasHRV = play.playedMs >= 60_000
    let hrvDelta =
      hasHRV
      ? WatchSensor.hrv(history, at: end - 60_000) - WatchSensor.hrv(history, at: play.startMs)
      : nil
    let fraction = min(1, Double(play.playedMs) / Double(s.durationMs))
    let credit = ResponseCreditCalculator.credit(
      hrvDeltaMs: hrvDelta, hrDeltaBPM: hrEnd - hrStart, listenFraction: fraction)
    let penalty = SkipPenaltyCalculator.penalty(
      listenFraction: fraction, markedSkipped: play.isSkipped, reachedEnd: play.isComplete)
    let key = LearnedKey(song: song, context: context)
    learned[key] = SongEffectUpdater.updated(
      learned[key] ?? LearnedSongEffect(), credit: credit, skipPenalty: penalty,
      listenFraction: fraction)
  }
}
