import Foundation

/// What the app has learned about one song in one context: four EMA-updated scores in −1 … 1
/// and how many plays stand behind them.
package struct LearnedSongEffect: Sendable, Equatable, Codable {
  package var calm: Double = 0
  package var energy: Double = 0
  package var focus: Double = 0
  package var mood: Double = 0
  package var sampleCount: Int = 0

  package init() {}

  package init(calm: Double, energy: Double, focus: Double, mood: Double, sampleCount: Int) {
    self.calm = calm
    self.energy = energy
    self.focus = focus
    self.mood = mood
    self.sampleCount = sampleCount
  }

  /// The score that matters for `need`.
  package func score(for need: Need) -> Double {
    switch need {
    case .calm: calm
    case .energy: energy
    case .focus: focus
    case .moodLift: mood
    }
  }
}

/// The seed's SongEffect: what the learning loop, replayed over the history, learned about one
/// song in one context (`song_effects`).
package struct SongEffect: Sendable, Equatable {
  package var songID: Int64
  package var context: ActivityContext
  package var effect: LearnedSongEffect
  /// When the last play behind it started, UTC milliseconds.
  package var updatedAtMs: Int64

  package init(
    songID: Int64, context: ActivityContext, effect: LearnedSongEffect, updatedAtMs: Int64
  ) {
    self.songID = songID
    self.context = context
    self.effect = effect
    self.updatedAtMs = updatedAtMs
  }
}

/// One song's effect on one signal while it plays, relative to the person's average minute of
/// music, with its 90% interval (`song_effect_estimates`).
///
/// Units are the signal's: bpm for heart rate, ms of SDNN for HRV.
package struct SongEffectEstimate: Sendable, Equatable {
  package var songID: Int64
  package var signal: Signal
  /// Plays whose music entered a measured minute.
  package var plays: Int
  /// Summed exposure: about the minutes the song was measured at full effect.
  package var minutes: Double
  /// The estimate from the almost unpenalised fit (what the data alone say).
  package var unpooled: Double
  /// The song's genre mean, on the same relative scale.
  package var genreMean: Double
  /// The shrunken estimate, its standard deviation and its 90% interval.
  package var estimate: Double
  package var sd: Double
  package var low90: Double
  package var high90: Double
  /// The standard deviation of `unpooled` (the fit's, before any shrinkage); nil in an
  /// estimate read back from the store, which does not keep it.
  package var unpooledSD: Double?

  package init(
    songID: Int64, signal: Signal, plays: Int, minutes: Double, unpooled: Double,
    genreMean: Double, estimate: Double, sd: Double, low90: Double, high90: Double,
    unpooledSD: Double? = nil
  ) {
    self.unpooledSD = unpooledSD
    self.songID = songID
    self.signal = signal
    self.plays = plays
    self.minutes = minutes
    self.unpooled = unpooled
    self.genreMean = genreMean
    self.estimate = estimate
    self.sd = sd
    self.low90 = low90
    self.high90 = high90
  }

  /// Whether the 90% interval leaves out zero (the person's average music).
  package var isDistinguishableFromZero: Bool { low90 > 0 || high90 < 0 }

  /// The chance the effect is below 0 under the model's normal empirical-Bayes posterior
  /// (mean `estimate`, standard deviation `sd`): Φ(−estimate / sd).
  package var probabilityBelowZero: Double {
    guard sd > 0 else { return estimate < 0 ? 1 : 0 }
    return 0.5 * erfc(estimate / (sd * 2.0.squareRoot()))
  }
}

/// One song's effect on one signal in one context (`song_context_effect_estimates`): the
/// song-response model fitted with a column per song and context, each pulled toward the
/// song's overall effect by the spread the contexts show beyond their noise
/// (`SongResponseModel.contextEffects`, `docs/brain.md`). Same units and scale as
/// `SongEffectEstimate`: relative to the person's average minute of music.
package struct SongContextEffectEstimate: Sendable, Equatable {
  package var songID: Int64
  package var signal: Signal
  package var context: ActivityContext
  /// Plays in the context whose music entered a measured minute, and their summed exposure.
  package var plays: Int
  package var minutes: Double
  /// The context's own estimate before shrinkage, and the song's overall estimate it is
  /// pulled toward.
  package var unpooled: Double
  package var overall: Double
  /// The shrunken estimate, its standard deviation and its 90% interval.
  package var estimate: Double
  package var sd: Double
  package var low90: Double
  package var high90: Double

  package init(
    songID: Int64, signal: Signal, context: ActivityContext, plays: Int, minutes: Double,
    unpooled: Double, overall: Double, estimate: Double, sd: Double, low90: Double,
    high90: Double
  ) {
    self.songID = songID
    self.signal = signal
    self.context = context
    self.plays = plays
    self.minutes = minutes
    self.unpooled = unpooled
    self.overall = overall
    self.estimate = estimate
    self.sd = sd
    self.low90 = low90
    self.high90 = high90
  }
}

/// The noise model of a song-response fit: minute-to-minute persistence φ of the AR(1) state
/// and the reading noise's share λ of its variance.
package struct NoiseModel: Sendable, Equatable, Codable {
  package var persistence: Double
  package var readingNoise: Double

  package init(persistence: Double, readingNoise: Double) {
    self.persistence = persistence
    self.readingNoise = readingNoise
  }
}

/// One signal's song-response fit: every song's estimate and what the fit chose
/// (`docs/brain.md`, "Song effects").
package struct SongResponseFit: Sendable, Equatable, Codable {
  package var signal: Signal
  /// Songs with their own column, by song id (empty in a fit read back from the store, whose
  /// estimates are in `song_effect_estimates`).
  package var estimates: [SongEffectEstimate] = []
  /// Songs estimated, and those whose 90% interval leaves out zero.
  package var songs: Int
  package var distinguishable: Int
  /// The response lag τ the data chose, minutes.
  package var lagMinutes: Double
  /// Measured minutes, the blocks and sessions they fell in.
  package var minutes: Int
  package var blocks: Int
  package var sessions: Int
  /// The noise model the restricted likelihood chose.
  package var noise: NoiseModel
  /// σ (of the whitened minutes, before the design effect) and the design effect κ.
  package var noiseSD: Double
  package var designEffect: Double
  /// The spread of songs' effects within a genre beyond their noise (√μ₂), and of the genre
  /// means.
  package var songSD: Double
  package var genreSD: Double
  /// The nuisance coefficients: moving (share of the minute), a meeting, a work Focus.
  package var moving: Double
  package var meeting: Double
  package var workFocus: Double

  package init(
    signal: Signal, estimates: [SongEffectEstimate], lagMinutes: Double, minutes: Int,
    blocks: Int, sessions: Int, noise: NoiseModel, noiseSD: Double, designEffect: Double,
    songSD: Double, genreSD: Double, moving: Double, meeting: Double, workFocus: Double
  ) {
    self.signal = signal
    self.estimates = estimates
    songs = estimates.count
    distinguishable = estimates.filter(\.isDistinguishableFromZero).count
    self.lagMinutes = lagMinutes
    self.minutes = minutes
    self.blocks = blocks
    self.sessions = sessions
    self.noise = noise
    self.noiseSD = noiseSD
    self.designEffect = designEffect
    self.songSD = songSD
    self.genreSD = genreSD
    self.moving = moving
    self.meeting = meeting
    self.workFocus = workFocus
  }

  enum CodingKeys: String, CodingKey {
    case signal, songs, distinguishable, lagMinutes, minutes, blocks, sessions, noise, noiseSD
    case designEffect, songSD, genreSD, moving, meeting, workFocus
  }
}

/// The seed's Song entity fields the learning loop fills (`songs.calm_score`, …): each song's
/// per-context scores pooled over contexts, and its feature estimates (`docs/brain.md`,
/// "The seed's entity fields").
package struct SongEntityScores: Sendable, Equatable {
  package var songID: Int64
  /// The `song_effects` scores averaged over contexts, weighted by plays; nil with no plays.
  package var calm: Double?
  package var focus: Double?
  /// The energy score, as the seed's `activationScore`.
  package var activation: Double?
  /// From `song_features`.
  package var energy: Double?
  package var valence: Double?
  package var familiarity: Double?

  package init(
    songID: Int64, calm: Double?, focus: Double?, activation: Double?, energy: Double?,
    valence: Double?, familiarity: Double?
  ) {
    self.songID = songID
    self.calm = calm
    self.focus = focus
    self.activation = activation
    self.energy = energy
    self.valence = valence
    self.familiarity = familiarity
  }
}

/// The seed's Playlist entity fields: its songs' mean calm, focus and energy scores, and where
/// its songs were played (context → share of their plays in sessions).
package struct PlaylistEntityScores: Sendable, Equatable {
  package var playlistID: Int64
  package var calm: Double?
  package var focus: Double?
  package var energy: Double?
  /// Per context, the share of the playlist's songs' plays in sessions of it (0 … 1).
  package var contexts: [ActivityContext: Double]

  /// A playlist's scores from their parts, as described on each property.
  package init(
    playlistID: Int64, calm: Double?, focus: Double?, energy: Double?,
    contexts: [ActivityContext: Double]
  ) {
    self.playlistID = playlistID
    self.calm = calm
    self.focus = focus
    self.energy = energy
    self.contexts = contexts
  }
}
