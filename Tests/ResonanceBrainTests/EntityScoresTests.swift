import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("the seed's Song and Playlist fields from the learning loop")
struct EntityScoresTests {
  static func effect(
    _ song: Int64, _ context: ActivityContext, calm: Double, energy: Double, plays: Int
  )
    -> SongEffect
  {
    SongEffect(
      songID: song, context: context,
      effect: LearnedSongEffect(
        calm: calm, energy: energy, focus: calm / 2, mood: 0, sampleCount: plays),
      updatedAtMs: 0)
  }

  static func feature(_ song: Int64, energy: Double) -> SongFeatureEstimate {
    SongFeatureEstimate(
      songID: song, bpm: Estimate(value: 100, sd: 5, source: .library),
      energy: Estimate(value: energy, sd: 0.1, source: .genrePrior),
      valence: Estimate(value: 0.5, sd: 0.1, source: .genrePrior), familiarity: 0.3)
  }

  @Test(
    "a song's scores are its per-context scores weighted by plays; its features come from the estimates"
  )
  func songs() throws {
    let scores = EntityScores.songs(
      effects: [
        Self.effect(1, .relax, calm: 0.6, energy: -0.2, plays: 3),
        Self.effect(1, .workout, calm: -0.2, energy: 0.6, plays: 1),
        Self.effect(2, .relax, calm: 0.9, energy: 0.9, plays: 0),
      ],
      features: [Self.feature(1, energy: 0.7), Self.feature(3, energy: 0.2)])
    // Song 2 has no plays behind its scores and no features: it gets nothing.
    #expect(scores.map(\.songID) == [1, 3])
    let one = scores[0]
    #expect(abs(try #require(one.calm) - 0.4) < 1e-12)
    #expect(abs(try #require(one.focus) - 0.2) < 1e-12)
    #expect(abs(try #require(one.activation) - 0.0) < 1e-12)
    #expect(one.energy == 0.7 && one.valence == 0.5 && one.familiarity == 0.3)
    // A song with features only has its features.
    #expect(scores[1].calm == nil && scores[1].energy == 0.2)
  }

  @Test(
    "a playlist's effects are its songs' mean scores, and its contexts the shares of its songs' plays"
  )
  func playlists() throws {
    let songs = [
      SongEntityScores(
        songID: 1, calm: 0.4, focus: 0.2, activation: 0, energy: nil, valence: nil, familiarity: nil
      ),
      SongEntityScores(
        songID: 2, calm: 0.8, focus: nil, activation: 0.5, energy: nil, valence: nil,
        familiarity: nil),
    ]
    let start = Timestamp(millisecondsSinceEpoch: 0)
    let sessions = [
      ListeningSession(
        playIDs: [10, 11, 12], start: start, endMs: 1, context: .relax, skipRate: 0, engagement: nil
      ),
      ListeningSession(
        playIDs: [13], start: start, endMs: 1, context: .commute, skipRate: 0, engagement: nil),
    ]
    let scores = EntityScores.playlists(
      [7: [1, 2, 3], 8: []], songs: songs, sessions: sessions,
      songOfPlay: [10: 1, 11: 2, 12: 9, 13: 1])
    #expect(scores.map(\.playlistID) == [7, 8])
    #expect(abs(try #require(scores[0].calm) - 0.6) < 1e-12)
    #expect(scores[0].focus == 0.2 && scores[0].energy == 0.25)
    #expect(scores[0].contexts == [.relax: 2.0 / 3, .commute: 1.0 / 3])
    #expect(scores[1].calm == nil && scores[1].contexts.isEmpty)
  }
}
