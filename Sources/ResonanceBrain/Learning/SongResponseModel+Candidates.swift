import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The candidate fits: a lag's design and almost unpenalised fit, the second fit that controls
/// for the reading a DJ chose a song on, and the noise model with the highest restricted
/// likelihood.
extension SongResponseModel {
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
  ///
  /// - Parameter step: called after each candidate.
  static func withNoiseModel(_ prepared: Prepared, step: () -> Void = {}) -> Prepared? {
    var best: Prepared?
    for persistence in prepared.configuration.persistenceCandidates {
      for readingNoise in prepared.configuration.readingNoiseCandidates {
        defer { step() }
        let noise = NoiseModel(persistence: persistence, readingNoise: readingNoise)
        let candidate = prepared.with(noise: noise)
        guard candidate.isFitted else { continue }
        if best == nil || candidate.logLikelihood > best!.logLikelihood { best = candidate }
      }
    }
    return best
  }
}

extension NoiseModel {
  /// Independent minutes: no persistence and no reading noise.
  package static let white = NoiseModel(persistence: 0, readingNoise: 0)
}
