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
    try connection.fetch(
      SongFeatureSource.self,
      """
      SELECT s.id, s.genre, CASE WHEN s.bpm_source = 'library' THEN s.bpm END AS library_bpm,
        s.play_count, coalesce(p.plays, 0) AS history_plays
      FROM songs s
      LEFT JOIN (SELECT song_id, count(*) AS plays FROM playback_events GROUP BY song_id) p
        ON p.song_id = s.id
      ORDER BY s.id
      """)
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
    try connection.fetch(
      SongFeatureEstimate.self,
      """
      SELECT song_id, bpm, bpm_sd, bpm_source, energy, energy_sd, energy_source, valence,
        valence_sd, valence_source, familiarity
      FROM song_features ORDER BY song_id
      """)
  }
}

extension SongFeatureSource: RowDecodable {
  /// A song as `songFeatureSources()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      songID: row.int64("id") ?? 0, genre: row.text("genre"),
      libraryBPM: row.double("library_bpm"), libraryPlayCount: row.int("play_count"),
      historyPlays: row.int("history_plays"))
  }
}

extension SongFeatureEstimate: RowDecodable {
  /// A `song_features` row as `songFeatures()` selects it.
  ///
  /// - Throws: `StoreError` when a source is not a `FeatureSource`.
  package init(row: Row) throws(StoreError) {
    func estimate(_ value: String, sd: String, source: String) throws(StoreError) -> Estimate {
      Estimate(
        value: row.double(value) ?? .nan, sd: row.double(sd) ?? .nan,
        source: try row.decoded(FeatureSource.self, source))
    }
    self.init(
      songID: row.int64("song_id") ?? 0,
      bpm: try estimate("bpm", sd: "bpm_sd", source: "bpm_source"),
      energy: try estimate("energy", sd: "energy_sd", source: "energy_source"),
      valence: try estimate("valence", sd: "valence_sd", source: "valence_source"),
      familiarity: row.double("familiarity") ?? .nan)
  }
}
