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
  /// Each song's appeal beyond the seven components, and the weight of its recent plays
  /// (`PersonTaste`).
  private let hiddenAppeal: [Double]
  private var satiation: SatiationLoad
  /// The library's songs of each calm arm's list, by arm name (`evening-music`).
  private let calmSongs: [String: [Int]]

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
    let person = history.person
    hiddenAppeal = PersonTaste.hiddenAppeal(
      history.songs, seed: history.configuration.seed, traits: person.traits)
    satiation = SatiationLoad(songs: history.songs.count, days: person.traits.satiationDays)
    calmSongs = Self.calmSongs(history)
  }

  /// Each calm arm's songs found in the library, by catalog ID, else by title and artist;
  /// an arm none of whose songs is found plays the pre-sleep playlist.
  private static func calmSongs(_ history: SynthHistory) -> [String: [Int]] {
    guard let plan = history.configuration.experiment else { return [:] }
    var byCatalog: [String: Int] = [:]
    var byName: [String: Int] = [:]
    for (i, song) in history.songs.enumerated() {
      byCatalog[song.catalogID] = i
      byName[song.title + "\u{1F}" + song.artist] = i
    }
    var result: [String: [Int]] = [:]
    for arm in plan.arms where arm.evening == .calm {
      let found = (arm.songs ?? []).compactMap { song in
        song.catalogID.flatMap { byCatalog[$0] } ?? byName[song.title + "\u{1F}" + song.artist]
      }
      if !found.isEmpty { result[arm.name] = found }
    }
    return result
  }

  /// The middle third of the history (the days before an experiment), when the person
  /// listened by hand on Spotify.
  private func usesSpotify(day: Int) -> Bool {
    let n = history.configuration.historyDayCount
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
    // An evening-music experiment's evening: from the hour before the predicted bedtime on,
    // the DJ plays the calm arm's songs, or nothing (`docs/experiments.md`, "Evening music").
    let evening = history.eveningArm(day: day)
    let windowStart =
      evening.map { _ in
        history.predictedBedtime(day: day)
          - Double(ExperimentPlan.Evening.standardWindowMinutes)
      } ?? .infinity
    var eveningRNG = SplitMix64(seed: history.configuration.seed, stream: "evening-\(day)")
    if evening?.evening == .calm {
      sessions = sessions.compactMap { session in
        var session = session
        session.end = min(session.end, windowStart - 11)
        return session.end > session.start + 5 ? session : nil
      }
      sessions.append((windowStart, plan.bed - 3, .preSleep))
    }
    sessions.sort { $0.start < $1.start }
    var lastEnd = -Double.infinity
    for session in sessions where session.start > lastEnd + 5 && session.end > session.start + 5 {
      var end = session.end
      var byDJ = planRNG.chance(0.65)
      var songs: [Int]?
      switch evening?.evening {
      case .calm? where session.start == windowStart:
        // The calm session is the DJ's, from the arm's list.
        byDJ = true
        songs = calmSongs[evening!.name]
      case .noMusic? where end > windowStart:
        // The DJ stops at the window; the person may play on by hand, which breaks the arm:
        // always in a session they chose by hand, and in three of ten of the DJ's.
        if byDJ && eveningRNG.chance(Self.handPlayChance) {
          byDJ = false
        } else if byDJ {
          end = windowStart
        }
      default:
        break
      }
      guard end > session.start + 5 else { continue }
      let startMs = history.calendar.utcMs(day: day, localMinutes: session.start)
      let endMs = history.calendar.utcMs(day: day, localMinutes: end)
      play(
        session: session.context, from: startMs, to: endMs, byDJ: byDJ,
        service: byDJ || !usesSpotify(day: day) ? .appleMusic : .spotify, songs: songs)
      lastEnd = end + 5
    }
  }

  /// On a no-music evening, the chance that the person plays by hand a session the DJ would
  /// have played in the window.
  static let handPlayChance = 0.3

  private mutating func play(
    session context: ActivityContext, from startMs: Int64, to endMs: Int64, byDJ: Bool,
    service: SynthPlay.Service, songs: [Int]? = nil
  ) {
    let sessionID = sessionCount
    sessionCount += 1
    let playlist = LifeSimulator.playlist(for: context)
    let songIndices = songs ?? history.playlists[playlist]
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
      let candidates = songIndices.map { candidate($0, context: context, need: moment.need) }
      let heartRate = byDJ ? WatchSensor.heartRate(history, at: t) : 0
      if byDJ {
        adjuster = RealTimeGuardAdjuster.beforeDecision(
          adjuster, need: moment.need, heartRate: heartRate)
      }
      // What each candidate is worth to the person, whoever chooses (`utility`); their mean
      // is the skip model's reference.
      let tastes = tastes(at: moment, adjuster: adjuster)
      let utilities = songIndices.indices.map {
        utility(songIndices[$0], candidates[$0], at: moment, tastes: tastes)
      }
      let reference = utilities.reduce(0, +) / Double(max(1, utilities.count))
      let isFlat = history.person.traits.isFlat
      func skipChance(_ index: Int) -> Double {
        isFlat
          ? SkipModel.flatChance(byDJ: byDJ, targetSkipShare: history.person.targetSkipShare)
          : SkipModel.chance(
            utility: utilities[index], reference: reference, byDJ: byDJ,
            targetSkipShare: history.person.targetSkipShare)
      }

      // The app scores for the person's benefit; the person judges by their own appeal.
      let chosen: Int
      var decision: SynthDecision?
      if byDJ {
        // The settings in force at the decision: a session across the switch's midnight
        // changes settings mid-session, as the decision log's files do.
        let scored = DecisionEngine.score(
          candidates, at: moment, preferences: history.djPreferences(atMs: t), adjuster: adjuster)
        let pick = DecisionEngine.choose(scored, uniform: choiceRNG.uniform())
        chosen = scored[pick].index
        let need = moment.need
        let gain = LibraryGenerator.contextGain[context] ?? 1
        let truth = scored.map { s -> CandidateTruth in
          let song = history.songs[songIndices[s.index]]
          let usesHRV = need == .calm || need == .focus
          return OutcomeExpectation.truth(
            skip: skipChance(s.index), durationMs: song.durationMs, remainingMs: endMs - t,
            effect: usesHRV
              ? gain * song.hrvEffectMs : gain * song.hrEffectBPM + song.tempoEffectBPM,
            usesHRV: usesHRV,
            isFlat: isFlat)
        }
        decision = SynthDecision(
          id: history.decisions.count, session: sessionID, moment: moment,
          candidateSongs: songIndices, candidates: candidates, scored: scored, chosen: pick,
          play: history.plays.count, heartRate: heartRate, adjuster: adjuster, truth: truth)
      } else {
        // By hand the person picks by appeal, softmax at temperature 0.08.
        let top = utilities.max() ?? 0
        let weights = utilities.map { exp(($0 - top) / 0.08) }
        var u = choiceRNG.uniform() * weights.reduce(0, +)
        var pick = weights.count - 1
        for (i, w) in weights.enumerated() {
          u -= w
          if u < 0 {
            pick = i
            break
          }
        }
        chosen = pick
      }
      let chosenSong = songIndices[chosen]
      let song = history.songs[chosenSong]
      let isSkipped = rng.chance(skipChance(chosen))
      var playedMs: Int
      if isSkipped {
        // About half of skips come in the first five seconds (Lamere 2014: 24% of all plays);
        // a flat person's are shares of the song, so that no song is skipped sooner.
        let early = OutcomeExpectation.earlySkipMs
        let flatEarly = OutcomeExpectation.flatEarlySkipShare
        let late = OutcomeExpectation.lateSkipShare
        let duration = Double(song.durationMs)
        playedMs =
          rng.chance(0.5)
          ? Int(
            isFlat
              ? duration * rng.uniform(flatEarly.0, flatEarly.1) : rng.uniform(early.0, early.1))
          : Int(duration * rng.uniform(late.0, late.1))
      } else {
        playedMs = song.durationMs
      }
      var isComplete = !isSkipped
      let remaining = Int(endMs - t)
      if playedMs > remaining && !isFlat {
        // The session ends mid-song: paused and not resumed (a flat person's session runs to
        // the song's end, so that a long song is not heard less).
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
        &history, startMs: t, listenMs: entry.playedMs,
        hrEffect: song.hrEffectBPM * gain + song.tempoEffectBPM,
        hrvEffect: song.hrvEffectMs * gain)
      if byDJ {
        learn(from: entry, song: chosenSong, context: context)
        adjuster = RealTimeGuardAdjuster.afterPlay(adjuster, skipped: isSkipped)
      }

      history.plays.append(entry)
      if let decision { history.decisions.append(decision) }
      playCount[chosenSong] += 1
      lastPlayed[chosenSong] = t
      satiation.played(chosenSong, at: t)
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

  /// The person's weights at `moment`: the day's (`PersonTaste.weights`), with the
  /// familiarity weight raised after skips in a row as the app's real-time adjuster raises
  /// its own (the person, too, reaches for the familiar then).
  private func tastes(at moment: DecisionMoment, adjuster: AdjusterState) -> ScoringWeights {
    let days = Double(moment.nowMs - history.t0Ms) / 86_400_000
    return SongScorer.weights(
      UserPreferences.appDefault.with(weights: PersonTaste.weights(history.person, daysIn: days)),
      adjuster: adjuster)
  }

  /// What `song` is worth to the person at `moment` (`docs/synth.md`, "Keeps and skips"):
  /// the app's seven components under its default rules, weighed by `tastes`, blended with
  /// the transition from the song before as the app blends its scores, plus the song's hidden
  /// appeal, less what its recent plays have worn off.
  private func utility(
    _ song: Int, _ candidate: Candidate, at moment: DecisionMoment, tastes: ScoringWeights
  ) -> Double {
    let person = history.person
    let components = SongScorer.components(for: candidate, at: moment, preferences: .appDefault)
    let judged = TransitionController.finalScore(
      base: SongScorer.baseScore(components, weights: tastes), next: candidate.features,
      previous: moment.previous)
    let worn =
      person.traits.satiation > 0
      ? person.traits.satiation * (1 - exp(-satiation.value(song, at: moment.nowMs))) : 0
    return judged + hiddenAppeal[song] - worn
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
