import Foundation
import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite("analyze: song features")
struct AnalyzeFeaturesTests {
  /// Every song's estimates from what `store` holds, as `analyze` computes them.
  func songFeatures(_ store: Store) throws -> (
    rows: [SongFeatureEstimate], summary: SongFeatureSummary
  ) {
    let sources = try store.songFeatureSources()
    let rows = SongFeatureEstimator.estimate(sources)
    return (rows, SongFeatureEstimator.summary(sources, rows))
  }

  /// Checks what every run must give: one row per song, library BPMs kept exactly, estimates
  /// with an SD, familiarity in 0…1, and a summary that adds up.
  func checkInvariants(
    _ store: Store, _ rows: [SongFeatureEstimate], _ summary: SongFeatureSummary
  ) throws {
    let songs = try store.connection.rows(
      "SELECT id, bpm, bpm_source FROM songs ORDER BY id")
    #expect(rows.map(\.songID) == songs.map { $0.optionalInt64(0) ?? -1 })
    #expect(summary.songs == songs.count)
    #expect(
      summary.libraryBPM + summary.ridgeBPM + summary.priorBPM + summary.fallbackBPM
        == summary.songs)
    for (row, song) in zip(rows, songs) {
      if song[2].string == "library", let bpm = song[1].double {
        #expect(row.bpm.value == bpm && row.bpm.source == .library, "song \(row.songID)")
      } else {
        #expect(row.bpm.source != .library && row.bpm.sd > 0, "song \(row.songID)")
      }
      #expect(row.bpm.value.isFinite && row.bpm.sd > 0)
      #expect(row.energy.sd > 0 && row.valence.sd > 0)
      #expect((0...1).contains(row.energy.value) && (0...1).contains(row.valence.value))
      #expect((0...1).contains(row.familiarity), "song \(row.songID)")
    }
  }

  @Test("the listening fixtures: every song a row, the library's 128 BPM kept, reruns stable")
  func fixtures() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("f.sqlite")
    let result = runResonance(
      ["ingest"] + IngestListeningTests.all.map(listeningFixturePath) + ["--db", db, "-q"])
    #expect(result.status == .ok, "\(result.err)")
    let store = try Store(path: db)
    let (rows, summary) = try songFeatures(store)
    try checkInvariants(store, rows, summary)
    #expect(summary.songs == 6)
    #expect(summary.libraryBPM == 1)
    let glass = try #require(
      try store.connection.row("SELECT id FROM songs WHERE title = 'Glass, Houses'")?
        .optionalInt64(0))
    let row = try #require(rows.first { $0.songID == glass })
    #expect(row.bpm.value == 128 && row.bpm.source == .library && row.bpm.sd == 128 * 0.02)
    // 'Paper Lanterns' has the library's largest count (12).
    let lanterns = try #require(
      try store.connection.row("SELECT id FROM songs WHERE title = 'Paper Lanterns'")?
        .optionalInt64(0))
    #expect(rows.first { $0.songID == lanterns }?.familiarity == 1)

    // Writing the estimates and estimating again changes neither songs nor the estimates.
    let songsBefore = try store.connection.rows("SELECT * FROM songs ORDER BY id")
    try store.replaceSongFeatures(rows)
    #expect(try store.songFeatures() == rows)
    let again = try songFeatures(store)
    #expect(again.rows == rows && again.summary == summary)
    #expect(try store.connection.rows("SELECT * FROM songs ORDER BY id") == songsBefore)
  }

  @Test("a genre's library BPMs refine its other songs; history plays count toward familiarity")
  func ridgeAndHistory() throws {
    let store = try Store(path: ":memory:")
    try store.connection.transaction {
      let importID = try store.insertImport(
        ImportEntry(
          file: "history.json", sha256: String(repeating: "ef", count: 32),
          importer: "spotify-extended", status: .complete, records: 4, warnings: 0),
        bytes: 1, startedAt: 0, finishedAt: 0)
      // Dance with two library BPMs, a Dance song without one, Jazz without one, no genre.
      let songs: [(String?, Double?, Int)] = [
        ("Dance", 130, 4), ("Dance", 132, 0), ("Dance", nil, 0), ("Jazz", nil, 0), (nil, nil, 0),
      ]
      for (index, (genre, bpm, plays)) in songs.enumerated() {
        try store.connection.execute(
          """
          INSERT INTO songs (identity_key, title, genre, bpm, bpm_source, play_count)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
          ["title:\(index)|", "song \(index)", genre, bpm, bpm == nil ? nil : "library", plays])
      }
      // Eight history plays of the Jazz song, which no library lists.
      for start in 0..<8 {
        try store.connection.execute(
          """
          INSERT INTO playback_events (import_id, song_id, source, sources, start_ms,
            start_offset_s, offset_source, end_ms, end_offset_s, was_skipped)
          VALUES (?, 4, 'spotify', 'spotify', ?, 0, 'utc', ?, 0, 0)
          """, [importID, start * 300_000, start * 300_000 + 200_000])
      }
    }
    let (rows, summary) = try songFeatures(store)
    try checkInvariants(store, rows, summary)
    #expect(
      [summary.songs, summary.libraryBPM, summary.ridgeBPM, summary.priorBPM, summary.fallbackBPM]
        == [5, 2, 1, 1, 1] && summary.unknownGenre == 1)
    #expect(
      rows.map(\.bpm.source) == [.library, .library, .genreRidge, .genrePrior, .fallback])
    // The Dance prior is 124; two tags at 130 and 132 pull the third song's estimate up. Its SD
    // is a song's, not the genre mean's: the within-genre spread stays in it.
    #expect(rows[2].bpm.value > 124 && rows[2].bpm.value < 131 && rows[2].bpm.sd > 5)
    #expect(rows[4].energy.source == .fallback && rows[3].energy.source == .genrePrior)
    // The most plays is the Jazz song's 8 history plays; the first song's library 4 is half.
    #expect(rows.map(\.familiarity) == [0.5, 0, 0, 1, 0])
    try store.replaceSongFeatures(rows)
    #expect(try store.songFeatures() == rows)
  }
}
