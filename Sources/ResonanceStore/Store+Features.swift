import ResonanceModel

/// What song-feature estimation reads from the store, and where its estimates go
/// (`song_features`, `docs/schema.md`).
extension Store {
  /// Every song with its genre, library BPM, library play count and history plays, by ID.
  ///
  /// Only a BPM marked `library` is read as one, so nothing derived can pose as library data.
  ///
  /// - Complexity: one pass over `songs` and one grouped pass over `playback_events`.
  /// - Throws: `StoreError` when the query fails.
  package func songFeatureSources() throws(StoreError) -> [SongFeatureSource] {
    try connection.rows(
      """
      SELECT s.id, s.genre, CASE WHEN s.bpm_source = 'library' THEN s.bpm END, s.play_count,
        coalesce(p.plays, 0)
      FROM songs s
      LEFT JOIN (SELECT song_id, count(*) AS plays FROM playback_events GROUP BY song_id) p
        ON p.song_id = s.id
      ORDER BY s.id
      """
    ).map {
      SongFeatureSource(
        songID: $0.optionalInt64(0) ?? 0, genre: $0[1].string, libraryBPM: $0[2].double,
        libraryPlayCount: $0.int(3), historyPlays: $0.int(4))
    }
  }

  /// Replaces every row of `song_features` with `features`.
  ///
  /// Joins the caller's transaction when one is open on `connection` — call it inside
  /// `replaceAnalysis`'s so one run's tables change together — and otherwise runs in its own.
  ///
  /// - Throws: `StoreError` when a row breaks the table's constraints (an unknown source, a
  ///   negative SD, familiarity outside 0…1, a song that does not exist) or SQLite fails; in
  ///   its own transaction the table is then left as it was.
  package func replaceSongFeatures(_ features: [SongFeatureEstimate]) throws {
    guard connection.isInTransaction else {
      try connection.transaction { try replaceSongFeatures(features) }
      return
    }
    try connection.execute("DELETE FROM song_features")
    let insert = try connection.prepare(
      """
      INSERT INTO song_features (song_id, bpm, bpm_sd, bpm_source, energy, energy_sd,
        energy_source, valence, valence_sd, valence_source, familiarity)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    for f in features {
      try insert.execute([
        f.songID, f.bpm.value, f.bpm.sd, f.bpm.source.rawValue, f.energy.value, f.energy.sd,
        f.energy.source.rawValue, f.valence.value, f.valence.sd, f.valence.source.rawValue,
        f.familiarity,
      ])
    }
  }

  /// Every row of `song_features`, by song ID.
  ///
  /// - Throws: `StoreError` when the query fails.
  package func songFeatures() throws(StoreError) -> [SongFeatureEstimate] {
    try connection.rows(
      """
      SELECT song_id, bpm, bpm_sd, bpm_source, energy, energy_sd, energy_source, valence,
        valence_sd, valence_source, familiarity
      FROM song_features ORDER BY song_id
      """
    ).map { r throws(StoreError) in
      SongFeatureEstimate(
        songID: r.optionalInt64(0) ?? 0,
        bpm: Estimate(
          value: r[1].double ?? .nan, sd: r[2].double ?? .nan,
          source: try decoded(FeatureSource.self, r, 3)),
        energy: Estimate(
          value: r[4].double ?? .nan, sd: r[5].double ?? .nan,
          source: try decoded(FeatureSource.self, r, 6)),
        valence: Estimate(
          value: r[7].double ?? .nan, sd: r[8].double ?? .nan,
          source: try decoded(FeatureSource.self, r, 9)),
        familiarity: r[10].double ?? .nan)
    }
  }
}
