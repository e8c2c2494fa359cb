import Foundation
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// The bytes of a fixture in `Tests/Fixtures/listening/`.
func listeningFixture(_ name: String) throws -> [UInt8] {
  let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/listening/\(name)").path
  return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Every string a listening file holds, for privacy checks.
func allStrings(_ file: ListeningFile) -> [String] {
  func strings(_ song: SongReference) -> [String] {
    [
      song.title, song.artist, song.album, song.genre, song.appleCatalogID, song.spotifyURI,
      song.libraryPersistentID,
    ].compactMap { $0 }
  }
  return file.songs.flatMap(strings) + file.plays.flatMap { strings($0.song) }
    + file.playlists.flatMap { [$0.name] + [$0.libraryPersistentID].compactMap { $0 } }
    + file.playlists.flatMap { $0.songs.flatMap(strings) }
}

@Suite("Music library reader")
struct MusicLibraryReaderTests {
  static let library = Result {
    try MusicLibraryReader.read(path: "Library.xml", bytes: listeningFixture("Library.xml"))
  }

  @Test("reads the audio songs with their fields, leaving out the podcast and the music video")
  func songs() throws {
    let (file, _) = try Self.library.get()
    #expect(file.kind == .musicLibraryXML)
    #expect(file.rows == 5)
    #expect(file.plays.isEmpty)
    #expect(file.songs.map(\.title) == ["Don\u{2019}t Stop Me Now", "The Boxer", "Clair de lune"])
    let queen = file.songs[0]
    #expect(queen.artist == "Queen")
    #expect(queen.album == "Jazz")
    #expect(queen.genre == "Rock")
    #expect(queen.durationMs == 209_000)
    #expect(queen.bpm == 156)
    #expect(queen.playCount == 12)
    #expect(queen.skipCount == 1)
    #expect(queen.libraryPersistentID == "0A1B2C3D4E5F6071")
  }

  @Test("decodes entities, keeps BPM only when above 0, and falls back to the album artist")
  func fields() throws {
    let (file, _) = try Self.library.get()
    let boxer = file.songs[1]
    #expect(boxer.artist == "Simon & Garfunkel")
    #expect(boxer.bpm == nil)
    #expect(boxer.playCount == 3)
    #expect(boxer.skipCount == nil)
    let debussy = file.songs[2]
    #expect(debussy.artist == "Claude Debussy")
    #expect(debussy.bpm == nil)
    #expect(debussy.playCount == nil)
  }

  @Test("reads playlists in item order, without the master library, warning of unknown tracks")
  func playlists() throws {
    let (file, diagnostics) = try Self.library.get()
    #expect(file.playlists.count == 1)
    let playlist = try #require(file.playlists.first)
    #expect(playlist.name == "Run & Focus")
    #expect(playlist.libraryPersistentID == "60718293041526A7")
    // 9999 is unknown (warned); 1207 is the podcast (left out quietly).
    #expect(
      playlist.songs.map(\.title) == ["The Boxer", "Don\u{2019}t Stop Me Now", "Clair de lune"])
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.severity == .warning)
    #expect(diagnostics.first?.location == SourceLocation(file: "Library.xml", line: 141))
    #expect(diagnostics.first?.message.contains("9999") == true)
  }

  @Test("keeps nothing of Location, the music folder or the library ID")
  func privacy() throws {
    let (file, _) = try Self.library.get()
    for text in allStrings(file) {
      #expect(!text.contains("mkowalczyk"))
      #expect(!text.contains("file://"))
      #expect(text != "F00DFACEB00C1234")
    }
  }

  @Test("malformed XML fails at the line and column of the error")
  func malformed() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>Tracks</key>
        <dict>
          <key>1</key><dict><key>Name</key><string>A</strong></dict>
        </dict>
      </dict>
      </plist>
      """
    do {
      _ = try MusicLibraryReader.read(path: "bad.xml", bytes: Array(text.utf8))
      Issue.record("expected an error")
    } catch let error as IngestError {
      #expect(error.kind == .malformed)
      #expect(error.location.file == "bad.xml")
      #expect(error.location.line == 6)
      #expect(error.location.column == 56)  // just past `</strong>`
      #expect(error.message.hasPrefix("malformed XML"))
    }
  }

  @Test("a property list without Tracks, or XML that is no property list, is unrecognized")
  func unrecognized() throws {
    let noTracks = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>Major Version</key><integer>1</integer></dict></plist>
      """
    let health = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\"></HealthData>\n"
    for text in [noTracks, health] {
      #expect(throws: IngestError.self) {
        do {
          _ = try MusicLibraryReader.read(path: "x.xml", bytes: Array(text.utf8))
        } catch let error as IngestError {
          #expect(error.kind == .unrecognized)
          throw error
        }
      }
    }
  }
}

@Suite("Last.fm reader")
struct LastFMReaderTests {
  @Test("reads headerless rows, scrobble time as the start, skipping bad rows with their line")
  func headerless() throws {
    let (file, diagnostics) = try LastFMReader.read(
      path: "lastfm.csv", bytes: listeningFixture("lastfm.csv"))
    #expect(file.kind == .lastFM)
    #expect(file.rows == 6)
    #expect(file.plays.count == 4)
    let first = file.plays[0]
    #expect(first.song.title == "Don\u{2019}t Stop Me Now")
    #expect(first.song.artist == "Queen")
    #expect(first.song.album == "Jazz")
    #expect(first.source == .lastFM)
    #expect(first.startMs == 1_612_101_900_000)  // 2021-01-31T14:05:00Z
    #expect(first.endMs == first.startMs)
    #expect(first.playedMs == nil)
    #expect(first.utcOffsetSeconds == nil)
    #expect(!first.wasSkipped)
    #expect(first.line == 1)
    #expect(file.plays[1].startMs == 1_612_101_480_000)  // 13:58
    // A quoted artist holding commas.
    #expect(file.plays[2].song.artist == "Crosby, Stills, Nash & Young")
    #expect(file.plays[2].song.title == "Carry On")
    #expect(file.plays[2].startMs == 1_612_170_000_000)  // 2021-02-01T09:00:00Z
    // An empty album is no album; a leap day is a day.
    #expect(file.plays[3].song.album == nil)
    #expect(file.plays[3].startMs == 1_583_020_740_000)  // 2020-02-29T23:59:00Z
    #expect(file.plays[3].line == 5)
    #expect(diagnostics.map(\.location?.line) == [4, 6])
    #expect(diagnostics.allSatisfy { $0.severity == .warning })
    #expect(diagnostics.allSatisfy { $0.message.hasPrefix("row skipped: ") })
    #expect(diagnostics[0].location?.file == "lastfm.csv")
  }

  @Test("reads a file with a header by column name, preferring uts to the date text")
  func header() throws {
    let (file, diagnostics) = try LastFMReader.read(
      path: "lastfm-header.csv", bytes: listeningFixture("lastfm-header.csv"))
    #expect(diagnostics.isEmpty)
    #expect(file.rows == 2)
    #expect(file.plays.map(\.song.title) == ["Bicycle Race", "Feeling Good"])
    #expect(file.plays[0].startMs == 1_614_931_230_000)  // uts 1614931230
    #expect(file.plays[1].startMs == 1_614_931_440_000)  // "5 Mar 2021, 08:04"
    #expect(file.plays[1].song.artist == "Nina Simone")
    #expect(file.plays.map(\.line) == [2, 3])
  }

  @Test("parses Last.fm dates on bytes, rejecting impossible ones")
  func dates() {
    #expect(LastFMReader.lastFMDate("01 Jan 1970 00:00") == 0)
    #expect(LastFMReader.lastFMDate("31 jan 2021 14:05") == 1_612_101_900_000)
    #expect(LastFMReader.lastFMDate("31 Dec 1999 23:59:59") == 946_684_799_000)
    #expect(LastFMReader.lastFMDate("29 Feb 2021 10:00") == nil)
    #expect(LastFMReader.lastFMDate("31 Foo 2021 10:00") == nil)
    #expect(LastFMReader.lastFMDate("31 Jan 2021 24:00") == nil)
    #expect(LastFMReader.lastFMDate("31 Jan 2021") == nil)
    #expect(LastFMReader.lastFMDate("") == nil)
  }
}

@Suite("Spotify account history reader")
struct SpotifyAccountReaderTests {
  @Test("reads music plays, start = end − msPlayed, skipping 0 ms and podcasts silently")
  func plays() throws {
    let (file, diagnostics) = try SpotifyAccountReader.read(
      path: "StreamingHistory_music_0.json",
      bytes: listeningFixture("StreamingHistory_music_0.json"))
    #expect(file.kind == .spotifyAccount)
    #expect(file.rows == 5)
    #expect(file.plays.count == 2)
    let first = file.plays[0]
    #expect(first.song == SongReference(title: "Don\u{2019}t Stop Me Now", artist: "Queen"))
    #expect(first.source == .spotifyAccount)
    #expect(first.endMs == 1_680_373_320_000)  // 2023-04-01T18:22:00Z
    #expect(first.startMs == 1_680_373_111_000)  // 209 s before
    #expect(first.playedMs == 209_000)
    #expect(first.utcOffsetSeconds == nil)
    #expect(!first.wasSkipped)
    #expect(first.line == 2)
    let boxer = file.plays[1]
    #expect(boxer.song.artist == "Simon & Garfunkel")
    #expect(boxer.endMs == 1_680_374_400_000)  // 18:40
    #expect(boxer.startMs == 1_680_374_387_655)
    #expect(boxer.line == 20)
    // Only the entry with an unreadable endTime is worth a word.
    #expect(diagnostics.count == 1)
    #expect(
      diagnostics.first?.location == SourceLocation(file: "StreamingHistory_music_0.json", line: 26)
    )
  }

  @Test("invalid JSON is malformed, at the line and column where that is known")
  func malformedLocation() throws {
    do {
      _ = try SpotifyAccountReader.read(path: "x.json", bytes: Array("[\n {\"a\": 1,,}\n]".utf8))
      Issue.record("expected an error")
    } catch let error as IngestError {
      #expect(error.kind == .malformed)
      #expect(error.message.hasPrefix("malformed JSON: "))
      // The second comma.
      #expect(error.location == SourceLocation(file: "x.json", line: 2, column: 10))
    }
  }

  @Test("invalid JSON is malformed; JSON of another shape is unrecognized")
  func errors() throws {
    let cases: [(String, IngestError.Kind)] = [
      ("[\n  {\"endTime\": \"2023-04-01 18:22\",\n", .malformed),
      ("{\"endTime\": \"2023-04-01 18:22\"}", .unrecognized),
      ("[{\"ts\": \"2023-04-01T18:22:00Z\"}]", .unrecognized),
      ("[]", .unrecognized),
    ]
    for (text, kind) in cases {
      #expect(throws: IngestError.self) {
        do {
          _ = try SpotifyAccountReader.read(path: "x.json", bytes: Array(text.utf8))
        } catch let error as IngestError {
          #expect(error.kind == kind, "\(text)")
          throw error
        }
      }
    }
  }
}

@Suite("Listening file recognition")
struct ListeningRecognitionTests {
  static let fixtures = [
    "Library.xml", "lastfm.csv", "lastfm-header.csv", "StreamingHistory_music_0.json",
  ]

  @Test("each reader knows its own files by content and no one else's")
  func looksLike() throws {
    for name in Self.fixtures {
      let prefix = Array(try listeningFixture(name).prefix(4096))
      #expect(MusicLibraryReader.looksLike(prefix) == (name == "Library.xml"), "\(name)")
      #expect(LastFMReader.looksLike(prefix) == name.hasPrefix("lastfm"), "\(name)")
      #expect(SpotifyAccountReader.looksLike(prefix) == name.hasPrefix("Streaming"), "\(name)")
    }
  }

  @Test("Spotify's extended history and a Health export are none of these")
  func others() {
    let extended = Array(
      #"[{"ts": "2023-04-01T18:22:00Z", "endTime": "x", "ms_played": 1}]"#.utf8)
    let health = Array("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n".utf8)
    for prefix in [extended, health] {
      #expect(!MusicLibraryReader.looksLike(prefix))
      #expect(!LastFMReader.looksLike(prefix))
      #expect(!SpotifyAccountReader.looksLike(prefix))
    }
  }
}
