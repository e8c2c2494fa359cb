import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

@Suite("ingest: ListenBrainz listens beside the other histories")
struct IngestListenBrainzTests {
  /// The zip ListenBrainz's export page gives: a file per month, the user file, feedback.
  static func exportZip(in folder: TemporaryFolder) throws -> String {
    // ListenBrainz names the zip after the account (`listenbrainz_USER_TIME.zip`), and the
    // ledger keeps a path as given (docs/privacy.md): the tests import it renamed.
    let path = folder.file("listenbrainz-export.zip")
    let zip = try ZipWriter(path: path, modificationTime: 0)
    for name in [
      "user.json", "listens/2024/3.jsonl", "listens/2024/4.jsonl", "feedback.jsonl",
    ] {
      try zip.add(name: name, contentsOfFile: listeningFixturePath("listenbrainz/\(name)"))
    }
    try zip.close()
    return path
  }

  /// Every play, as `title|sources|source|skipped|played|start`, in start order.
  static func plays(_ db: String) throws -> [String] {
    try Store(path: db).connection.rows(
      """
      SELECT s.title, p.sources, p.source, p.was_skipped, p.played_ms, p.start_ms
      FROM playback_events p JOIN songs s ON s.id = p.song_id ORDER BY p.start_ms, s.title
      """
    ).map { row in
      [
        row.string("title"), row.string("sources"), row.string("source"),
        "\(row.int("was_skipped"))", row["played_ms"].int64.map(String.init) ?? "-",
        "\(row.int("start_ms"))",
      ].joined(separator: "|")
    }
  }

  /// Imports `paths` one command each, in order, into a new store; returns its path.
  static func ingest(_ paths: [String], in folder: TemporaryFolder) -> String {
    let db = folder.file("\(UUID().uuidString).sqlite")
    for path in paths {
      let result = runResonance(["ingest", path, "--db", db, "-q"])
      #expect(result.status == .ok, "\(path): \(result.err)")
    }
    return db
  }

  @Test(
    "beside Spotify's and Apple's histories: one song per real song, one play per listen, the higher-ranked source deciding"
  )
  func acrossSources() throws {
    let folder = try TemporaryFolder()
    let zip = try Self.exportZip(in: folder)
    let files = [
      listeningFixturePath("play-activity-quirks.csv"),
      listeningFixturePath("spotify-extended.json"), zip,
      listeningFixturePath("listenbrainz-export.json"), listeningFixturePath("library-tracks.json"),
    ]
    let db = Self.ingest(files, in: folder)
    let plays = try Self.plays(db)
    // Apple Music's 8 plays and Spotify's 4, and the 4 listens no other history reports; the
    // other 6 listens merged into Apple's or Spotify's play, and 3 repeats were not stored.
    #expect(plays.count == 16, "\(plays)")
    let merged = plays.filter { $0.contains("listenbrainz") && $0.contains(",") }
    #expect(
      merged == [
        "Paper Lanterns|apple-music,listenbrainz|apple-music|0|200000|1710057600000",
        "Paper Lanterns|listenbrainz,spotify|spotify|0|200000|1710180000000",
        "Glass, Houses|listenbrainz,spotify|spotify|1|12000|1710180200000",
        "Ember|listenbrainz,spotify|spotify|1|95000|1710183505000",
        "Ember|listenbrainz,spotify|spotify|0|30000|1710184170000",
      ], "\(plays)")
    // Listens of songs no other source played: ListenBrainz's own, played time unknown.
    #expect(
      plays.filter { $0.contains("|listenbrainz|listenbrainz|") } == [
        "Nuit étoilée|listenbrainz|listenbrainz|0|-|1710190000000",
        "夜に駆ける|listenbrainz|listenbrainz|0|-|1710193600000",
        "Café del Mar|listenbrainz|listenbrainz|0|-|1710200000000",
        "Quiet Engine|listenbrainz|listenbrainz|0|-|1712044800000",
      ])

    let store = try Store(path: db)
    // One song per real song: the Spotify URI and the MusicBrainz ID on the one Paper
    // Lanterns, which Apple's artistless rows resolved to.
    let lanterns = try store.connection.rows(
      "SELECT artist, spotify_uri, musicbrainz_recording_id FROM songs WHERE title = 'Paper Lanterns'"
    )
    #expect(lanterns.count == 1)
    #expect(lanterns.first?.text("artist") == "Lumen Drift")
    #expect(lanterns.first?.text("spotify_uri") == "spotify:track:4uLU6hMCjMI75M1A2tKUQC")
    #expect(
      lanterns.first?.text("musicbrainz_recording_id") == "3f4b8c2e-5d6a-4b7c-8d9e-0a1b2c3d4e5f")
    for title in ["Glass, Houses", "Ember", "Quiet Engine"] {
      #expect(
        try store.connection.row("SELECT COUNT(*) AS n FROM songs WHERE title = ?", [title])?
          .int("n") == 1, "\(title)")
    }
    // Apple's Quiet Engine rows, artistless, took the artist ListenBrainz named.
    #expect(
      try store.connection.row(
        """
        SELECT COUNT(*) AS n FROM playback_events p JOIN songs s ON s.id = p.song_id
        WHERE s.title = 'Quiet Engine' AND s.artist = 'Signal & Noise'
        """)?.int("n") == 4)
  }

  @Test("the order the files arrive in does not change the plays")
  func orderIndependence() throws {
    let folder = try TemporaryFolder()
    let zip = try Self.exportZip(in: folder)
    let files = [
      listeningFixturePath("play-activity-quirks.csv"),
      listeningFixturePath("spotify-extended.json"), zip,
      listeningFixturePath("listenbrainz-export.json"), listeningFixturePath("library-tracks.json"),
    ]
    let forward = try Self.plays(Self.ingest(files, in: folder))
    #expect(try Self.plays(Self.ingest(files.reversed(), in: folder)) == forward)
    #expect(
      try Self.plays(Self.ingest([files[2], files[4], files[0], files[3], files[1]], in: folder))
        == forward)
  }

  @Test("repeats are stored once, in one month and across the months; bad lines are warnings")
  func repeatsAndWarnings() throws {
    let folder = try TemporaryFolder()
    let zip = try Self.exportZip(in: folder)
    let db = folder.file("r.sqlite")
    let result = runResonance(["ingest", zip, "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let imports = try #require(summary["imports"] as? [[String: Any]])
    #expect(
      imports.map { $0["importer"] as? String } == ["listenbrainz-listens", "listenbrainz-listens"])
    #expect(imports.map { $0["plays_added"] as? Int } == [6, 1])
    #expect(imports.map { $0["plays_already_stored"] as? Int } == [1, 1])
    #expect(imports.map { $0["warnings"] as? Int } == [2, 0])
    // The month files are read; the user file and the feedback are not listens.
    let skipped = (summary["skipped"] as? [[String: Any]] ?? []).compactMap {
      $0["file"] as? String
    }
    #expect(
      skipped.contains { $0.hasSuffix("!user.json") }
        && skipped.contains { $0.hasSuffix("!feedback.jsonl") }, "\(summary)")
    #expect(
      result.err.contains("warning: \(zip)!listens/2024/3.jsonl:7: line skipped: not a JSON object")
    )
    #expect(
      result.err.contains(
        "warning: \(zip)!listens/2024/3.jsonl:9: listen skipped: expected \"listened_at\" as Unix seconds, found none"
      ))
    // Imported again: the zip is passed over by its digest, unopened.
    let again = runResonance(["ingest", zip, "--db", db])
    #expect(again.out.contains("ingest: 0 files imported, 1 file unchanged"), "\(again.out)")
  }

  @Test("the user name, and every other account identifier, is nowhere in the store")
  func privacy() throws {
    let folder = try TemporaryFolder()
    let db = Self.ingest(
      [try Self.exportZip(in: folder), listeningFixturePath("listenbrainz-export.json")], in: folder
    )
    let store = try Store(path: db)
    #expect(try store.summary().listening.plays == 9)
    // Every text column of every table.
    for table in try store.connection.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    {
      let name = table.string("name")
      for column in try store.connection.rows("SELECT name, type FROM pragma_table_info(?)", [name])
      where column.string("type").uppercased().contains("TEXT") || column.string("type").isEmpty {
        let hits = try store.connection.row(
          "SELECT COUNT(*) AS n FROM \(name) WHERE CAST(\(column.string("name")) AS TEXT) LIKE '%lb-listener-42%'"
        )
        #expect(hits?.int("n") == 0, "\(name).\(column.string("name"))")
      }
    }
    _ = try Store(path: db)  // checkpoints the WAL into the file
    let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
    for secret in ["lb-listener-42", "aaaaaaaa-0000-4000-8000-00000000000", "Pano Scrobbler"] {
      #expect(bytes.range(of: Data(secret.utf8)) == nil, "the store holds '\(secret)'")
    }
  }

  @Test("an array cut short is exit 65 at its line and column; a file that is not listens too")
  func badFiles() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("b.sqlite")
    let text = try String(
      contentsOfFile: listeningFixturePath("listenbrainz-export.json"), encoding: .utf8)
    let cut = folder.file("cut.json")
    try String(text.prefix(700)).write(toFile: cut, atomically: true, encoding: .utf8)
    let truncated = runResonance(["ingest", cut, "--db", db])
    #expect(truncated.status == .dataError)
    #expect(truncated.err.contains("cut.json:3:"), "\(truncated.err)")
    let forced = runResonance([
      "ingest", "--as", "listenbrainz-listens", listeningFixturePath("lastfm.csv"), "--db", db,
    ])
    #expect(forced.status == .dataError)
    #expect(forced.err.contains("lastfm.csv:1:1: expected a ListenBrainz listen"), "\(forced.err)")
    #expect(try Store(path: db).summary().imports.isEmpty)
  }
}
