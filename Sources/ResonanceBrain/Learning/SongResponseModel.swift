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

  /// The candidate fits `fit` runs, which its progress counts: a lag each, the controlled
  /// fit, a noise model each.
  package static func fitSteps(_ configuration: Configuration = .init()) -> Int {
    configuration.lagCandidates.count + 1
      + configuration.persistenceCandidates.count * configuration.readingNoiseCandidates.count
  }

  /// Fits the model. `samples` and `mac` in time order; `genres` by song id (a song without
  /// one pools with the other genreless songs). Nil when there is too little to fit: fewer
  /// than two songs with their own column, or no residual degrees of freedom.
  package static func fit(
    _ signal: Signal, sessions: [Session], samples: [SignalReading], mac: [MacContextSnapshot],
    genres: [Int64: String], asleep: [TimeSpan] = [], configuration: Configuration = .init(),
    progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
  ) -> SongResponseFit? {
    let asleep = mergedSpans(asleep)
    // Progress counts the candidate fits: one a lag, the controlled fit, one a noise model.
    let steps = fitSteps(configuration)
    var done = 0
    func step() {
      done += 1
      progress(done, steps)
    }
    // The lag: the candidate whose almost unpenalised fit leaves the least residual variance.
    var best: Prepared?
    for lag in configuration.lagCandidates {
      defer { step() }
      guard
        let candidate = prepare(
          sessions: sessions, samples: samples, mac: mac, genres: genres, asleep: asleep,
          lagMinutes: lag, configuration: configuration), candidate.isFitted
      else { continue }
      if best == nil || candidate.sigma2 < best!.sigma2 { best = candidate }
    }
    guard let best else { return nil }
    let controlled = controlled(best, genres: genres) ?? best
    step()
    guard let chosen = withNoiseModel(controlled, step: step) else { return nil }
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
        low90: estimate - half, high90: estimate + half, unpooledSD: sigma)
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
