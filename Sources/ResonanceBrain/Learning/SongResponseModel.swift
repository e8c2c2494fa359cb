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
///   `minimumExposure`). Workout sessions are left out: exercise swamps the music.
/// - **Exposure**: a song drives the body through a first-order lag τ while it plays (τ chosen
///   from `lagCandidates` by the fit), so its exposure at time t is 1 − e^(−(t − start)/τ) during the play and decays as
///   e^(−(t − end)/τ) after it; a minute's row holds every song's exposure.
/// - **Nuisance**: one level per 30-minute block of a session (circadian drift, posture, the
///   day), plus the share of samples taken while moving (Watch motion flags), a meeting and a
///   work Focus on the Mac (the last snapshot within 10 minutes).
/// - **Effects**: song effect = genre mean + the song's own deviation; genre means
///   ~ N(0, ω²), deviations ~ N(0, τ²). Blocks absorb the overall level (music is always
///   playing in a measured minute), so effects are **relative**: each song against the person's
///   average minute of music (the exposure-weighted mean song).
/// - **Fit**: the block levels are removed exactly (within-block centring); the normal
///   equations are accumulated block by block, solved by Cholesky (LAPACK). The noise variance
///   σ² comes from an almost unpenalised fit's residuals, scaled by a design effect κ ≥ 1 — the
///   median ratio of session-clustered (sandwich) to model variances of song contrasts — because
///   minute-to-minute noise is correlated within a session. τ² and ω² maximise the marginal
///   likelihood (empirical Bayes) over log-spaced grids; then the songs' deviations get a
///   heavy-tailed Student-t prior (ν = 4, fitted by EM), so a song with a large effect is not
///   pulled toward its genre. The estimate is the posterior mean, its interval ± 1.645
///   posterior standard deviations, widened for a song whose own sandwich ratio exceeds κ.
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
    /// How old the last Mac snapshot may be to describe a minute.
    package var macReachMinutes = 10
    /// The Student-t prior's degrees of freedom for a song's deviation from its genre, and how
    /// many EM steps fit it (0 keeps the normal prior).
    package var tailDegreesOfFreedom = 4.0
    package var tailIterations = 30

    package init() {}
  }

  /// A reading of the signal, and whether the person was moving (walking, a workout).
  package struct Sample: Sendable, Equatable {
    package var timeMs: Int64
    package var value: Double
    package var isMoving: Bool

    package init(timeMs: Int64, value: Double, isMoving: Bool) {
      self.timeMs = timeMs
      self.value = value
      self.isMoving = isMoving
    }
  }

  /// One play: its song and the span the person heard it (start to start + played).
  package struct Play: Sendable, Equatable {
    package var songID: Int64
    package var startMs: Int64
    package var heardEndMs: Int64

    package init(songID: Int64, startMs: Int64, heardEndMs: Int64) {
      self.songID = songID
      self.startMs = startMs
      self.heardEndMs = heardEndMs
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

  /// One song's effect, relative to the person's average minute of music.
  package struct SongResponse: Sendable, Equatable {
    package var songID: Int64
    package var genre: String
    /// Plays whose music entered a measured minute.
    package var plays: Int
    /// Summed exposure: about the minutes the song was measured at full effect.
    package var minutes: Double
    /// The estimate from the almost unpenalised fit (what the data alone say).
    package var unpooled: Double
    /// The song's genre mean, on the same relative scale.
    package var genreMean: Double
    package var estimate: Double
    package var sd: Double
    package var low90: Double
    package var high90: Double

    /// Whether the 90% interval leaves out zero (the person's average music).
    package var isDistinguishableFromZero: Bool { low90 > 0 || high90 < 0 }
  }

  package struct Fit: Sendable {
    /// Songs with their own column, by song id.
    package var responses: [SongResponse]
    /// The response lag τ the data chose.
    package var lagMinutes: Double
    /// Measured minutes, the blocks and sessions they fell in.
    package var minutes: Int
    package var blocks: Int
    package var sessions: Int
    /// σ (per measured minute, before the design effect) and the design effect κ.
    package var noiseSD: Double
    package var designEffect: Double
    /// The prior spreads chosen by marginal likelihood: songs within a genre (τ), genres (ω).
    package var songSD: Double
    package var genreSD: Double
    /// The nuisance coefficients: moving (share of the minute), a meeting, a work Focus.
    package var moving: Double
    package var meeting: Double
    package var workFocus: Double
  }

  /// The z value of a two-sided 90% normal interval.
  package static let z90 = 1.6448536269514722

  /// Fits the model. `samples` and `mac` in time order; `genres` by song id (a song without
  /// one pools with the other genreless songs). Nil when there is too little to fit: fewer
  /// than two songs with their own column, or no residual degrees of freedom.
  package static func fit(
    sessions: [Session], samples: [Sample], mac: [MacContextSnapshot],
    genres: [Int64: String], configuration: Configuration = .init()
  ) -> Fit? {
    // The lag: the candidate whose almost unpenalised fit leaves the least residual variance.
    var chosen: Prepared?
    for lag in configuration.lagCandidates {
      guard
        let candidate = prepare(
          sessions: sessions, samples: samples, mac: mac, genres: genres, lagMinutes: lag,
          configuration: configuration)
      else { continue }
      if chosen == nil || candidate.sigma2 < chosen!.sigma2 { chosen = candidate }
    }
    guard let chosen else { return nil }
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
    let kappa = max(1, median(Array(ratios.values)) ?? 1)
    let noise = sigma2 * kappa

    // τ² and ω² by marginal likelihood: alternating searches over log-spaced grids.
    let songGrid = (0..<17).map { pow(10, -2 + 5 * Double($0) / 16) }
    let genreGrid = (0..<9).map { pow(10, -2 + 5 * Double($0) / 8) }
    var best = (tau2: 1.0, omega2: 1.0)
    var bestLikelihood = -Double.infinity
    func consider(_ tau2: Double, _ omega2: Double) {
      let prior = precision(g: g, k: k, songVariance: tau2, genreVariance: omega2)
      guard let post = try? Posterior(design, precision: prior, noiseVariance: noise) else {
        return
      }
      let likelihood = post.logMarginalLikelihood(prior: prior, b: design.b, noise: noise)
      if likelihood > bestLikelihood {
        bestLikelihood = likelihood
        best = (tau2, omega2)
      }
    }
    for _ in 0..<2 {
      let omega2 = best.omega2
      for tau2 in songGrid { consider(tau2, omega2) }
      let tau2 = best.tau2
      for omega2 in genreGrid { consider(tau2, omega2) }
    }
    // Heavy tails: most songs do little and a few a lot, and a normal prior would pull the few
    // toward their genre. A song's deviation ~ Student-t(ν, scale s), fitted by EM (Lange,
    // Little & Taylor 1989): its prior variance is s²/uⱼ, uⱼ = (ν + 1)/(ν + E[δⱼ²]/s²).
    var songVariances = [Double](repeating: best.tau2, count: k)
    var scale2 = best.tau2
    var prior = precision(g: g, k: k, songVariances: songVariances, genreVariance: best.omega2)
    guard var posterior = try? Posterior(design, precision: prior, noiseVariance: noise),
      let unpooledFit = try? Posterior(design, precision: weak, noiseVariance: noise)
    else { return nil }
    var covariance = posterior.factor.inverse()
    for _ in 0..<configuration.tailIterations {
      let expected = (0..<k).map { j in
        posterior.mean[g + j] * posterior.mean[g + j] + covariance[g + j, g + j]
      }
      let nu = configuration.tailDegreesOfFreedom
      let weights = expected.map { (nu + 1) / (nu + $0 / scale2) }
      scale2 = max(zip(weights, expected).reduce(0.0) { $0 + $1.0 * $1.1 } / Double(k), 1e-6)
      let next = weights.map { scale2 / $0 }
      let change = zip(next, songVariances).map { abs($0 - $1) / $1 }.max() ?? 0
      songVariances = next
      prior = precision(g: g, k: k, songVariances: songVariances, genreVariance: best.omega2)
      guard let refit = try? Posterior(design, precision: prior, noiseVariance: noise) else {
        break
      }
      posterior = refit
      covariance = posterior.factor.inverse()
      if change < 1e-4 { break }
    }

    // Contrasts against the exposure-weighted mean song: v = Σ wⱼ·Lⱼ.
    let total = modelled.reduce(0.0) { $0 + songMinutes[$1]! }
    var v = [Double](repeating: 0, count: p)
    for song in modelled {
      let w = songMinutes[song]! / total
      v[design.genreOf(song)] += w
      v[songColumn[song]!] += w
    }
    let level = dot(v, posterior.mean)
    let unpooledLevel = dot(v, unpooledFit.mean)
    let sigmaV = (0..<p).map { i in (0..<p).reduce(0.0) { $0 + covariance[i, $1] * v[$1] } }
    let vSigmaV = dot(v, sigmaV)

    var playCounts: [Int64: Int] = [:]
    for (song, count) in minutes.playsBySong { playCounts[song] = count }
    let responses = modelled.map { song -> SongResponse in
      let gc = design.genreOf(song)
      let sc = songColumn[song]!
      let estimate = posterior.mean[gc] + posterior.mean[sc] - level
      let variance =
        covariance[gc, gc] + covariance[sc, sc] + 2 * covariance[gc, sc]
        - 2 * (sigmaV[gc] + sigmaV[sc]) + vSigmaV
      // A song whose minutes are more correlated within sessions than most gets the extra
      // width its own sandwich variance calls for.
      let inflation = max(1, (ratios[song] ?? kappa) / kappa)
      let sd = (max(variance, 0) * inflation).squareRoot()
      return SongResponse(
        songID: song, genre: genres[song] ?? "", plays: playCounts[song] ?? 0,
        minutes: songMinutes[song]!,
        unpooled: unpooledFit.mean[gc] + unpooledFit.mean[sc] - unpooledLevel,
        genreMean: posterior.mean[gc] - level, estimate: estimate, sd: sd,
        low90: estimate - z90 * sd, high90: estimate + z90 * sd)
    }
    return Fit(
      responses: responses, lagMinutes: chosen.lagMinutes, minutes: n,
      blocks: minutes.blockCount,
      sessions: minutes.sessionCount, noiseSD: sigma2.squareRoot(), designEffect: kappa,
      songSD: best.tau2.squareRoot(), genreSD: best.omega2.squareRoot(),
      moving: posterior.mean[g + k], meeting: posterior.mean[g + k + 1],
      workFocus: posterior.mean[g + k + 2])
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
  }

  struct Minutes {
    var rows: [Row] = []
    var entries: [Entry] = []
    var blockCount = 0
    var sessionCount = 0
    var playsBySong: [Int64: Int] = [:]
  }

  /// One candidate lag's design and almost unpenalised fit.
  struct Prepared {
    var lagMinutes: Double
    var minutes: Minutes
    var design: Design
    var songMinutes: [Int64: Double]
    var modelled: [Int64]
    var songColumn: [Int64: Int]
    var g: Int
    /// Residual variance per measured minute of the almost unpenalised fit.
    var sigma2: Double
  }

  static func prepare(
    sessions: [Session], samples: [Sample], mac: [MacContextSnapshot], genres: [Int64: String],
    lagMinutes: Double, configuration: Configuration
  ) -> Prepared? {
    let minutes = measuredMinutes(
      sessions: sessions, samples: samples, mac: mac, lagMs: lagMinutes * 60_000,
      configuration: configuration)
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
    let p = g + k + 3
    let design = Design(
      minutes: minutes, genreOf: { genreColumn[genres[$0] ?? ""]! },
      songColumn: { songColumn[$0] }, p: p, covariateStart: g + k)
    let freedom = minutes.rows.count - minutes.blockCount - p
    guard freedom > 0 else { return nil }
    let weak = precision(g: g, k: k, songVariance: 100, genreVariance: 100)
    guard let loose = try? Posterior(design, precision: weak, noiseVariance: 1) else { return nil }
    let rss = max(design.yy - 2 * dot(loose.mean, design.b) + quadratic(design.a, loose.mean), 0)
    let sigma2 = rss / Double(freedom)
    guard sigma2 > 0, sigma2.isFinite else { return nil }
    return Prepared(
      lagMinutes: lagMinutes, minutes: minutes, design: design, songMinutes: songMinutes,
      modelled: modelled, songColumn: songColumn, g: g, sigma2: sigma2)
  }

  static func measuredMinutes(
    sessions: [Session], samples: [Sample], mac: [MacContextSnapshot], lagMs: Double,
    configuration: Configuration
  ) -> Minutes {
    var result = Minutes()
    let selectionLagMs = configuration.selectionLagMinutes * 60_000
    let padMs = Int64(configuration.paddingMinutes) * 60_000
    let blockMs = Int64(configuration.blockMinutes) * 60_000
    let macReachMs = Int64(configuration.macReachMinutes) * 60_000
    // Past this many lags a play's tail is below e⁻¹² of its effect.
    let tailMs = 12 * max(lagMs, selectionLagMs)
    let macTimes = mac.map(\.time.millisecondsSinceEpoch)
    for session in sessions where session.context != .workout && !session.plays.isEmpty {
      let plays = session.plays
      let windowStart = plays[0].startMs - padMs
      let windowEnd = plays.map(\.heardEndMs).max()! + padMs
      var i = lowerBound(samples, windowStart)
      var cursor = 0
      var counted = Set<Int>()
      var lastBlock = -1
      var sessionUsed = false
      while i < samples.count, samples[i].timeMs < windowEnd {
        let minute = (samples[i].timeMs - windowStart) / 60_000
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
        while cursor < plays.count, Double(plays[cursor].heardEndMs) + tailMs < t { cursor += 1 }
        let first = result.entries.count
        var exposureSum = 0.0
        var index = cursor
        while index < plays.count, Double(plays[index].startMs) <= t {
          let play = plays[index]
          let x = exposure(atMs: t, startMs: play.startMs, endMs: play.heardEndMs, lagMs: lagMs)
          if x > 1e-3 {
            if let j = result.entries[first...].firstIndex(where: { $0.song == play.songID }) {
              result.entries[j].exposure += x
            } else {
              result.entries.append(Entry(song: play.songID, exposure: x))
            }
          }
          exposureSum += exposure(
            atMs: t, startMs: play.startMs, endMs: play.heardEndMs, lagMs: selectionLagMs)
          index += 1
        }
        guard exposureSum >= configuration.minimumExposure else {
          result.entries.removeSubrange(first...)
          continue
        }
        for j in cursor..<index where !counted.contains(j) {
          let x = exposure(
            atMs: t, startMs: plays[j].startMs, endMs: plays[j].heardEndMs, lagMs: lagMs)
          if x > 1e-3 {
            counted.insert(j)
            result.playsBySong[plays[j].songID, default: 0] += 1
          }
        }
        let blockIndex = Int((Int64(t) - windowStart) / blockMs)
        if blockIndex != lastBlock {
          result.blockCount += 1
          lastBlock = blockIndex
        }
        sessionUsed = true
        var meeting = 0.0
        var work = 0.0
        let m = upperBound(macTimes, Int64(t)) - 1
        if m >= 0, Int64(t) - macTimes[m] <= macReachMs {
          meeting = mac[m].inMeeting == true ? 1 : 0
          work = mac[m].focusMode?.lowercased() == "work" ? 1 : 0
        }
        result.rows.append(
          Row(
            block: result.blockCount - 1, session: result.sessionCount, y: sum / Double(count),
            moving: Double(moving) / Double(count), meeting: meeting, workFocus: work,
            firstEntry: first, endEntry: result.entries.count))
      }
      if sessionUsed { result.sessionCount += 1 }
    }
    return result
  }

  // MARK: - Normal equations

  /// The block-centred normal equations A = Z̃ᵀZ̃, b = Z̃ᵀỹ, ỹᵀỹ, and the rows to revisit.
  struct Design {
    var minutes: Minutes
    var genreOf: (Int64) -> Int
    var songColumn: (Int64) -> Int?
    var p: Int
    var covariateStart: Int
    var a: Matrix
    var b: [Double]
    var yy = 0.0

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
      var gram = a
      var moment = b
      var squares = 0.0
      let blocks = self
      blocks.forEachBlock { rows, columns, centred, yCentred in
        for r in rows.indices.map({ $0 - rows.startIndex }) {
          let z = centred[r]
          for (x, cx) in columns.enumerated() where z[x] != 0 {
            moment[cx] += z[x] * yCentred[r]
            for (w, cw) in columns.enumerated() where z[w] != 0 { gram[cx, cw] += z[x] * z[w] }
          }
          squares += yCentred[r] * yCentred[r]
        }
      }
      a = gram
      b = moment
      yy = squares
    }

    /// A minute's row of Z over the columns it touches (genre and song columns merged).
    func row(_ row: Row) -> [(column: Int, value: Double)] {
      var values: [Int: Double] = [:]
      for entry in minutes.entries[row.firstEntry..<row.endEntry] {
        values[genreOf(entry.song), default: 0] += entry.exposure
        if let column = songColumn(entry.song) { values[column, default: 0] += entry.exposure }
      }
      values[covariateStart] = row.moving
      values[covariateStart + 1] = row.meeting
      values[covariateStart + 2] = row.workFocus
      return values.map { ($0.key, $0.value) }
    }

    /// Calls `body` once per block with its rows, the columns they touch, each row centred on
    /// the block's means (dense over those columns) and the centred values.
    func forEachBlock(
      _ body: (ArraySlice<Row>, [Int], [[Double]], [Double]) -> Void
    ) {
      let rows = minutes.rows
      var start = 0
      while start < rows.count {
        var end = start
        while end < rows.count, rows[end].block == rows[start].block { end += 1 }
        let block = rows[start..<end]
        let sparse = block.map { row($0) }
        let columns = Array(Set(sparse.flatMap { $0.map(\.column) })).sorted()
        let position = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        var dense = sparse.map { entries -> [Double] in
          var z = [Double](repeating: 0, count: columns.count)
          for (column, value) in entries { z[position[column]!] = value }
          return z
        }
        let count = Double(dense.count)
        for c in 0..<columns.count {
          let mean = dense.reduce(0.0) { $0 + $1[c] } / count
          for r in 0..<dense.count { dense[r][c] -= mean }
        }
        let yMean = block.reduce(0.0) { $0 + $1.y } / count
        body(block, columns, dense, block.map { $0.y - yMean })
        start = end
      }
    }
  }

  static func precision(g: Int, k: Int, songVariance: Double, genreVariance: Double) -> [Double] {
    precision(
      g: g, k: k, songVariances: .init(repeating: songVariance, count: k),
      genreVariance: genreVariance)
  }

  /// Prior precisions: genres 1/ω², each song 1/its variance, the covariates almost flat.
  static func precision(g: Int, k: Int, songVariances: [Double], genreVariance: Double)
    -> [Double]
  {
    [Double](repeating: 1 / genreVariance, count: g) + songVariances.map { 1 / $0 }
      + [1e-4, 1e-4, 1e-4]
  }

  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
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

    /// log p(ỹ) up to terms that do not depend on the prior: −½(log|P| − Σ log precision −
    /// meanᵀb/σ²).
    func logMarginalLikelihood(prior: [Double], b: [Double], noise: Double) -> Double {
      let logPrior = prior.reduce(0.0) { $0 + log($1) }
      return -0.5 * (factor.logDeterminant - logPrior - dot(mean, b) / noise)
    }
  }

  /// Each modelled song's contrast (the song against the mean song): its session-clustered
  /// sandwich variance over its model variance, under the almost unpenalised fit.
  static func sandwichRatios(_ design: Design, _ posterior: Posterior, sigma2: Double)
    -> [Int64: Double]
  {
    // Each session's score: Σ over its minutes of z̃·r/σ².
    var scores = [[Double]](
      repeating: [Double](repeating: 0, count: design.p), count: design.minutes.sessionCount)
    design.forEachBlock { rows, columns, centred, yCentred in
      for (r, row) in zip(0..., rows) {
        var fitted = 0.0
        for (x, c) in columns.enumerated() { fitted += centred[r][x] * posterior.mean[c] }
        let residual = (yCentred[r] - fitted) / sigma2
        for (x, c) in columns.enumerated() where centred[r][x] != 0 {
          scores[row.session][c] += centred[r][x] * residual
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

  /// The first index whose time is ≥ `t`.
  static func lowerBound(_ samples: [Sample], _ t: Int64) -> Int {
    var low = 0
    var high = samples.count
    while low < high {
      let mid = (low + high) / 2
      if samples[mid].timeMs < t { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The first index whose time is > `t`.
  static func upperBound(_ times: [Int64], _ t: Int64) -> Int {
    var low = 0
    var high = times.count
    while low < high {
      let mid = (low + high) / 2
      if times[mid] <= t { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
