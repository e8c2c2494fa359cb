import ResonanceModel

/// The seed's Song and Playlist aggregate fields, from the learning loop's per-context scores
/// (`docs/brain.md`, "The seed's entity fields").
package enum EntityScores {
  /// Every song with a per-context score or a feature estimate: its calm, focus and energy
  /// (activation) scores averaged over its contexts, each weighted by its plays there, and its
  /// energy, valence and familiarity estimates.
  package static func songs(effects: [SongEffect], features: [SongFeatureEstimate])
    -> [SongEntityScores]
  {
    var sums: [Int64: (calm: Double, focus: Double, energy: Double, plays: Int)] = [:]
    for e in effects where e.effect.sampleCount > 0 {
      let n = Double(e.effect.sampleCount)
      var s = sums[e.songID] ?? (0, 0, 0, 0)
      s.calm += e.effect.calm * n
      s.focus += e.effect.focus * n
      s.energy += e.effect.energy * n
      s.plays += e.effect.sampleCount
      sums[e.songID] = s
    }
    let featureByID = Dictionary(features.map { ($0.songID, $0) }, uniquingKeysWith: { a, _ in a })
    return Set(sums.keys).union(featureByID.keys).sorted().map { id in
      let s = sums[id]
      let n = Double(s?.plays ?? 0)
      let f = featureByID[id]
      return SongEntityScores(
        songID: id, calm: s.map { $0.calm / n }, focus: s.map { $0.focus / n },
        activation: s.map { $0.energy / n }, energy: f?.energy.value, valence: f?.valence.value,
        familiarity: f?.familiarity)
    }
  }

  /// Each playlist (its songs by id): the mean of its songs' calm, focus and activation
  /// scores over the songs that have one, and its songs' plays in sessions by context, as
  /// shares.
  package static func playlists(
    _ playlists: [Int64: [Int64]], songs: [SongEntityScores], sessions: [ListeningSession],
    songOfPlay: [Int64: Int64]
  ) -> [PlaylistEntityScores] {
    let scores = Dictionary(songs.map { ($0.songID, $0) }, uniquingKeysWith: { a, _ in a })
    var contextsOfSong: [Int64: [ActivityContext: Int]] = [:]
    for session in sessions {
      for play in session.playIDs {
        guard let song = songOfPlay[play] else { continue }
        contextsOfSong[song, default: [:]][session.context, default: 0] += 1
      }
    }
    return playlists.keys.sorted().map { id in
      let members = Array(Set(playlists[id] ?? [])).sorted()
      var counts: [ActivityContext: Int] = [:]
      for song in members {
        for (context, n) in contextsOfSong[song] ?? [:] { counts[context, default: 0] += n }
      }
      let total = Double(counts.values.reduce(0, +))
      return PlaylistEntityScores(
        playlistID: id, calm: Statistics.mean(members.map { scores[$0]?.calm }),
        focus: Statistics.mean(members.map { scores[$0]?.focus }),
        energy: Statistics.mean(members.map { scores[$0]?.activation }),
        contexts: counts.mapValues { Double($0) / total })
    }
  }
}
