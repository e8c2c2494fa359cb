import ResonanceModel

/// A song the decision engine may choose, with what the scorer needs to know about it.
package struct Candidate: Sendable, Equatable {
  /// The song's library identifier; a candidate without one is rejected by the guard filters.
  package var songID: String?
  package var artist: String
  package var features: SongFeatures
  /// Plays so far (for familiarity).
  package var playCount: Int
  /// The learned effect for the current need and context, −1 (worked against) … 1 (worked);
  /// `nil` when nothing has been learned yet.
  package var learnedEffect: Double?
  /// When the song last played, UTC milliseconds; `nil` when never.
  package var lastPlayedAtMs: Int64?

  package init(
    songID: String?, artist: String, features: SongFeatures, playCount: Int,
    learnedEffect: Double?, lastPlayedAtMs: Int64?
  ) {
    self.songID = songID
    self.artist = artist
    self.features = features
    self.playCount = playCount
    self.learnedEffect = learnedEffect
    self.lastPlayedAtMs = lastPlayedAtMs
  }
}

/// The moment of a decision: what the person needs, where they are, what just played.
package struct DecisionMoment: Sendable, Equatable {
  package var need: Need
  package var context: ActivityContext
  /// UTC milliseconds.
  package var nowMs: Int64
  /// Local hour of day with fraction, 0 ≤ h < 24, in the offset the person lives in.
  package var localHour: Double
  /// Stress, 0 … 1, from the state engine.
  package var stress: Double
  /// The song that played last in this session, if any, for the transition blend.
  package var previous: SongFeatures?
  /// Artists of the most recent plays, newest first (for the same-artist limit).
  package var recentArtists: [String]
  /// The largest play count in the library (for familiarity's normalisation).
  package var maxPlayCount: Int

  package init(
    need: Need, context: ActivityContext, nowMs: Int64, localHour: Double, stress: Double,
    previous: SongFeatures?, recentArtists: [String], maxPlayCount: Int
  ) {
    self.need = need
    self.context = context
    self.nowMs = nowMs
    self.localHour = localHour
    self.stress = stress
    self.previous = previous
    self.recentArtists = recentArtists
    self.maxPlayCount = maxPlayCount
  }
}
