import ResonanceModel

extension SongResponseModel {
  /// The fewest plays in a context for a song's effect there to be reported.
  package static let minimumContextPlays = 3

  /// Each song's effect in each context it was played in, from the same model.
  ///
  /// The model is fitted again with one column per song and context (the song's plays in that
  /// context's sessions) under the lag and noise model the overall fit chose, so the contexts'
  /// contrasts Yₛ꜀, with their variances vₛ꜀, are on the overall fit's scale (against the
  /// person's average minute of music). Each is then pulled toward the song's overall estimate
  /// θ̂ₛ (standard deviation sₛ): with τ² the spread of the contexts around their song beyond
  /// the noise (method of moments, mean of (Yₛ꜀ − θ̂ₛ)² − vₛ꜀ − sₛ² over the pairs, at least
  /// 0), the prior of a pair's effect is normal around θ̂ₛ with variance τ² + sₛ², and its
  /// posterior has mean θ̂ₛ + W·(Yₛ꜀ − θ̂ₛ) and variance W·vₛ꜀, W = (τ² + sₛ²)/(τ² + sₛ² + vₛ꜀);
  /// the 90% interval is the robust one (`RobustEBCI`), cva(vₛ꜀/(τ² + sₛ²))·W·√vₛ꜀ either
  /// side, as the songs' own intervals are. When the contexts differ no more than their noise
  /// (τ² = 0), every context's estimate stays near the song's own, which is the honest answer.
  ///
  /// Only pairs with at least `minimumContextPlays` plays whose song has an overall estimate
  /// are returned; nil when the refit fails (too little data).
  package static func contextEffects(
    _ overall: SongResponseFit, sessions: [Session], samples: [SignalReading],
    mac: [MacContextSnapshot], genres: [Int64: String], asleep: [TimeSpan] = []
  ) -> [SongContextEffectEstimate]? {
    let contexts = ActivityContext.allCases
    let width = Int64(contexts.count)
    func key(_ song: Int64, _ context: ActivityContext) -> Int64 {
      song * width + Int64(contexts.firstIndex(of: context) ?? 0)
    }
    let paired = sessions.map { session in
      Session(
        context: session.context,
        plays: session.plays.map {
          var play = $0
          play.songID = key($0.songID, session.context)
          return play
        })
    }
    var pairGenres: [Int64: String] = [:]
    for session in paired {
      for play in session.plays {
        pairGenres[play.songID] = genres[play.songID / width]
      }
    }
    var configuration = Configuration()
    configuration.lagCandidates = [overall.lagMinutes]
    configuration.persistenceCandidates = [overall.noise.persistence]
    configuration.readingNoiseCandidates = [overall.noise.readingNoise]
    guard
      let fit = SongResponseModel.fit(
        overall.signal, sessions: paired, samples: samples, mac: mac, genres: pairGenres,
        asleep: asleep, configuration: configuration)
    else { return nil }
    let songs = Dictionary(
      overall.estimates.map { ($0.songID, $0) }, uniquingKeysWith: { a, _ in a })
    let pairs = fit.estimates.compactMap {
      pair -> (SongEffectEstimate, SongEffectEstimate, ActivityContext, Double)? in
      guard pair.plays >= minimumContextPlays, let song = songs[pair.songID / width],
        let sd = pair.unpooledSD, sd > 0
      else { return nil }
      return (pair, song, contexts[Int(pair.songID % width)], sd * sd)
    }
    guard !pairs.isEmpty else { return [] }
    let excess = pairs.reduce(0.0) { total, p in
      let d = p.0.unpooled - p.1.estimate
      return total + d * d - p.3 - p.1.sd * p.1.sd
    }
    let tau2 = max(0, excess / Double(pairs.count))
    return pairs.map { pair, song, context, v in
      let prior = tau2 + song.sd * song.sd
      let w = prior / (prior + v)
      let estimate = song.estimate + w * (pair.unpooled - song.estimate)
      let sd = (w * v).squareRoot()
      // The robust interval, as the songs' own: whatever the shape of the contexts' spread.
      let half =
        prior > 0
        ? RobustEBCI.criticalValue(t: v / prior) * w * v.squareRoot() : z90 * sd
      return SongContextEffectEstimate(
        songID: song.songID, signal: overall.signal, context: context, plays: pair.plays,
        minutes: pair.minutes, unpooled: pair.unpooled, overall: song.estimate,
        estimate: estimate, sd: sd, low90: estimate - half, high90: estimate + half)
    }.sorted { ($0.songID, $0.context.rawValue) < ($1.songID, $1.context.rawValue) }
  }
}
