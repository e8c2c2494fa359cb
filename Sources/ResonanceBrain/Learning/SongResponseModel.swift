import ResonanceLinear
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Beyond the seed: what each song does to heart rate (or HRV) while it plays, estimated from
/// every sample in every listening session at once, with a 90% interval — so a report can tell
/// a real effect from noise.
///
/// The seed's per-play delta (the song against the ten minutes before it) mixes the song with
/// the songs before it, with whatever the person started doing, and with the slow drift of the
/// heart; on twelve simulated months it ranks songs' planted effects at Spearman 0.3. This model
/// separates them (docs/brain.md gives the derivation, docs/validation.md the recovery):
///
/// - **Samples** in each non-workout session (and `paddingMinutes` either side) are averaged
///   per minute; a minute counts when music is playing in it (summed exposure ≥
///   `minimumExposure`) and the person is not asleep. Workout sessions are left out: exercise
///   swamps the music, as sleep does.
/// - **Exposure**: a song drives the body through a first-order lag τ while it plays (τ chosen
///   from `lagCandidates` by the fit): its exposure at time t is 1 − e^(−(t − start)/τ) during
///   the play and decays as e^(−(t − end)/τ) after it; a minute's row holds every song's
///   exposure averaged over the minute's readings.
/// - **Nuisance**: one level per 30-minute block of a session (circadian drift, posture, the
///   day), plus the share of samples taken while moving (Watch motion flags), a meeting and a
///   work Focus on the Mac (the last snapshot within 10 minutes).
/// - **Effects**: one column per song (and one per genre, so rare songs still count toward
///   theirs). Blocks absorb the overall level (music is always playing in a measured minute),
///   so effects are **relative**: each song against the person's average minute of music (the
///   exposure-weighted mean song).
/// - **Noise**: within a block, a slowly wandering state that keeps φ of itself per minute plus
///   reading noise (`NoiseModel`), the pair chosen by restricted likelihood. Each block is
///   whitened by its correlation's Cholesky factor, so the fit judges a song by how the
///   readings move once it plays, not by where they stood when it was chosen.
/// - **Fit**: the block levels are projected out exactly; the normal equations are accumulated
///   block by block and solved by Cholesky (LAPACK) with almost flat priors, giving each
///   song's contrast Yⱼ and its variance. The noise variance σ² comes from the residuals,
///   scaled by a design effect κ ≥ 1 — the median ratio of session-clustered (sandwich) to
///   model variances of the song contrasts — for what the noise model misses; a song whose own
///   ratio exceeds κ keeps its larger variance.
/// - **The DJ's choices**: where a play carries the reading a DJ chose it on (`Play.chosenOn`),
///   a second fit adds that reading's deviation from the first fit's prediction (a control
///   function), so a song is not blamed for the state that chose it.
/// - **Shrinkage and intervals**: each Yⱼ is pulled toward its genre's mean by the spread the
///   songs show beyond their noise (μ₂, method of moments), and the 90% interval is the robust
///   empirical Bayes interval (`RobustEBCI`): it covers on average over the songs whatever the
///   shape of the effects' distribution — most songs doing little and a few a lot.
package enum SongResponseModel {
  package struct Configuration: Sendable, Equatable {
    /// The lags τ tried for how a song moves the signal; the one whose fit leaves the least
    /// residual variance is used (a person's response time is not known in advance).
    package var lagCandidates: [Double] = [1, 1.5, 2, 2.5, 3, 4]
    /// The lag that decides which minutes are measured, the same for every candidate so their
    /// fits compare on the same minutes.
    package var selectionLagMinutes = 1.5
    /// Length of the blocks that get their own level.
    package var blockMinutes = 30
    /// Minutes measured before a session's first play and after its last.
    package var paddingMinutes = 10
    /// A minute is measured when the songs' summed exposure reaches this.
    package var minimumExposure = 0.5
    /// A song gets its own column once its summed exposure reaches this many minutes; rarer
    /// songs still enter their genre's mean.
    package var minimumSongMinutes = 3.0
    /// The noise models tried (`NoiseModel`): every pair of a persistence per minute and a
    /// reading-noise ratio; the one with the highest restricted likelihood is used.
    package var persistenceCandidates: [Double] = [0, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95]
    package var readingNoiseCandidates: [Double] = [0, 0.1, 0.3, 1, 3]
    /// How old the last Mac snapshot may be to describe a minute.
    package var macReachMinutes = 10

    package init() {}
  }

  /// One play: its song and the span the person heard it (start to start + played).
  package struct Play: Sendable, Equatable {
    package var songID: Int64
    package var startMs: Int64
    package var heardEndMs: Int64
    /// The reading a DJ chose this song on, at its start, in the signal's units (the decision
    /// log's stress gives the HRV it saw); nil when no decision log says.
    package var chosenOn: Double?

    package init(songID: Int64, startMs: Int64, heardEndMs: Int64, chosenOn: Double? = nil) {
      self.songID = songID
      self.startMs = startMs
      self.heardEndMs = heardEndMs
      self.chosenOn = chosenOn
    }
  }

  /// A listening session: its context and its plays in start order.
  package struct Session: Sendable, Equatable {
    package var context: ActivityContext
    package var plays: [Play]

    package init(context: ActivityContext, plays: [Play]) {
      self.context = context
      self.plays = plays
    }
  }

  /// The nuisance columns after the songs': moving, meeting, work Focus, the deviation a DJ
  /// chose the current song on (`Row.chosenDeviation`), and whether it is unknown.
  static let covariateCount = 5

  /// The z value of a two-sided 90% normal interval.
  package static let z90 = 1.6448536269514722

  /// Fits the model. `samples` and `mac` in time order; `genres` by song id (a song without
  /// one pools with the other genreless songs). Nil when there is too little to fit: fewer
  /// than two songs with their own column, or no residual degrees of freedom.
  package static func fit(
    _ signal: Signal, sessions: [Session], samples: [SignalReading], mac: [MacContextSnapshot],
    genres: [Int64: String], asleep: [TimeSpan] = [], configuration: Configuration = .init()
  ) -> SongResponseFit? {
    let asleep = mergedSpans(asleep)
    // The lag: the candidate whose almost unpenalised fit leaves the least residual variance.
    var best: Prepared?
    for lag in configuration.lagCandidates {
      guard
        let candidate = prepare(
          sessions: sessions, samples: samples, mac: mac, genres: genres, asleep: asleep,
          lagMinutes: lag, configuration: configuration), candidate.isFitted
      else { continue }
      if best == nil || candidate.sigma2 < best!.sigma2 { best = candidate }
    }
    guard let best else { return nil }
    let controlled = controlled(best, genres: genres) ?? best
    guard let chosen = withNoiseModel(controlled) else { return nil }
    let (minutes, design, songMinutes, modelled) = (
      chosen.minutes, chosen.design, chosen.songMinutes, chosen.modelled
    )
    let (g, k, p, sigma2) = (chosen.g, chosen.modelled.count, chosen.design.p, chosen.sigma2)
    let songColumn = chosen.songColumn
    let n = minutes.rows.count
    let weak = precision(g: g, k: k, songVariance: 100, genreVariance: 100)
    guard let base = try? Posterior(design, precision: weak, noiseVariance: sigma2) else {
      return nil
    }
    let ratios = sandwichRatios(design, base, sigma2: sigma2)
    let kappa = max(1, Statistics.median(Array(ratios.values)) ?? 1)
    let noise = sigma2 * kappa

    guard let unpooled = try? Posterior(design, precision: weak, noiseVariance: noise) else {
      return nil
    }
    let covariance = unpooled.factor.inverse()

    // Each song against the exposure-weighted mean song: c = Lⱼ − v, v = Σ wⱼ·Lⱼ.
    let total = modelled.reduce(0.0) { $0 + songMinutes[$1]! }
    var v = [Double](repeating: 0, count: p)
    for song in modelled {
      let w = songMinutes[song]! / total
      v[design.genreOf(song)] += w
      v[songColumn[song]!] += w
    }
    let level = dot(v, unpooled.mean)
    let sigmaV = (0..<p).map { i in (0..<p).reduce(0.0) { $0 + covariance[i, $1] * v[$1] } }
    let vSigmaV = dot(v, sigmaV)
    let observed = modelled.map { song -> (y: Double, variance: Double) in
      let gc = design.genreOf(song)
      let sc = songColumn[song]!
      let variance =
        covariance[gc, gc] + covariance[sc, sc] + 2 * covariance[gc, sc]
        - 2 * (sigmaV[gc] + sigmaV[sc]) + vSigmaV
      // A song whose minutes are more correlated within sessions than most gets the extra
      // width its own sandwich variance calls for.
      let inflation = max(1, (ratios[song] ?? kappa) / kappa)
      return (unpooled.mean[gc] + unpooled.mean[sc] - level, max(variance, 0) * inflation)
    }

    // Shrinkage toward the genre's mean by the spread the songs show beyond their noise
    // (method of moments), with robust intervals. μ₂ is kept above Armstrong, Kolesár and
    // Plagborg-Møller's finite-sample floor 2·Σσⱼ⁴/(k·Σσⱼ²): when the songs' spread is all
    // noise, the moment estimate reaches zero and every interval would shrink onto its genre's
    // mean with nothing left of its width.
    let genreOfSong = modelled.map { genres[$0] ?? "" }
    let variances = observed.map(\.variance)
    let floor = max(
      2 * variances.reduce(0) { $0 + $1 * $1 } / (Double(k) * variances.reduce(0, +)), 1e-12)
    var mu2 = max(variances.reduce(0, +) / Double(k), floor)
    var genreMeans: [String: Double] = [:]
    var genreVariances: [String: Double] = [:]
    for _ in 0..<20 {
      var sums: [String: (Double, Double)] = [:]
      for (o, genre) in zip(observed, genreOfSong) {
        let weight = 1 / (o.variance + mu2)
        sums[genre, default: (0, 0)].0 += weight * o.y
        sums[genre, default: (0, 0)].1 += weight
      }
      genreMeans = sums.mapValues { $0.0 / $0.1 }
      genreVariances = sums.mapValues { 1 / $0.1 }
      let excess = zip(observed, genreOfSong).reduce(0.0) {
        let d = $1.0.y - genreMeans[$1.1]!
        return $0 + d * d - $1.0.variance
      }
      let next = max(excess / Double(max(1, k - genreMeans.count)), floor)
      if abs(next - mu2) <= 1e-9 * max(mu2, 1) { break }
      mu2 = next
    }

    var playCounts: [Int64: Int] = [:]
    for (song, count) in minutes.playsBySong { playCounts[song] = count }
    let responses = zip(modelled, zip(observed, genreOfSong)).map {
      song, pair -> SongEffectEstimate in
      let (o, genre) = pair
      let mean = genreMeans[genre]!
      let sigma = o.variance.squareRoot()
      let w = mu2 / (mu2 + o.variance)
      let estimate = mean + w * (o.y - mean)
      // The robust half-width for a known genre mean, widened by the genre mean's own
      // uncertainty, which the estimate carries with weight 1 − w.
      let robust = RobustEBCI.criticalValue(t: o.variance / mu2) * w * sigma
      let genrePart = z90 * (1 - w) * genreVariances[genre]!.squareRoot()
      let half = (robust * robust + genrePart * genrePart).squareRoot()
      return SongEffectEstimate(
        songID: song, signal: signal, plays: playCounts[song] ?? 0, minutes: songMinutes[song]!,
        unpooled: o.y, genreMean: mean, estimate: estimate, sd: w.squareRoot() * sigma,
        low90: estimate - half, high90: estimate + half)
    }
    // In genre order: summed in the dictionary's order, the last bit changed from run to run.
    let means = genreMeans.keys.sorted().map { genreMeans[$0]! }
    let grand = means.reduce(0, +) / Double(means.count)
    let genreSpread =
      means.count > 1
      ? (means.reduce(0) { $0 + ($1 - grand) * ($1 - grand) } / Double(means.count - 1))
        .squareRoot() : 0
    return SongResponseFit(
      signal: signal, estimates: responses, lagMinutes: chosen.lagMinutes, minutes: n,
      blocks: minutes.blockCount,
      sessions: minutes.sessionCount, noise: design.noise, noiseSD: sigma2.squareRoot(),
      designEffect: kappa,
      songSD: mu2.squareRoot(), genreSD: genreSpread,
      moving: unpooled.mean[g + k], meeting: unpooled.mean[g + k + 1],
      workFocus: unpooled.mean[g + k + 2])
  }

  /// A song's exposure at `t`: the lag's response to the play that ran from `start` to `end`.
  package static func exposure(atMs t: Double, startMs: Int64, endMs: Int64, lagMs: Double)
    -> Double
  {
    let start = Double(startMs)
    let end = Double(max(endMs, startMs))
    if t < start { return 0 }
    if t <= end { return 1 - exp(-(t - start) / lagMs) }
    return (1 - exp(-(end - start) / lagMs)) * exp(-(t - end) / lagMs)
  }

  // MARK: - Measured minutes

  struct Entry {
    var song: Int64
    var exposure: Double
  }

  /// One measured minute: its block, session, mean value, covariates and its songs' entries
  /// (`entries[firstEntry..<endEntry]`).
  struct Row {
    var block: Int
    var session: Int
    var y: Double
    var moving: Double
    var meeting: Double
    var workFocus: Double
    var firstEntry: Int
    var endEntry: Int
    /// The stretch of listening it belongs to: sessions less than an hour apart share one, as
    /// their noise does (the clusters of the sandwich variance).
    var cluster: Int
    /// The minute's mean reading time; the song playing then: its start and the reading a DJ
    /// chose it on.
    var timeMs: Int64
    var songStartMs: Int64?
    var chosenOn: Double?
    /// How many readings `y` averages (the reading noise's share shrinks with them).
    var readings = 1
    /// How far that reading was from what the first fit predicts at the song's start: the part
    /// of the state the choice followed that music and context do not explain (nil before the
    /// second fit, or when unknown).
    var chosenDeviation: Double? = nil
  }

  struct Minutes {
    var rows: [Row] = []
    var entries: [Entry] = []
    var blockCount = 0
    var sessionCount = 0
    var clusterCount = 0
    var playsBySong: [Int64: Int] = [:]
  }

  /// One candidate lag's design and almost unpenalised fit.
  struct Prepared {
    var lagMinutes: Double
    var minutes: Minutes
    private(set) var design: Design
    var songMinutes: [Int64: Double]
    var modelled: [Int64]
    var songColumn: [Int64: Int]
    var g: Int
    var configuration: Configuration
    /// Residual variance per measured minute of the almost unpenalised fit (after whitening),
    /// and the restricted log-likelihood of its noise model; NaN and −∞ when it does not fit
    /// (`isFitted`).
    private(set) var sigma2: Double = .nan
    private(set) var logLikelihood: Double = -.infinity

    init(
      lagMinutes: Double, minutes: Minutes, design: Design, songMinutes: [Int64: Double],
      modelled: [Int64], songColumn: [Int64: Int], g: Int, configuration: Configuration
    ) {
      self.lagMinutes = lagMinutes
      self.minutes = minutes
      self.design = design
      self.songMinutes = songMinutes
      self.modelled = modelled
      self.songColumn = songColumn
      self.g = g
      self.configuration = configuration
      fitLoosely()
    }

    var isFitted: Bool { sigma2 > 0 && sigma2.isFinite }

    /// The same design and fit under another noise model.
    func with(noise: NoiseModel) -> Prepared {
      var copy = self
      copy.design = design.with(noise: noise)
      copy.fitLoosely()
      return copy
    }

    /// σ² from the residuals of the almost unpenalised fit, and the restricted (REML)
    /// log-likelihood: −½(n − q)·log(RSS/(n − q)) − ½·Σ log|R| − ½·Σ log(wᵀw) − ½·log|A|, with
    /// q the block levels and columns — so noise models compare without the block levels'
    /// downward pull on the persistence that a plain likelihood would have.
    private mutating func fitLoosely() {
      sigma2 = .nan
      logLikelihood = -.infinity
      let freedom = minutes.rows.count - minutes.blockCount - design.p
      guard freedom > 0 else { return }
      let weak = precision(g: g, k: modelled.count, songVariance: 100, genreVariance: 100)
      guard let loose = try? Posterior(design, precision: weak, noiseVariance: 1) else { return }
      let rss = max(
        design.yy - 2 * dot(loose.mean, design.b) + quadratic(design.a, loose.mean), 0)
      let variance = rss / Double(freedom)
      guard variance > 0, variance.isFinite else { return }
      sigma2 = variance
      logLikelihood =
        -0.5 * Double(freedom) * log(variance) - 0.5 * design.logDeterminant - 0.5
        * loose.factor.logDeterminant
    }
  }

  static func prepare(
    sessions: [Session], samples: [SignalReading], mac: [MacContextSnapshot],
    genres: [Int64: String],
    asleep: [TimeSpan], lagMinutes: Double, configuration: Configuration
  ) -> Prepared? {
    let minutes = measuredMinutes(
      sessions: sessions, samples: samples, mac: mac, asleep: asleep,
      lagMs: lagMinutes * 60_000, configuration: configuration)
    return prepare(minutes, genres: genres, lagMinutes: lagMinutes, configuration: configuration)
  }

  /// The second fit, where a DJ chose the songs. A DJ picks calming songs when HRV is low, and
  /// a low HRV lingers for minutes, so the song would be blamed for the state that chose it.
  /// Each minute gets the deviation of the reading its song was chosen on from what the first
  /// fit predicts at the song's start (a control function); nil when no play says.
  static func controlled(_ first: Prepared, genres: [Int64: String]) -> Prepared? {
    guard first.minutes.rows.contains(where: { $0.chosenOn != nil }) else { return nil }
    let weak = precision(
      g: first.g, k: first.modelled.count, songVariance: 100, genreVariance: 100)
    guard let fit = try? Posterior(first.design, precision: weak, noiseVariance: first.sigma2)
    else { return nil }
    // The first fit's prediction for each minute: its reading less its residual.
    var predicted = [Double](repeating: 0, count: first.minutes.rows.count)
    first.design.forEachBlock { block, white in
      for (r, index) in block.rows.enumerated() {
        var fitted = 0.0
        for (x, c) in block.columns.enumerated() { fitted += white[r, x] * fit.mean[c] }
        predicted[index] = first.minutes.rows[index].y - (white.y[r] - fitted)
      }
    }
    var minutes = first.minutes
    var sessionStart = 0
    var j = 0
    for i in minutes.rows.indices {
      if minutes.rows[i].session != minutes.rows[sessionStart].session {
        sessionStart = i
        j = i
      }
      guard let start = minutes.rows[i].songStartMs, let reading = minutes.rows[i].chosenOn
      else { continue }
      // The measured minute of this session nearest the song's start, within a minute.
      j = max(j, sessionStart)
      while j + 1 <= i, minutes.rows[j + 1].timeMs <= start { j += 1 }
      var best: Int?
      for candidate in [j, j + 1] where candidate <= i && candidate >= sessionStart {
        let gap = abs(minutes.rows[candidate].timeMs - start)
        if gap <= 60_000, best.map({ gap < abs(minutes.rows[$0].timeMs - start) }) ?? true {
          best = candidate
        }
      }
      if let best { minutes.rows[i].chosenDeviation = reading - predicted[best] }
    }
    return prepare(
      minutes, genres: genres, lagMinutes: first.lagMinutes, configuration: first.configuration)
  }

  static func prepare(
    _ minutes: Minutes, genres: [Int64: String], lagMinutes: Double,
    configuration: Configuration
  ) -> Prepared? {
    guard !minutes.rows.isEmpty else { return nil }
    // Columns: genres, then songs with enough exposure, then the three nuisance covariates.
    var songMinutes: [Int64: Double] = [:]
    for entry in minutes.entries { songMinutes[entry.song, default: 0] += entry.exposure }
    let modelled = songMinutes.filter { $0.value >= configuration.minimumSongMinutes }.keys.sorted()
    guard modelled.count >= 2 else { return nil }
    let genreNames = Array(Set(songMinutes.keys.map { genres[$0] ?? "" })).sorted()
    let genreColumn = Dictionary(uniqueKeysWithValues: genreNames.enumerated().map { ($1, $0) })
    let g = genreNames.count
    let songColumn = Dictionary(
      uniqueKeysWithValues: modelled.enumerated().map { ($1, g + $0) })
    let k = modelled.count
    let p = g + k + covariateCount
    let design = Design(
      minutes: minutes, genreOf: { genreColumn[genres[$0] ?? ""]! },
      songColumn: { songColumn[$0] }, p: p, covariateStart: g + k)
    return Prepared(
      lagMinutes: lagMinutes, minutes: minutes, design: design, songMinutes: songMinutes,
      modelled: modelled, songColumn: songColumn, g: g, configuration: configuration)
  }

  // MARK: - Noise model

  /// The correlated noise of a block's minutes: a slowly wandering state that keeps
  /// `persistence` of its deviation from one minute to the next (an AR(1) process, continuous
  /// in time: φ^Δt for Δt minutes apart), plus independent reading noise whose variance,
  /// relative to the state's, is `readingNoise` per reading (so a minute averaging m readings
  /// has readingNoise/m). White noise is persistence 0 and reading noise 0.

  /// The noise model whose restricted likelihood is highest among the configuration's
  /// candidates, with the fit under it (nil when no candidate fits).
  static func withNoiseModel(_ prepared: Prepared) -> Prepared? {
    var best: Prepared?
    for persistence in prepared.configuration.persistenceCandidates {
      for readingNoise in prepared.configuration.readingNoiseCandidates {
        let noise = NoiseModel(persistence: persistence, readingNoise: readingNoise)
        let candidate = prepared.with(noise: noise)
        guard candidate.isFitted else { continue }
        if best == nil || candidate.logLikelihood > best!.logLikelihood { best = candidate }
      }
    }
    return best
  }

  static func measuredMinutes(
    sessions: [Session], samples: [SignalReading], mac: [MacContextSnapshot],
    asleep: [TimeSpan] = [], lagMs: Double, configuration: Configuration
  ) -> Minutes {
    let asleepStarts = asleep.map(\.startMs)
    var result = Minutes()
    let selectionLagMs = configuration.selectionLagMinutes * 60_000
    let padMs = Int64(configuration.paddingMinutes) * 60_000
    let blockMs = Int64(configuration.blockMinutes) * 60_000
    let macReachMs = Int64(configuration.macReachMinutes) * 60_000
    // Past this many lags a play's tail is below e⁻¹² of its effect.
    let tailMs = 12 * max(lagMs, selectionLagMs)
    let macTimes = mac.map(\.time.millisecondsSinceEpoch)
    let clusterGapMs: Int64 = 60 * 60_000
    var lastWindowEnd = Int64.min / 2
    for session in sessions where session.context != .workout && !session.plays.isEmpty {
      let plays = session.plays
      let windowStart = plays[0].startMs - padMs
      let windowEnd = plays.map(\.heardEndMs).max()! + padMs
      var i = samples.partitioningIndex { $0.timeMs >= windowStart }
      var cursor = 0
      var counted = Set<Int>()
      var lastBlock = -1
      var sessionUsed = false
      if windowStart - lastWindowEnd > clusterGapMs || result.clusterCount == 0 {
        result.clusterCount += 1
      }
      lastWindowEnd = max(lastWindowEnd, windowEnd)
      while i < samples.count, samples[i].timeMs < windowEnd {
        let minute = (samples[i].timeMs - windowStart) / 60_000
        let binFirst = i
        var sum = 0.0
        var time = 0.0
        var moving = 0
        var count = 0
        while i < samples.count, samples[i].timeMs < windowEnd,
          (samples[i].timeMs - windowStart) / 60_000 == minute
        {
          if samples[i].value.isFinite {
            sum += samples[i].value
            time += Double(samples[i].timeMs)
            if samples[i].isMoving { moving += 1 }
            count += 1
          }
          i += 1
        }
        guard count > 0 else { continue }
        let t = time / Double(count)
        // Asleep, the body answers sleep, not the music.
        let nap = asleepStarts.partitioningIndex { $0 > Int64(t) } - 1
        if nap >= 0, Int64(t) < asleep[nap].endMs { continue }
        let binTimes = samples[binFirst..<i].filter(\.value.isFinite).map { Double($0.timeMs) }
        // A song's exposure in the minute: the mean over the minute's readings (the lag curves,
        // so the exposure at their mean time would overstate a rising one).
        func meanExposure(_ play: Play, lagMs: Double) -> Double {
          binTimes.reduce(0.0) {
            $0 + exposure(atMs: $1, startMs: play.startMs, endMs: play.heardEndMs, lagMs: lagMs)
          } / Double(binTimes.count)
        }
        while cursor < plays.count, Double(plays[cursor].heardEndMs) + tailMs < t { cursor += 1 }
        let first = result.entries.count
        var exposureSum = 0.0
        var index = cursor
        while index < plays.count, Double(plays[index].startMs) <= binTimes.last! {
          let play = plays[index]
          let x = meanExposure(play, lagMs: lagMs)
          if x > 1e-3 {
            if let j = result.entries[first...].firstIndex(where: { $0.song == play.songID }) {
              result.entries[j].exposure += x
            } else {
              result.entries.append(Entry(song: play.songID, exposure: x))
            }
          }
          exposureSum += meanExposure(play, lagMs: selectionLagMs)
          index += 1
        }
        guard exposureSum >= configuration.minimumExposure else {
          result.entries.removeSubrange(first...)
          continue
        }
        for j in cursor..<index where !counted.contains(j) {
          if meanExposure(plays[j], lagMs: lagMs) > 1e-3 {
            counted.insert(j)
            result.playsBySong[plays[j].songID, default: 0] += 1
          }
        }
        let current = plays[cursor..<index].last { Double($0.startMs) <= t }
        let blockIndex = Int((Int64(t) - windowStart) / blockMs)
        if blockIndex != lastBlock {
          result.blockCount += 1
          lastBlock = blockIndex
        }
        sessionUsed = true
        var meeting = 0.0
        var work = 0.0
        let m = macTimes.partitioningIndex { $0 > Int64(t) } - 1
        if m >= 0, Int64(t) - macTimes[m] <= macReachMs {
          meeting = mac[m].inMeeting == true ? 1 : 0
          work = mac[m].focusMode?.lowercased() == "work" ? 1 : 0
        }
        result.rows.append(
          Row(
            block: result.blockCount - 1, session: result.sessionCount, y: sum / Double(count),
            moving: Double(moving) / Double(count), meeting: meeting, workFocus: work,
            firstEntry: first, endEntry: result.entries.count, cluster: result.clusterCount - 1,
            timeMs: Int64(t), songStartMs: current?.startMs, chosenOn: current?.chosenOn,
            readings: count))
      }
      if sessionUsed { result.sessionCount += 1 }
    }
    return result
  }

  // MARK: - Normal equations

  /// The normal equations A = Z̃ᵀZ̃, b = Z̃ᵀỹ, ỹᵀỹ of the blocks whitened by the noise model
  /// and freed of their levels, and the blocks to revisit.
  struct Design {
    /// One block's rows over the columns they touch, as measured: Z column-major
    /// (`z[column * count + row]`), the values, and what the noise model needs of each row.
    struct Block {
      var rows: Range<Int>
      var columns: [Int]
      var z: [Double]
      var y: [Double]
      var timesMs: [Int64]
      var readings: [Int]
      var count: Int { rows.count }
    }

    /// A block after the noise model: whitened (when the noise is not white) and with the
    /// block's level projected out. `z[column * count + row]` as in `Block`.
    struct Whitened {
      var z: [Double]
      var y: [Double]
      var count: Int
      subscript(row: Int, column: Int) -> Double { z[column * count + row] }
    }

    var minutes: Minutes
    var genreOf: (Int64) -> Int
    var songColumn: (Int64) -> Int?
    var p: Int
    var covariateStart: Int
    var blocks: [Block] = []
    var noise = NoiseModel.white
    var a: Matrix
    var b: [Double]
    var yy = 0.0
    /// Σ over blocks of log |R| + log(wᵀw): what the restricted likelihood needs beyond the
    /// residuals (R the block's noise correlation, w its whitened column of ones).
    var logDeterminant = 0.0

    init(
      minutes: Minutes, genreOf: @escaping (Int64) -> Int, songColumn: @escaping (Int64) -> Int?,
      p: Int, covariateStart: Int
    ) {
      self.minutes = minutes
      self.genreOf = genreOf
      self.songColumn = songColumn
      self.p = p
      self.covariateStart = covariateStart
      a = Matrix(rows: p, columns: p)
      b = .init(repeating: 0, count: p)
      let rows = minutes.rows
      var start = 0
      while start < rows.count {
        var end = start
        while end < rows.count, rows[end].block == rows[start].block { end += 1 }
        blocks.append(block(start..<end))
        start = end
      }
      accumulate()
    }

    /// The same design under another noise model.
    func with(noise: NoiseModel) -> Design {
      var copy = self
      copy.noise = noise
      copy.accumulate()
      return copy
    }

    /// A = Z̃ᵀZ̃, b = Z̃ᵀỹ, ỹᵀỹ over the whitened, level-free blocks.
    private mutating func accumulate() {
      var gram = Matrix(rows: p, columns: p)
      var moment = [Double](repeating: 0, count: p)
      var squares = 0.0
      logDeterminant = forEachBlock { block, white in
        let n = white.count
        for (x, cx) in block.columns.enumerated() {
          var m = 0.0
          for r in 0..<n { m += white.z[x * n + r] * white.y[r] }
          moment[cx] += m
          for (v, cv) in block.columns.enumerated() where v <= x {
            var sum = 0.0
            for r in 0..<n { sum += white.z[x * n + r] * white.z[v * n + r] }
            gram[cx, cv] += sum
            if v != x { gram[cv, cx] += sum }
          }
        }
        for r in 0..<n { squares += white.y[r] * white.y[r] }
      }
      a = gram
      b = moment
      yy = squares
    }

    /// The rows `range` (one block) over the columns they touch (genre and song columns
    /// merged with the covariates).
    private func block(_ range: Range<Int>) -> Block {
      let rows = minutes.rows[range]
      var position: [Int: Int] = [:]
      var columns: [Int] = []
      func index(_ column: Int) -> Int {
        if let i = position[column] { return i }
        position[column] = columns.count
        columns.append(column)
        return columns.count - 1
      }
      var entries: [(row: Int, column: Int, value: Double)] = []
      for (r, row) in rows.enumerated() {
        for entry in minutes.entries[row.firstEntry..<row.endEntry] {
          entries.append((r, index(genreOf(entry.song)), entry.exposure))
          if let column = songColumn(entry.song) {
            entries.append((r, index(column), entry.exposure))
          }
        }
        let covariates = [
          row.moving, row.meeting, row.workFocus, row.chosenDeviation ?? 0,
          row.chosenDeviation == nil ? 1 : 0,
        ]
        for (offset, value) in covariates.enumerated() where value != 0 {
          entries.append((r, index(covariateStart + offset), value))
        }
      }
      let n = rows.count
      var z = [Double](repeating: 0, count: n * columns.count)
      for entry in entries { z[entry.column * n + entry.row] += entry.value }
      return Block(
        rows: range, columns: columns, z: z, y: rows.map(\.y), timesMs: rows.map(\.timeMs),
        readings: rows.map(\.readings))
    }

    /// Calls `body` once per block with the block and its rows whitened by the noise model and
    /// with the block's level projected out. Returns Σ log |R| + log(wᵀw) over the blocks.
    @discardableResult
    func forEachBlock(_ body: (Block, Whitened) -> Void) -> Double {
      var logDeterminant = 0.0
      for block in blocks {
        let n = block.count
        let c = block.columns.count
        // Columns: Z, y, and the block's column of ones (its level).
        var stacked = block.z + block.y + [Double](repeating: 1, count: n)
        if noise != .white {
          var r = Matrix(rows: n, columns: n)
          for i in 0..<n {
            for j in 0..<i {
              let gap = Double(block.timesMs[i] - block.timesMs[j]) / 60_000
              r[i, j] = pow(noise.persistence, gap)
              r[j, i] = r[i, j]
            }
            r[i, i] = 1 + noise.readingNoise / Double(max(1, block.readings[i]))
          }
          // Positive definite: a correlation of a stationary process plus a non-negative
          // diagonal, at distinct times.
          guard let factor = try? Cholesky(r) else { preconditionFailure("noise correlation") }
          logDeterminant += factor.logDeterminant
          stacked = factor.whiten(stacked, columns: c + 2)
        }
        let w = stacked[(c + 1) * n..<(c + 2) * n]
        let ww = w.reduce(0.0) { $0 + $1 * $1 }
        logDeterminant += log(ww)
        for column in 0...c {
          var projection = 0.0
          for r in 0..<n { projection += stacked[column * n + r] * w[w.startIndex + r] }
          projection /= ww
          for r in 0..<n { stacked[column * n + r] -= projection * w[w.startIndex + r] }
        }
        body(
          block,
          Whitened(z: Array(stacked[0..<c * n]), y: Array(stacked[c * n..<(c + 1) * n]), count: n))
      }
      return logDeterminant
    }
  }

  /// Almost flat prior precisions: genres and songs variance 100, the covariates 10⁴.
  static func precision(g: Int, k: Int, songVariance: Double, genreVariance: Double) -> [Double] {
    [Double](repeating: 1 / genreVariance, count: g)
      + [Double](repeating: 1 / songVariance, count: k)
      + [Double](repeating: 1e-4, count: covariateCount)
  }

  /// The Gaussian posterior for prior precisions `precision` and noise variance σ²:
  /// P = A/σ² + diag(precision), mean = P⁻¹·b/σ².
  struct Posterior {
    var factor: Cholesky
    var mean: [Double]

    init(_ design: Design, precision: [Double], noiseVariance: Double) throws(LinearAlgebraError) {
      var p = design.a
      for i in 0..<design.p {
        for j in 0..<design.p { p[i, j] /= noiseVariance }
        p[i, i] += precision[i]
      }
      factor = try Cholesky(p)
      mean = factor.solve(design.b.map { $0 / noiseVariance })
    }
  }

  /// Each modelled song's contrast (the song against the mean song): its session-clustered
  /// sandwich variance over its model variance, under the almost unpenalised fit.
  static func sandwichRatios(_ design: Design, _ posterior: Posterior, sigma2: Double)
    -> [Int64: Double]
  {
    // Each cluster's score: Σ over its minutes of z̃·r/σ².
    var scores = [[Double]](
      repeating: [Double](repeating: 0, count: design.p), count: design.minutes.clusterCount)
    design.forEachBlock { block, white in
      for r in 0..<white.count {
        var fitted = 0.0
        for (x, c) in block.columns.enumerated() { fitted += white[r, x] * posterior.mean[c] }
        let residual = (white.y[r] - fitted) / sigma2
        let cluster = design.minutes.rows[block.rows.lowerBound + r].cluster
        for (x, c) in block.columns.enumerated() where white[r, x] != 0 {
          scores[cluster][c] += white[r, x] * residual
        }
      }
    }
    let modelled = Array(Set(design.minutes.entries.map(\.song))).filter {
      design.songColumn($0) != nil
    }.sorted()
    var meanRow = [Double](repeating: 0, count: design.p)
    for song in modelled {
      meanRow[design.genreOf(song)] += 1 / Double(modelled.count)
      meanRow[design.songColumn(song)!] += 1 / Double(modelled.count)
    }
    var ratios: [Int64: Double] = [:]
    for song in modelled {
      var c = meanRow.map { -$0 }
      c[design.genreOf(song)] += 1
      c[design.songColumn(song)!] += 1
      let u = posterior.factor.solve(c)
      let model = dot(c, u)
      let sandwich = scores.reduce(0.0) {
        let s = dot(u, $1); return $0 + s * s
      }
      if model > 0, sandwich.isFinite { ratios[song] = sandwich / model }
    }
    return ratios
  }

  // MARK: - Small helpers

  static func dot(_ a: [Double], _ b: [Double]) -> Double {
    zip(a, b).reduce(0.0) { $0 + $1.0 * $1.1 }
  }

  static func quadratic(_ m: Matrix, _ x: [Double]) -> Double {
    var total = 0.0
    for i in 0..<x.count where x[i] != 0 {
      for j in 0..<x.count { total += x[i] * m[i, j] * x[j] }
    }
    return total
  }

  /// Spans sorted by start with overlaps merged.
  static func mergedSpans(_ spans: [TimeSpan]) -> [TimeSpan] {
    var merged: [TimeSpan] = []
    for span in spans.sorted(by: { $0.startMs < $1.startMs }) where span.endMs > span.startMs {
      if let last = merged.last, span.startMs <= last.endMs {
        merged[merged.count - 1].endMs = max(last.endMs, span.endMs)
      } else {
        merged.append(span)
      }
    }
    return merged
  }
}

extension NoiseModel {
  /// Independent minutes: no persistence and no reading noise.
  package static let white = NoiseModel(persistence: 0, readingNoise: 0)
}
