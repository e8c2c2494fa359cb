import ResonanceLinear
import ResonanceModel

/// The ridge fit of this person's tempo per genre, from the songs whose BPM the library gives.
package struct GenreTempoFit: Sendable, Equatable {
  /// One fitted genre.
  package struct Genre: Sendable, Equatable {
    package var genre: FeatureGenre
    /// Songs of this genre with a usable library BPM.
    package var libraryBPMs: Int
    package var prior: FeaturePrior
    /// The ridge penalty λ = σ̂² / τ², τ the prior SD.
    package var lambda: Double
    /// Posterior mean tempo: prior mean + the fitted shift.
    package var estimate: Double
    /// Posterior SD of that tempo, √(σ̂²·(n + λ)⁻¹).
    package var sd: Double
  }

  /// The genres with at least one usable library BPM, in the prior table's order.
  package var genres: [Genre]
  /// σ̂, the within-genre spread of library BPMs the fit assumes (see
  /// `SongFeatureEstimator.fitGenreTempos`); `nil` when no genre has a library BPM.
  package var residualSD: Double?

  /// The fit of `genre`, when it had library BPMs.
  package func fit(for genre: FeatureGenre) -> Genre? {
    genres.first { $0.genre == genre }
  }
}

/// Per-song tempo, energy and valence estimates with their uncertainty, from genre priors
/// refined by the person's own library BPMs (`docs/brain.md`, "Song features").
///
/// - **BPM.** A song whose library file gives a plausible BPM (30…300) keeps it: source
///   `library`, SD 2 % of the tempo (half the ±4 % window within which tempo estimators are
///   usually counted as agreeing). Otherwise, when its genre has library BPMs among the songs
///   given, the genre's ridge estimate (`genre-ridge`); when it has none, the genre's prior
///   (`genre-prior`); without a recognised genre, the `unknown genre` prior (`fallback`). BPMs
///   outside 30…300 are treated as absent (a mistyped tag, not music).
/// - **Energy, valence.** No library file gives them, so they are the genre's prior (or the
///   fallback's), whatever the genre's tempo did: Spotify defines energy from dynamic range,
///   loudness, timbre, onset rate and entropy, not tempo, and no figure for a within-genre
///   tempo–energy link is firm enough to build on.
/// - **Familiarity.** `Familiarity.score` against the largest play count among the songs.
package enum SongFeatureEstimator {
  /// Library BPMs outside this range are ignored.
  package static let plausibleBPM: ClosedRange<Double> = 30...300
  /// A library BPM's SD, as a fraction of the BPM.
  package static let libraryBPMRelativeSD = 0.02
  /// ν₀: how many degrees of freedom the prior guess of the within-genre spread is worth in σ̂².
  package static let spreadPriorDegreesOfFreedom = 4.0

  /// Every song's estimates, in the order given.
  ///
  /// A song's play count is the larger of its library count and its plays in the imported
  /// history: the library's counter already includes most of the history's Apple Music
  /// plays, so adding them would count a listen twice, while a song heard only on Spotify has
  /// no library count at all (`docs/brain.md`, "Familiarity").
  ///
  /// - Complexity: O(songs) plus the ridge fit's LAPACK solve over the genres.
  package static func estimate(_ songs: [SongFeatureSource]) -> [SongFeatureEstimate] {
    let tempos = fitGenreTempos(songs)
    let maxPlayCount = songs.map(playCount).max() ?? 0
    return songs.map { song in
      let genre = GenreFeaturePriors.normalise(song.genre)
      let prior = GenreFeaturePriors.prior(for: genre)
      let priorSource: FeatureSource = genre == .unknown ? .fallback : .genrePrior

      let bpm: Estimate
      if let library = usableBPM(song.libraryBPM) {
        bpm = Estimate(value: library, sd: libraryBPMRelativeSD * library, source: .library)
      } else if genre != .unknown, let fit = tempos.fit(for: genre),
        let spread = tempos.residualSD
      {
        // A song is its genre's mean plus its own departure: the predictive SD adds the
        // within-genre spread to the mean's uncertainty.
        bpm = Estimate(
          value: fit.estimate, sd: (spread * spread + fit.sd * fit.sd).squareRoot(),
          source: .genreRidge)
      } else {
        bpm = Estimate(value: prior.bpm.mean, sd: prior.bpm.sd, source: priorSource)
      }
      return SongFeatureEstimate(
        songID: song.songID, bpm: bpm,
        energy: Estimate(value: prior.energy.mean, sd: prior.energy.sd, source: priorSource),
        valence: Estimate(value: prior.valence.mean, sd: prior.valence.sd, source: priorSource),
        familiarity: Familiarity.score(playCount: playCount(song), maxPlayCount: maxPlayCount))
    }
  }

  /// The ridge fit of the person's tempo per genre.
  ///
  /// Model: a library BPM of genre g is μ_g + β_g + ε, ε ~ N(0, σ²), with the prior
  /// β_g ~ N(0, τ_g²), μ_g and τ_g the prior table's mean and SD. So the residuals BPM − μ_g are
  /// regressed on genre indicators (no intercept: a genre without library BPMs keeps its prior
  /// exactly) with penalty λ_g = σ̂²/τ_g² through `RidgeRegression` (LAPACK); the posterior is
  /// μ_g + β̂_g = μ_g + Σ(BPM − μ_g)/(n_g + λ_g) with SD √(σ̂²/(n_g + λ_g)) — the prior counts
  /// as λ_g songs, and a genre with many library BPMs moves to their mean with a small SD.
  ///
  /// σ̂² pools the within-genre sum of squares around each genre's library mean (n − G degrees
  /// of freedom) with the prior guess σ₀² (the mean prior BPM variance of the songs' genres),
  /// worth ν₀ = 4 degrees of freedom: σ̂² = (SS + ν₀σ₀²)/(n − G + ν₀). It never collapses to 0
  /// on a few identical tags, and follows the person's own spread once there are dozens.
  package static func fitGenreTempos(_ songs: [SongFeatureSource]) -> GenreTempoFit {
    var byGenre: [FeatureGenre: [Double]] = [:]
    for song in songs {
      let genre = GenreFeaturePriors.normalise(song.genre)
      guard genre != .unknown, let bpm = usableBPM(song.libraryBPM) else { continue }
      byGenre[genre, default: []].append(bpm)
    }
    let genres = FeatureGenre.allCases.filter { byGenre[$0] != nil }
    guard !genres.isEmpty else { return GenreTempoFit(genres: [], residualSD: nil) }
    let priors = genres.map { GenreFeaturePriors.prior(for: $0).bpm }

    var withinSS = 0.0
    var priorVarianceSum = 0.0
    var n = 0
    for (genre, prior) in zip(genres, priors) {
      let bpms = byGenre[genre]!
      let mean = bpms.reduce(0, +) / Double(bpms.count)
      withinSS += bpms.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
      priorVarianceSum += Double(bpms.count) * prior.sd * prior.sd
      n += bpms.count
    }
    let nu0 = spreadPriorDegreesOfFreedom
    let sigma2 =
      (withinSS + nu0 * priorVarianceSum / Double(n)) / (Double(n - genres.count) + nu0)
    let lambdas = priors.map { sigma2 / ($0.sd * $0.sd) }

    var x = Matrix(rows: n, columns: genres.count)
    var residuals: [Double] = []
    residuals.reserveCapacity(n)
    var row = 0
    for (column, (genre, prior)) in zip(genres, priors).enumerated() {
      for bpm in byGenre[genre]! {
        x[row, column] = 1
        residuals.append(bpm - prior.mean)
        row += 1
      }
    }

    // Every λ is positive, so the system is positive definite; should LAPACK still refuse, the
    // genres keep their priors (and `estimate` labels them `genre-prior`).
    guard
      let fit = try? RidgeRegression.fit(
        X: x, y: residuals, penalties: lambdas, intercept: false, noiseVariance: sigma2)
    else { return GenreTempoFit(genres: [], residualSD: sigma2.squareRoot()) }

    let sds = fit.standardErrors
    return GenreTempoFit(
      genres: genres.indices.map { j in
        GenreTempoFit.Genre(
          genre: genres[j], libraryBPMs: byGenre[genres[j]]!.count, prior: priors[j],
          lambda: lambdas[j], estimate: priors[j].mean + fit.coefficients[j], sd: sds[j])
      },
      residualSD: sigma2.squareRoot())
  }

  /// The BPM when it is a plausible tempo, else `nil`.
  static func usableBPM(_ bpm: Double?) -> Double? {
    guard let bpm, bpm.isFinite, plausibleBPM.contains(bpm) else { return nil }
    return bpm
  }
}

extension SongFeatureEstimator {
  /// How `estimates` (one per song, in the order of `songs`) got their tempo.
  package static func summary(
    _ songs: [SongFeatureSource], _ estimates: [SongFeatureEstimate]
  ) -> SongFeatureSummary {
    var summary = SongFeatureSummary()
    summary.songs = estimates.count
    for (song, e) in zip(songs, estimates) {
      switch e.bpm.source {
      case .library: summary.libraryBPM += 1
      case .genreRidge: summary.ridgeBPM += 1
      case .genrePrior: summary.priorBPM += 1
      case .fallback: summary.fallbackBPM += 1
      }
      if GenreFeaturePriors.normalise(song.genre) == .unknown { summary.unknownGenre += 1 }
    }
    return summary
  }

  /// The play count familiarity is measured with: the larger of the library's and the
  /// history's.
  static func playCount(_ song: SongFeatureSource) -> Int {
    max(song.libraryPlayCount, song.historyPlays)
  }
}
