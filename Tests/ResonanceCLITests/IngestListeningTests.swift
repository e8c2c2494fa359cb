import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

func listeningFixturePath(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/listening/\(name)").path
}

@Suite("ingest: listening histories")
struct IngestListeningTests {
  static let all = [
    "play-activity-quirks.csv", "daily-tracks.csv", "library-tracks.json",
    "spotify-extended.json", "decisions.jsonl",
  ]

  func ingest(_ names: [String], _ db: String, _ extra: [String] = []) -> (
    status: ExitCode, out: String, err: String
  ) {
    runResonance(["ingest"] + names.map(listeningFixturePath) + ["--db", db] + extra)
  }

  /// Every play, as `title|sources|skipped|start`, in start order.
  func plays(_ db: String) throws -> [String] {
    try Store(path: db).connection.rows(
      """
      SELECT s.title, p.sources, p.was_skipped, p.start_ms FROM playback_events p
      JOIN songs s ON s.id = p.song_id ORDER BY p.start_ms, s.title
      """
    ).map { "\($0.string(0))|\($0.string(1))|\($0.int(2))|\($0.int(3))" }
  }

  @Test("all five files: one song per real song, one play per listen, skips as the histories say")
  func everything() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("l.sqlite")
    let result = ingest(Self.all, db)
    #expect(result.status == .ok, "\(result.err)")
    let listening = try Store(path: db).summary().listening
    // 8 Apple Music + 4 Spotify + 2 decisions, one of which is the Apple Music play at 08:00.
    #expect(listening.plays == 13)
    // Two Apple Music skips and two Spotify skips; the decision log's skip of the 08:00 play
    // is overruled by Apple Music's row, which played it to the end.
    #expect(listening.skips == 4)
    #expect(listening.songs == 6)
    // 'Quiet Engine' has no artist anywhere (the daily summary names a live version).
    #expect(listening.resolved == 10 && listening.withArtist == 10)
    let merged = try plays(db).filter { $0.contains("decision-log") }
    #expect(
      merged == [
        "Paper Lanterns|apple-music,decision-log|0|1710057600000",
        "Glass, Houses|decision-log|0|1710090000000",
      ])
    let store = try Store(path: db)
    #expect(
      try store.connection.row(
        "SELECT decision FROM playback_events WHERE sources = 'apple-music,decision-log'")?
        .int(0) == 1)
    // Spotify's GLASS HOUSES and Apple's Glass, Houses are one song, with both identifiers.
    let glass = try store.connection.row(
      "SELECT apple_catalog_id, spotify_uri, genre, bpm FROM songs WHERE title = 'Glass, Houses'")
    #expect(glass?.string(0) == "1440000002")
    #expect(glass?.string(1) == "spotify:track:0VjIjW4GlUZAMYd2vXMi3b")
    #expect(glass?.string(2) == "Alternative" && glass?[3].double == 128)
    // The remastered, featuring title resolved to the library's song.
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM songs WHERE title LIKE 'Don%' AND artist = 'Harbour'")?.int(0) == 1)
  }

  @Test("the order files arrive in does not change the result")
  func orderIndependence() throws {
    let folder = try TemporaryFolder()
    var results: [[String]] = []
    for (i, order) in [
      Self.all, Self.all.reversed(),
      [Self.all[4], Self.all[0], Self.all[3], Self.all[2], Self.all[1]],
    ].enumerated() {
      let db = folder.file("o\(i).sqlite")
      for name in order { _ = ingest([name], db, ["-q"]) }
      results.append(try plays(db))
      let summary = try Store(path: db).summary().listening
      #expect(summary.songs == 6 && summary.plays == 13 && summary.skips == 4, "order \(order)")
    }
    #expect(results[0] == results[1] && results[1] == results[2])
  }

  @Test("re-importing changes nothing; a second download overlapping the first adds only new plays")
  func reimportAndOverlap() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("r.sqlite")
    _ = ingest(Self.all, db, ["-q"])
    let before = try Store(path: db).summary()
    let again = ingest(["spotify-extended.json"], db)
    #expect(again.out.contains("unchanged since it was imported whole"), "\(again.out)")
    #expect(try Store(path: db).summary() == before)

    // A later download: the same history plus one new stream.
    let text = try String(
      contentsOfFile: listeningFixturePath("spotify-extended.json"), encoding: .utf8)
    let newer = text.replacingOccurrences(
      of: "\n]",
      with: """
        ,
        {"ts": "2024-03-12T08:00:00Z", "ms_played": 180000, "master_metadata_track_name": "Ember", "master_metadata_album_artist_name": "Signal & Noise", "master_metadata_album_album_name": "Static Fields", "spotify_track_uri": "spotify:track:7qiZfU4dY1lWllzX7mPBI3", "reason_start": "clickrow", "reason_end": "trackdone", "shuffle": false, "skipped": false}
        ]
        """)
    let path = folder.file("Streaming_History_Audio_2024_1.json")
    try newer.write(toFile: path, atomically: true, encoding: .utf8)
    let result = runResonance(["ingest", path, "--db", db])
    #expect(result.status == .ok)
    #expect(result.out.contains("1 plays (4 already stored)"), "\(result.out)")
    #expect(try Store(path: db).summary().listening.plays == before.listening.plays + 1)
  }

  @Test("a Play Activity file out of time order is read whole and sorted: the same plays")
  func outOfOrder() throws {
    let folder = try TemporaryFolder()
    let text = try String(
      contentsOfFile: listeningFixturePath("play-activity-quirks.csv"), encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    let header = lines.removeFirst()
    let shuffled = folder.file("shuffled.csv")
    try ([header] + lines.reversed()).joined(separator: "\n").write(
      toFile: shuffled, atomically: true, encoding: .utf8)
    let inOrder = folder.file("in-order.sqlite")
    let reversed = folder.file("reversed.sqlite")
    _ = ingest(["play-activity-quirks.csv"], inOrder, ["-q"])
    let result = runResonance(["ingest", shuffled, "--db", reversed])
    #expect(result.status == .ok, "\(result.err)")
    #expect(try plays(inOrder) == plays(reversed))
    #expect(try plays(reversed).count == 8)
    #expect(
      try Store(path: reversed).summary().imports.count == 1, "the streamed try left no trace")
  }

  @Test("a long history keeps a month of plays in memory, yet finds a repeat from months before")
  func repeatBeyondTheWindow() throws {
    let folder = try TemporaryFolder()
    // 70,000 streams over 70 days (more than the index keeps between trims), then the first
    // stream again: the same listen, already stored.
    let day: Int64 = 86_400_000
    let first: Int64 = 1_704_067_200_000  // 2024-01-01T00:00:00Z
    func entry(_ i: Int) -> String {
      let end = first + Int64(i) * (day / 1000) + 200_000
      let ts = Timestamp.iso8601UTC(millisecondsSinceEpoch: end)
      return
        #"{"ts":"\#(ts)","ms_played":200000,"master_metadata_track_name":"Song \#(i % 500)","master_metadata_album_artist_name":"Artist \#(i % 50)","reason_end":"trackdone"}"#
    }
    let entries = (0..<70_000).map(entry) + [entry(0)]
    let path = folder.file("Streaming_History_Audio_2024.json")
    try ("[\n" + entries.joined(separator: ",\n") + "\n]\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let db = folder.file("long.sqlite")
    let result = runResonance(["ingest", path, "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let imports = try #require(summary["imports"] as? [[String: Any]])
    #expect(imports.first?["plays_added"] as? Int == 70_000, "\(imports)")
    #expect(imports.first?["plays_already_stored"] as? Int == 1, "\(imports)")
    #expect(try Store(path: db).summary().listening.plays == 70_000)
  }

  @Test("an old Play Activity export (empty Event Type, out of order) keeps its plays and skips")
  func oldLayout() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("old.sqlite")
    let result = ingest(["play-activity-2016.csv"], db)
    #expect(result.status == .ok, "\(result.err)")
    let listening = try Store(path: db).summary().listening
    #expect(listening.plays == 5 && listening.skips == 2)
    #expect(listening.withArtist == 5)
  }

  @Test("Apple_Media_Services.zip inside the download zip, and my_spotify_data.zip, read in place")
  func nestedZips() throws {
    let folder = try TemporaryFolder()
    let inner = folder.file("Apple_Media_Services.zip")
    let zip = try ZipWriter(path: inner, modificationTime: 0)
    try zip.add(
      name: "Apple Music Activity/Apple Music Play Activity.csv",
      contentsOfFile: listeningFixturePath("play-activity-quirks.csv"))
    try zip.add(
      name: "Apple Music Activity/Apple Music Library Tracks.json",
      contentsOfFile: listeningFixturePath("library-tracks.json"))
    try zip.add(
      name: "Apple Music Activity/Apple Music Play Activity Guide.pdf",
      bytes: Array("%PDF-1.4".utf8))
    try zip.close()
    let outer = folder.file("Apple Media Services information.zip")
    let outerZip = try ZipWriter(path: outer, modificationTime: 0)
    try outerZip.add(
      name: "Apple Media Services information/Apple_Media_Services.zip", contentsOfFile: inner)
    try outerZip.add(
      name: "Apple Media Services information/Read Me.pdf", bytes: Array("%PDF-1.4".utf8))
    try outerZip.close()
    let spotify = folder.file("my_spotify_data.zip")
    let spotifyZip = try ZipWriter(path: spotify, modificationTime: 0)
    try spotifyZip.add(
      name: "Spotify Extended Streaming History/Streaming_History_Audio_2024.json",
      contentsOfFile: listeningFixturePath("spotify-extended.json"))
    try spotifyZip.add(
      name: "Spotify Extended Streaming History/ReadMeFirst_ExtendedStreamingHistory.pdf",
      bytes: Array("%PDF-1.4".utf8))
    try spotifyZip.close()

    let db = folder.file("z.sqlite")
    let result = runResonance(["ingest", outer, spotify, "--db", db])
    #expect(result.status == .ok, "\(result.err)")
    #expect(result.err.contains("Read Me.pdf") && result.err.contains("Guide.pdf"))
    let summary = try Store(path: db).summary()
    #expect(
      summary.imports.map(\.file) == [
        "\(outer)!Apple Media Services information/Apple_Media_Services.zip!Apple Music Activity/Apple Music Play Activity.csv",
        "\(outer)!Apple Media Services information/Apple_Media_Services.zip!Apple Music Activity/Apple Music Library Tracks.json",
        "\(spotify)!Spotify Extended Streaming History/Streaming_History_Audio_2024.json",
      ])
    #expect(summary.listening.plays == 12)
    // The same zips again: each is passed over by its own digest, unopened.
    let again = runResonance(["ingest", outer, spotify, "--db", db])
    #expect(again.out.contains("ingest: 0 files imported, 2 files unchanged"), "\(again.out)")
    #expect(try Store(path: db).summary() == summary)
    // Read again as named, every member is found already imported.
    let named = runResonance(["ingest", spotify, "--as", "spotify-extended-history", "--db", db])
    #expect(named.out.contains("already imported as"), "\(named.out)")
    #expect(try Store(path: db).summary() == summary)
  }

  @Test("plays without a UTC offset take the Health data's, else --time-zone or TZ, else UTC")
  func timeZones() throws {
    let folder = try TemporaryFolder()
    let health = folder.file("export.xml")
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="de_DE">
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-11 17:00:00 +0100" endDate="2024-03-11 17:00:00 +0100" value="61"/>
    </HealthData>
    """.write(toFile: health, atomically: true, encoding: .utf8)
    func offsets(
      _ extra: [String], environment: [String: String] = [:], health withHealth: Bool,
      healthAfter: Bool = false
    ) throws -> [String] {
      let db = folder.file("\(UUID().uuidString).sqlite")
      if withHealth { _ = runResonance(["ingest", health, "--db", db, "-q"]) }
      _ = runResonance(
        ["ingest", listeningFixturePath("spotify-extended.json"), "--db", db, "-q"] + extra,
        environment: environment)
      if healthAfter {
        let later = runResonance(["ingest", health, "--db", db])
        #expect(later.out.contains("4 plays stored without a UTC offset now have this export's"))
      }
      return try Store(path: db).connection.rows(
        "SELECT start_offset_s, end_offset_s, offset_source FROM playback_events ORDER BY start_ms"
      ).map { "\($0.int(0)) \($0.string(2))" + ($0.int(1) == $0.int(0) ? "" : " end differs") }
    }
    #expect(try offsets([], health: true) == Array(repeating: "3600 health", count: 4))
    // The Health export imported after the plays gives them what importing it first gives,
    // over the user's zone or UTC alike.
    #expect(
      try offsets([], health: false, healthAfter: true) == Array(repeating: "3600 health", count: 4)
    )
    #expect(
      try offsets(["--time-zone", "America/New_York"], health: false, healthAfter: true)
        == Array(repeating: "3600 health", count: 4))
    #expect(try offsets([], health: false) == Array(repeating: "0 utc", count: 4))
    #expect(
      try offsets(["--time-zone", "America/New_York"], health: false)
        == Array(repeating: "-14400 user", count: 4), "daylight saving began on 10 March 2024")
    #expect(
      try offsets([], environment: ["TZ": "+05:30"], health: false)
        == Array(repeating: "19800 user", count: 4))
    #expect(
      try offsets([], environment: ["TZ": ":America/New_York"], health: false)
        == Array(repeating: "-14400 user", count: 4), "the POSIX ':zone' form")
    // A TZ the tool cannot read is no reason to refuse an import; --time-zone is.
    #expect(
      try offsets([], environment: ["TZ": ":/etc/localtime"], health: false)
        == Array(repeating: "0 utc", count: 4))
    let bad = runResonance(["ingest", health, "--time-zone", "Mars/Olympus"])
    #expect(bad.status == .usage)
  }

  @Test("status --unresolved lists the songs without an artist or genre; --json has the counts")
  func unresolved() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("u.sqlite")
    _ = ingest(Self.all, db, ["-q"])
    let text = runResonance(["status", "--unresolved", "--db", db]).out
    #expect(text.contains("2 songs without an artist or a genre"))
    #expect(
      text.contains("  3  Quiet Engine [Static Fields]  missing artist, genre  (apple-music)"))
    #expect(text.contains("Quiet Engine - Live at the Roundhouse — Signal & Noise  missing genre"))
    let json = runResonance(["status", "--json", "--db", db]).out
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let listening = object?["listening"] as? [String: Any]
    #expect(listening?["resolved"] as? Int == 10)
    #expect(listening?["plays"] as? Int == 13 && listening?["skips"] as? Int == 4)
    #expect(
      runResonance(["status", "--db", db]).out.contains(
        "(3 not: see 'resonance status --unresolved')"))
  }

  @Test("account identifiers never reach the store file")
  func privacy() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("p.sqlite")
    _ = ingest(
      Self.all + ["Library.xml", "lastfm.csv", "StreamingHistory_music_0.json"], db, ["-q"])
    _ = try Store(path: db)  // checkpoints the WAL into the file
    let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
    for secret in [
      "31415926535", "198.51.100.23", "DEADBEEFCAFE0123456789ABCDEF", "harbour.listener.77",
      "192.0.2.199", "Pixel 8", "mkowalczyk",
    ] {
      #expect(bytes.range(of: Data(secret.utf8)) == nil, "the store holds '\(secret)'")
    }
    #expect(try Store(path: db).summary().listening.plays > 13, "the other readers' plays arrived")
  }

  @Test("a file that is not what --as claims is exit 65 and leaves the store as it was")
  func badInput() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("b.sqlite")
    _ = ingest(["library-tracks.json"], db, ["-q"])
    let before = try Store(path: db).summary()
    let forced = runResonance(
      [
        "ingest", "--as", "apple-music-play-activity",
        listeningFixturePath("spotify-extended.json"), "--db", db,
      ])
    #expect(forced.status == .dataError)
    #expect(forced.err.contains("spotify-extended.json:1:1: expected the Play Activity columns"))
    let cut = folder.file("cut.json")
    let text = try String(
      contentsOfFile: listeningFixturePath("spotify-extended.json"), encoding: .utf8)
    try String(text.prefix(900)).write(toFile: cut, atomically: true, encoding: .utf8)
    let truncated = runResonance(["ingest", cut, "--db", db])
    #expect(truncated.status == .dataError, "\(truncated.err)")
    #expect(try Store(path: db).summary() == before)
    let unknown = folder.file("notes.txt")
    try "just some notes\n".write(toFile: unknown, atomically: true, encoding: .utf8)
    let unrecognized = runResonance(["ingest", unknown, "--db", db])
    #expect(unrecognized.status == .dataError)
    #expect(unrecognized.err.contains("notes.txt:1:1: expected an export the tool reads"))
    #expect(
      runResonance(["ingest", "--as", "last-fm-scrobble", unknown]).err.contains(
        "expected one of: apple-health"))
  }
}

@Suite("ingest: the simulated person's files, round trip")
struct ListeningRoundTripTests {
  @Test(
    "every planted play arrives once, every song resolves, the DJ's plays merge, nothing identifying stays"
  )
  func roundTrip() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    let made = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "80", "--seed", "5",
      "-q",
    ])
    #expect(made.status == .ok, "\(made.err)")
    let db = folder.file("person.sqlite")
    let result = runResonance(["ingest", data, "--db", db, "-q"])
    #expect(result.status == .ok, "\(result.err)")
    let truth =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: data + "/truth.json"))) as? [String: Any]
    let planted = truth?["plays"] as? [String: Any]
    let store = try Store(path: db)
    let listening = try store.summary().listening
    #expect(listening.plays == planted?["total"] as? Int)
    #expect(listening.songs == (truth?["songs"] as? [Any])?.count)
    // Streamed imports write with foreign keys unchecked: every reference must still hold.
    #expect(try store.connection.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(try store.connection.row("PRAGMA foreign_keys")?.int(0) == 1)
    #expect(listening.resolved == listening.plays)
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM playback_events WHERE sources = 'apple-music,decision-log'")?.int(0)
        == planted?["by_dj"] as? Int)
    // Spotify records no offset; the Health data covers the whole month.
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM playback_events WHERE offset_source NOT IN ('source', 'health')")?
        .int(0) == 0)
    _ = try Store(path: db)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
    for (key, value) in truth?["privacy"] as? [String: String] ?? [:] {
      #expect(bytes.range(of: Data(value.utf8)) == nil, "the store holds the \(key)")
    }
  }
}

@Suite("ingest: song identity edge cases")
struct SongIdentityEdgeTests {
  @Test(
    "one title on one album by two artists: Apple's artistless row goes to the one of its length")
  func sameTitleSameAlbum() throws {
    let folder = try TemporaryFolder()
    let library = folder.file("library.json")
    try """
    [
      {"Track Identifier": 1, "Title": "Blue", "Artist": "Loko", "Album": "Sky", "Genre": "Pop", "Track Duration": 225653, "Apple Music Track Identifier": 111},
      {"Track Identifier": 2, "Title": "Blue", "Artist": "The Runaway Nysas", "Album": "Sky", "Genre": "Rock", "Track Duration": 209358, "Apple Music Track Identifier": 222}
    ]
    """.write(toFile: library, atomically: true, encoding: .utf8)
    let plays = folder.file("plays.csv")
    try """
    Event Type,Song Name,Album Name,Event Start Timestamp,Event End Timestamp,UTC Offset In Seconds,Play Duration Milliseconds,Media Duration In Milliseconds,End Reason Type
    PLAY_END,Blue,Sky,2024-03-10T08:00:00.000Z,2024-03-10T08:03:29.358Z,0,209358,209358,NATURAL_END_OF_TRACK
    PLAY_END,Blue,Sky,2024-03-10T09:00:00.000Z,,0,1000,230000,TRACK_SKIPPED_FORWARDS

    """.write(toFile: plays, atomically: true, encoding: .utf8)
    let db = folder.file("e.sqlite")
    #expect(runResonance(["ingest", library, plays, "--db", db, "-q"]).status == .ok)
    let rows = try Store(path: db).connection.rows(
      """
      SELECT s.artist, p.start_ms FROM playback_events p JOIN songs s ON s.id = p.song_id
      ORDER BY p.start_ms
      """
    ).map { "\($0[0].string ?? "?") \($0.int(1))" }
    // The second row's 230 s matches neither song within 2 s: it stays unresolved.
    #expect(rows == ["The Runaway Nysas 1710057600000", "? 1710061200000"])
  }
}

@Suite("analyze: sessions and per-play biometrics from the store")
struct AnalyzeCommandTests {
  @Test(
    "every play gets a session and a biometrics row; contexts come from the planted day; reruns replace"
  )
  func analyze() throws {
    let folder = try TemporaryFolder()
    let data = folder.file("person")
    _ = runResonance([
      "synth", "--out", data, "--months", "1", "--scale", "0.05", "--songs", "80", "--seed", "5",
      "-q",
    ])
    let db = folder.file("a.sqlite")
    _ = runResonance(["ingest", data, "--db", db, "-q"])
    let result = runResonance(["analyze", "--db", db, "--json"])
    #expect(result.status == .ok, "\(result.err)")
    let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
    let store = try Store(path: db)
    let plays = try store.summary().listening.plays
    #expect(object?["plays"] as? Int == plays)
    #expect(
      try store.connection.row("SELECT COUNT(*) FROM playback_events WHERE session_id IS NULL")?
        .int(0) == 0)
    #expect(try store.connection.row("SELECT COUNT(*) FROM play_biometrics")?.int(0) == plays)
    let contexts = try store.connection.rows(
      "SELECT DISTINCT context FROM historical_sessions"
    ).map { $0.string(0) }
    #expect(contexts.contains("workout") && contexts.contains("deep-work"))
    // A play's HRV figure is there only when a sample was.
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM play_biometrics WHERE (hrv_during IS NULL) != (hrv_samples_during = 0)"
      )?.int(0) == 0)
    // The learning replay: every play updated one (song, context) effect once.
    #expect(try store.connection.row("SELECT SUM(sample_count) FROM song_effects")?.int(0) == plays)
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM song_effects WHERE calm_score NOT BETWEEN -1 AND 1")?.int(0) == 0)
    // Pooled estimates with intervals, for the songs whose plays have changes measured.
    #expect(
      try store.connection.row("SELECT COUNT(*) FROM song_effect_estimates WHERE signal = 'hr'")?
        .int(0) ?? 0 > 0)
    #expect(
      try store.connection.row(
        "SELECT COUNT(*) FROM song_effect_estimates WHERE NOT (low90 < estimate AND estimate < high90)"
      )?.int(0) == 0)
    let sessions = try store.connection.row("SELECT COUNT(*) FROM historical_sessions")?.int(0)
    // A day-long gap joins sessions hours apart; only a change of context splits them again.
    let joined = runResonance(["analyze", "--db", db, "--json", "--gap", "1440"])
    let summary = try #require(
      JSONSerialization.jsonObject(with: Data(joined.out.utf8)) as? [String: Any])
    #expect(summary["gap_minutes"] as? Int == 1440)
    let coarser = try store.connection.row("SELECT COUNT(*) FROM historical_sessions")?.int(0)
    #expect((coarser ?? 0) < (sessions ?? 0), "a longer gap joins sessions")
    #expect(try store.connection.row("SELECT COUNT(*) FROM analysis_runs")?.int(0) == 2)
    #expect(runResonance(["analyze", "--db", db, "--gap", "0"]).status == .usage)
  }
}

@Suite("ingest: a long decision log, in parts")
struct LongDecisionLogTests {
  /// A version-2 decision log of `count` decisions a minute apart, each with an outcome (a
  /// play): far more than one part, so parts and plays take turns on the store's connection.
  static func log(_ count: Int) -> String {
    let preferences =
      #"{"bpmWeight":0.25,"contextWeight":0.15,"energyWeight":0.25,"familiarityWeight":0.15,"#
      + #""historicalWeight":0.2,"morningBPMCap":120,"morningEndHour":9,"morningStartHour":5,"#
      + #""nightBPMCap":95,"nightEndHour":5,"nightHardCapBPM":110,"nightStartHour":22,"#
      + #""policy":{"epsilon":0,"kind":"softmax","temperature":0.05},"recencyPenaltyWeight":0.3,"#
      + #""recencyWindowMinutes":240,"repeatBlockMinutes":60,"sameArtistLimit":0,"#
      + #""sameArtistWindow":3,"timeOfDayPenaltyWeight":0.2}"#
    var text =
      #"{"format":"resonance.decision-log","version":2,"generator":"test","preferences":"#
      + preferences + "}\n"
    for n in 0..<count {
      let ms = 1_654_092_000_000 + Int64(n) * 60_000
      let t = Timestamp.iso8601UTC(millisecondsSinceEpoch: ms)
      text +=
        #"{"t":"\#(t)","offset":3600,"decision":\#(n),"session":\#(n / 10),"need":"energy","#
        + #""context":"workout","local_hour":16.5,"stress":0.25,"max_play_count":40,"#
        + #""previous":null,"recent_artists":[],"candidates":[{"song":"s\#(n % 50)","#
        + #""artist":"Ana","bpm":128,"energy":0.85,"valence":0.6,"plays":3,"learned":null,"#
        + #""last_played":null,"c":[1,1,0.1,0.75,0.95,0,0],"base":0.5,"score":0.5,"p":1}],"#
        + #""rejected":[],"chosen":"s\#(n % 50)","outcome":{"listened_ms":50000,"#
        + #""duration_ms":180000,"skipped":false,"completed":false}}"# + "\n"
    }
    return text
  }

  @Test("3,000 decisions import whole, their plays beside them, the store intact")
  func longLog() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("decisions-2022-06.jsonl")
    try Self.log(3000).write(toFile: path, atomically: true, encoding: .utf8)
    for round in 0..<3 {
      let db = folder.file("s\(round).sqlite")
      let result = runResonance(["ingest", path, "--db", db, "-q"])
      #expect(result.status == .ok, "round \(round): \(result.err)")
      let store = try Store(path: db)
      #expect(try store.connection.row("SELECT COUNT(*) FROM dj_decisions")?.int(0) == 3000)
      #expect(try store.connection.row("SELECT samples FROM trace_recordings")?.int(0) == 3000)
      #expect(try store.connection.row("SELECT COUNT(*) FROM playback_events")?.int(0) == 3000)
      #expect(try store.connection.row("PRAGMA integrity_check")?.string(0) == "ok")
    }
  }
}
