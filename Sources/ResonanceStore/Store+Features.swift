/// What song-feature estimation reads from the store, and where its estimates go
/// (`song_features`, `docs/schema.md`).
extension Store {
  /// What the store knows about one song that feature estimation uses.
  package struct SongFeatureSource: Sendable, Equatable {
    package var songID: Int64
    /// The genre as the library or history spells it; `nil` when no source named one.
    package var genre: String?
    /// `songs.bpm` when a library file gave it (`bpm_source` `library`), else `nil`.
    package var libraryBPM: Double?
    /// The library's play count (`songs.play_count`), 0 when no library lists the song.
    package var libraryPlayCount: Int
    /// The song's plays in the imported listening history (`playback_events`).
    package var historyPlays: Int

    package init(
      songID: Int64, genre: String?, libraryBPM: Double?, libraryPlayCount: Int,
      historyPlays: Int
    ) {
      self.songID = songID
      self.genre = genre
      self.libraryBPM = libraryBPM
      self.libraryPlayCount = libraryPlayCount
      self.historyPlays = historyPlays
    }
  }

  /// One song's row of `song_features`: each feature's value, SD and source, and familiarity.
  ///
  /// Sources are `FeatureSource` raw values (`library`, `genre-ridge`, `genre-prior`,
  /// `fallback`); the table's CHECK constraints refuse anything else. SDs are ≥ 0 and
  /// familiarity is in 0…1.
  package struct SongFeatureRow: Sendable, Equatable {
    package var songID: Int64
    package var bpm, bpmSD: Double
    package var bpmSource: String
    package var energy, energySD: Double
    package var energySource: String
    package var valence, valenceSD: Double
    package var valenceSource: String
    package var familiarity: Double

    package init(
      songID: Int64, bpm: Double, bpmSD: Double, bpmSource: String, energy: Double,
      energySD: Double, energySource: String, valence: Double, valenceSD: Double,
      valenceSource: String, familiarity: Double
    ) {
      self.songID = songID
      self.bpm = bpm
      self.bpmSD = bpmSD
      self.bpmSource = bpmSource
      self.energy = energy
      self.energySD = energySD
      self.energySource = energySource
      self.valence = valence
      self.valenceSD = valenceSD
      self.valenceSource = valenceSource
      self.familiarity = familiarity
    }
  }

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

  /// Replaces every row of `song_features` with `rows`.
  ///
  /// Joins the caller's transaction when one is open on `connection` — call it inside
  /// `replaceAnalysis`'s so one run's tables change together — and otherwise runs in its own.
  ///
  /// - Throws: `StoreError` when a row breaks the table's constraints (an unknown source, a
  ///   negative SD, familiarity outside 0…1, a song that does not exist) or SQLite fails; in
  ///   its own transaction the table is then left as it was.
  package func replaceSongFeatures(_ rows: [SongFeatureRow]) throws {
    guard connection.isInTransaction else {
      try connection.transaction { try replaceSongFeatures(rows) }
      return
    }
    try connection.execute("DELETE FROM song_features")
    let insert = try connection.prepare(
      """
      INSERT INTO song_features (song_id, bpm, bpm_sd, bpm_source, energy, energy_sd,
        energy_source, valence, valence_sd, valence_source, familiarity)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    for r in rows {
      try insert.execute([
        r.songID, r.bpm, r.bpmSD, r.bpmSource, r.energy, r.energySD, r.energySource, r.valence,
        r.valenceSD, r.valenceSource, r.familiarity,
      ])
    }
  }

  /// Every row of `song_features`, by song ID.
  ///
  /// - Throws: `StoreError` when the query fails.
  package func songFeatures() throws(StoreError) -> [SongFeatureRow] {
    try connection.rows(
      """
      SELECT song_id, bpm, bpm_sd, bpm_source, energy, energy_sd, energy_source, valence,
        valence_sd, valence_source, familiarity
      FROM song_features ORDER BY song_id
      """
    ).map {
      SongFeatureRow(
        songID: $0.optionalInt64(0) ?? 0, bpm: $0[1].double ?? .nan, bpmSD: $0[2].double ?? .nan,
        bpmSource: $0.string(3), energy: $0[4].double ?? .nan, energySD: $0[5].double ?? .nan,
        energySource: $0.string(6), valence: $0[7].double ?? .nan,
        valenceSD: $0[8].double ?? .nan, valenceSource: $0.string(9),
        familiarity: $0[10].double ?? .nan)
    }
  }
}
