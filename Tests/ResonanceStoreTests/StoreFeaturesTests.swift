import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Song features: reading the inputs, replacing song_features")
struct StoreFeaturesTests {
  /// A store with four songs and three plays: `a` (Dance, library BPM 126, 10 library plays,
  /// 2 history plays), `b` (Dance, no BPM, heard once), `c` (no genre, a BPM some other source
  /// wrote), `d` (Jazz, never played).
  static func store() throws -> Store {
    let store = try Store(path: ":memory:")
    try store.connection.transaction {
      let importID = try store.insertImport(
        ImportEntry(
          file: "library.json", sha256: String(repeating: "ab", count: 32),
          importer: "apple-music-library", status: .complete, records: 4, warnings: 0),
        bytes: 1, startedAt: 0, finishedAt: 0)
      let songs: [(String, String?, Double?, String?, Int)] = [
        ("a", "Dance", 126, "library", 10), ("b", "Dance", nil, nil, 0),
        ("c", nil, 90, "guess", 0), ("d", "Jazz", nil, nil, 0),
      ]
      for (title, genre, bpm, source, plays) in songs {
        try store.connection.execute(
          """
          INSERT INTO songs (identity_key, title, genre, bpm, bpm_source, play_count)
          VALUES (?, ?, ?, ?, ?, ?)
          """, ["title:\(title)|", title, genre, bpm, source, plays])
      }
      for (song, start) in [(1, 0), (1, 300_000), (2, 600_000)] {
        try store.connection.execute(
          """
          INSERT INTO playback_events (import_id, song_id, source, sources, start_ms,
            start_offset_s, offset_source, end_ms, end_offset_s, was_skipped)
          VALUES (?, ?, 'apple-music', 'apple-music', ?, 0, 'source', ?, 0, 0)
          """, [importID, song, start, start + 200_000])
      }
    }
    return store
  }

  static func row(
    _ id: Int64, bpm: Double, source: FeatureSource, familiarity: Double, sd: Double = 2.5
  ) -> SongFeatureEstimate {
    SongFeatureEstimate(
      songID: id, bpm: Estimate(value: bpm, sd: sd, source: source),
      energy: Estimate(value: 0.7, sd: 0.2, source: .genrePrior),
      valence: Estimate(value: 0.4, sd: 0.25, source: .fallback), familiarity: familiarity)
  }

  @Test("every song's genre, library BPM (library-sourced only), library count and history plays")
  func sources() throws {
    let sources = try Self.store().songFeatureSources()
    #expect(
      sources == [
        .init(songID: 1, genre: "Dance", libraryBPM: 126, libraryPlayCount: 10, historyPlays: 2),
        .init(songID: 2, genre: "Dance", libraryBPM: nil, libraryPlayCount: 0, historyPlays: 1),
        .init(songID: 3, genre: nil, libraryBPM: nil, libraryPlayCount: 0, historyPlays: 0),
        .init(songID: 4, genre: "Jazz", libraryBPM: nil, libraryPlayCount: 0, historyPlays: 0),
      ])
  }

  @Test("an empty store has no sources and no features")
  func empty() throws {
    let store = try Store(path: ":memory:")
    #expect(try store.songFeatureSources().isEmpty)
    try store.replaceSongFeatures([])
    #expect(try store.songFeatures().isEmpty)
  }

  @Test("rows round-trip, a second write replaces the first, and songs keeps its library BPM")
  func roundTrip() throws {
    let store = try Self.store()
    let first = [
      Self.row(1, bpm: 126, source: .library, familiarity: 1),
      Self.row(2, bpm: 124.5, source: .genreRidge, familiarity: 0.1),
      Self.row(3, bpm: 120, source: .fallback, familiarity: 0),
    ]
    try store.replaceSongFeatures(first)
    #expect(try store.songFeatures() == first)
    let second = [Self.row(4, bpm: 112, source: .genrePrior, familiarity: 0)]
    try store.replaceSongFeatures(second)
    #expect(try store.songFeatures() == second)
    let songs = try store.connection.rows("SELECT bpm, bpm_source FROM songs ORDER BY id")
    #expect(songs.map { $0[0].double } == [126, nil, 90, nil])
    #expect(songs.map { $0[1].string } == ["library", nil, "guess", nil])
  }

  @Test("inside the caller's transaction it joins it: a rollback undoes the write")
  func joinsTransaction() throws {
    let store = try Self.store()
    let kept = [Self.row(1, bpm: 126, source: .library, familiarity: 1)]
    try store.replaceSongFeatures(kept)
    struct Abort: Error {}
    #expect(throws: Abort.self) {
      try store.connection.transaction {
        try store.replaceSongFeatures([Self.row(2, bpm: 100, source: .genrePrior, familiarity: 0)]
        )
        #expect(try store.songFeatures().map(\.songID) == [2])
        throw Abort()
      }
    }
    #expect(try store.songFeatures() == kept)
    #expect(!store.connection.isInTransaction)
  }

  @Test(
    "a row the table refuses leaves the previous rows",
    arguments: [
      StoreFeaturesTests.row(1, bpm: 126, source: .library, familiarity: 0.5, sd: -1),
      StoreFeaturesTests.row(1, bpm: 126, source: .library, familiarity: 1.5),
      StoreFeaturesTests.row(99, bpm: 126, source: .library, familiarity: 0.5),
    ])
  func refused(_ bad: SongFeatureEstimate) throws {
    let store = try Self.store()
    let kept = [Self.row(1, bpm: 126, source: .library, familiarity: 1)]
    try store.replaceSongFeatures(kept)
    #expect(throws: StoreError.self) {
      try store.replaceSongFeatures([
        Self.row(2, bpm: 100, source: .genrePrior, familiarity: 0), bad,
      ])
    }
    #expect(try store.songFeatures() == kept)
  }
}
