import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// 2024-03-10T08:00:00Z, the first instant of the Play Activity fixture.
private let march10 = Int64(1_710_057_600_000)

@Suite("Apple Music Play Activity reader")
struct PlayActivityReaderTests {
  static let read = Result {
    try AppleMusicPlayActivityReader.read(
      path: "play.csv", bytes: listeningFixture("play-activity-quirks.csv"))
  }

  var plays: [PlayReport] { (try? Self.read.get().0.plays) ?? [] }

  @Test("only PLAY_END rows with a song name are plays; pauses and scrubs are merged")
  func playsAndMerging() throws {
    let (file, _) = try Self.read.get()
    #expect(file.rows == 14)
    #expect(
      plays.map { $0.song.title ?? "" } == [
        "Paper Lanterns", "Glass, Houses", "Quiet Engine", "Quiet Engine", "Quiet Engine",
        "Ember", "Ember", "Don\u{2019}t Look Back (feat. Mira Sol) - Remastered 2011",
      ])
    // Paused at 1:00, resumed nine minutes later (a lyric row between): one listen, the
    // missing end timestamp taken as start + duration.
    let paper = plays[0]
    #expect(paper.startMs == march10)
    #expect(paper.endMs == march10 + 10 * 60_000 + 140_000)
    #expect(paper.playedMs == 200_000)
    #expect(paper.completed == true && !paper.wasSkipped)
    #expect(paper.utcOffsetSeconds == -28_800)
    // A scrub, then a skip: one listen, skipped.
    let scrubbed = plays[2]
    #expect(scrubbed.startMs == march10 + 2 * 3_600_000)
    #expect(scrubbed.playedMs == 120_000 && scrubbed.wasSkipped)
    // Resumed 44 minutes after the pause: two listens.
    #expect(plays[3].startMs == march10 + 3 * 3_600_000 && plays[3].playedMs == 60_000)
    #expect(plays[3].completed == false && !plays[3].wasSkipped)
    #expect(plays[4].startMs == march10 + 3 * 3_600_000 + 45 * 60_000)
  }

  @Test("end reasons: only TRACK_SKIPPED_FORWARDS is a skip, NATURAL_END_OF_TRACK a completion")
  func endReasons() {
    #expect(
      plays.filter(\.wasSkipped).map { $0.song.title ?? "" } == ["Glass, Houses", "Quiet Engine"])
    let switched = plays[4]
    #expect(switched.endReason == "MANUALLY_SELECTED_PLAYBACK_OF_A_DIFF_ITEM")
    #expect(!switched.wasSkipped && switched.completed == false)
    #expect(AppleMusicEndReason.outcome("TRACK_SKIPPED_BACKWARDS") == .stopped)
    #expect(AppleMusicEndReason.outcome("PAUSED_ON_TIMEOUT") == .interrupted)
    #expect(plays[1].shuffle == true && plays[0].shuffle == false)
  }

  @Test("durations are clamped to [0, media duration]")
  func clamping() {
    #expect(plays[5].playedMs == 0)
    #expect(plays[6].playedMs == 210_000)
    #expect(plays[6].mediaDurationMs == 210_000)
  }

  @Test("a row with an unreadable duration is a warning with its line, not an error")
  func warnings() throws {
    let (_, diagnostics) = try Self.read.get()
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.location == SourceLocation(file: "play.csv", line: 14))
    #expect(diagnostics.first?.message.contains("'twelve'") == true)
  }

  @Test("columns are found by name in any order, curly apostrophes and all")
  func headerOrder() throws {
    let text = String(decoding: try listeningFixture("play-activity-quirks.csv"), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Swap two columns everywhere: the result must not change.
    lines = lines.map { line in
      var fields = CSVReaderTests.fields(line)
      guard fields.count > 3 else { return line }
      fields.swapAt(0, 3)
      return fields.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",")
    }
    let (swapped, _) = try AppleMusicPlayActivityReader.read(
      path: "swapped.csv", bytes: Array(lines.joined(separator: "\n").utf8))
    #expect(swapped.plays == plays)
    #expect(AppleMusicPlayActivityReader.looksLike(Array(lines.joined(separator: "\n").utf8)))
  }

  @Test("the account columns never leave the reader")
  func privacy() throws {
    let (file, _) = try Self.read.get()
    let strings = allStrings(file) + file.plays.compactMap(\.endReason)
    for secret in ["31415926535", "198.51.100.23", "DEADBEEFCAFE0123456789ABCDEF"] {
      #expect(!strings.contains { $0.contains(secret) })
    }
  }

  @Test("a file cut inside a quoted field is malformed; a file without the columns is not one")
  func badFiles() throws {
    #expect(throws: IngestError.self) {
      try AppleMusicPlayActivityReader.read(
        path: "cut.csv",
        bytes: Array(
          "Event Type,Song Name,Event Start Timestamp,Play Duration Milliseconds\nPLAY_END,\"Cut"
            .utf8))
    }
    do {
      _ = try AppleMusicPlayActivityReader.read(path: "x.csv", bytes: Array("a,b\n1,2\n".utf8))
      Issue.record("expected an error")
    } catch let error as IngestError {
      #expect(error.kind == .unrecognized)
      #expect(error.location == SourceLocation(file: "x.csv", line: 1, column: 1))
    }
  }
}

@Suite("Apple Music Play Activity, the 2015–2016 layout")
struct OldPlayActivityLayoutTests {
  /// Apple's old 44-column layout: `Content Name` and `Artist Name`, `Apple Id Number`, `Event
  /// Type` empty on most rows, rows out of time order.
  static let read = Result {
    try AppleMusicPlayActivityReader.read(
      path: "old.csv", bytes: listeningFixture("play-activity-2016.csv"))
  }

  @Test("an empty Event Type with a song and an end reason is a play end; rows sorted by start")
  func emptyEventType() throws {
    let (file, diagnostics) = try Self.read.get()
    #expect(diagnostics.isEmpty)
    #expect(file.rows == 9)
    #expect(
      file.plays.map { "\($0.song.artist ?? "")|\($0.song.title ?? "")" } == [
        "Low Tide|Salt Air", "Marrow|Copper Wire", "Marrow|Glasshouse", "Marrow|Glasshouse",
        "Low Tide|Harbour Lights",
      ])
    #expect(file.plays.map(\.wasSkipped) == [false, true, false, true, false])
    // Paused at 1:30 and resumed four minutes later, both rows without an event type: one listen.
    let salt = file.plays[0]
    #expect(salt.playedMs == 250_000 && salt.completed == true)
    #expect(salt.utcOffsetSeconds == 3600)
    let strings = allStrings(file)
    for secret in ["27182818284", "203.0.113.77", "0123456789ABCDEF0123456789ABCDEF01234567"] {
      #expect(!strings.contains { $0.contains(secret) })
    }
    #expect(
      AppleMusicPlayActivityReader.looksLike(try listeningFixture("play-activity-2016.csv")))
  }

  @Test("without an end reason an empty Event Type is not a play")
  func noReason() throws {
    let csv = """
      Content Name,Event Type,Event Start Timestamp,Play Duration Milliseconds,End Reason Type
      Copper Wire,,2016-05-02T08:11:00Z,0,
      Copper Wire,PLAY_START,2016-05-02T08:12:00Z,0,NATURAL_END_OF_TRACK
      """
    let (file, _) = try AppleMusicPlayActivityReader.read(path: "x.csv", bytes: Array(csv.utf8))
    #expect(file.rows == 2 && file.plays.isEmpty)
  }
}

@Suite("Apple Music summaries and library")
struct AppleMusicSummaryTests {
  @Test("Daily Tracks give artists from 'Artist - Title', split on the first ' - '")
  func dailyTracks() throws {
    let bytes = try listeningFixture("daily-tracks.csv")
    #expect(AppleMusicHistorySummaryReader.kind(of: bytes) == .appleDailyTracks)
    let (file, diagnostics) = try AppleMusicHistorySummaryReader.read(path: "d.csv", bytes: bytes)
    #expect(file.plays.isEmpty, "summaries are never counted as plays")
    #expect(
      file.songs.map { "\($0.artist ?? "")|\($0.title ?? "")" } == [
        "Lumen Drift|Paper Lanterns", "The Hollow Coast|Glass, Houses",
        "Signal & Noise|Quiet Engine - Live at the Roundhouse",
      ])
    #expect(diagnostics.map(\.location?.line) == [5])
  }

  @Test("Track Play History is recognised by its columns")
  func trackPlayHistory() throws {
    let text =
      "Track Name,Last Played Date,Is User Initiated\nLumen Drift - Paper Lanterns,1600000000000,true\n"
    #expect(AppleMusicHistorySummaryReader.kind(of: Array(text.utf8)) == .appleTrackPlayHistory)
    let (file, _) = try AppleMusicHistorySummaryReader.read(path: "t.csv", bytes: Array(text.utf8))
    #expect(file.kind == .appleTrackPlayHistory && file.songs.first?.artist == "Lumen Drift")
  }

  @Test(
    "Library Tracks: genre, duration, BPM only when not 0, counts, catalog IDs as numbers or text")
  func libraryTracks() throws {
    let bytes = try listeningFixture("library-tracks.json")
    #expect(AppleMusicLibraryTracksReader.looksLike(bytes))
    let (file, _) = try AppleMusicLibraryTracksReader.read(path: "l.json", bytes: bytes)
    #expect(file.songs.count == 4, "the music video is not a song")
    #expect(file.songs.map(\.bpm) == [nil, 128, nil, nil])
    #expect(
      file.songs.map(\.appleCatalogID) == ["1440000001", "1440000002", "1440000004", "1440000005"])
    #expect(file.songs[0].genre == "Electronic" && file.songs[0].durationMs == 200_000)
    #expect(file.songs[1].playCount == 3 && file.songs[1].skipCount == 2)
  }
}

@Suite("Spotify Extended Streaming History reader")
struct SpotifyExtendedReaderTests {
  @Test(
    "start = ts − ms_played; 0 ms streams and podcasts are not plays; fwdbtn or skipped is a skip")
  func plays() throws {
    let bytes = try listeningFixture("spotify-extended.json")
    #expect(SpotifyExtendedReader.looksLike(bytes))
    let (file, _) = try SpotifyExtendedReader.read(path: "s.json", bytes: bytes)
    #expect(file.rows == 6)
    #expect(file.plays.count == 4)
    // ts 2024-03-11T18:03:20Z minus 200,000 ms.
    #expect(file.plays[0].startMs == 1_710_180_000_000)
    #expect(file.plays[0].endMs == 1_710_180_200_000)
    #expect(file.plays[0].utcOffsetSeconds == nil)
    #expect(file.plays.map(\.wasSkipped) == [false, true, true, false])
    #expect(file.plays[0].completed == true && file.plays[3].completed == false)
    #expect(file.plays[1].song.spotifyURI == "spotify:track:0VjIjW4GlUZAMYd2vXMi3b")
    #expect(file.plays[1].startReason == "trackdone" && file.plays[1].shuffle == true)
    for secret in ["harbour.listener.77", "192.0.2.199", "Pixel 8"] {
      #expect(!allStrings(file).contains { $0.contains(secret) })
    }
  }

  @Test("read from a stream in windows of any size: the same entries; errors at the same place")
  func streamedJSON() throws {
    let bytes = try listeningFixture("spotify-extended.json")
    func entries(_ stream: inout JSONObjectStream) throws -> [String] {
      var out: [String] = []
      while let object = try stream.next() {
        out.append(
          "\(stream.line):\(object.string("ts") ?? "-"):\(object.rawText("ms_played") ?? "-"):\(object.string("master_metadata_track_name") ?? "-")"
        )
      }
      return out
    }
    var whole = try JSONObjectStream(bytes: bytes)
    let expected = try entries(&whole)
    #expect(expected.count == 6)
    for chunk in [1, 2, 3, 5, 7, 16, 64, 100, 333, 4096] {
      var stream = try JSONObjectStream(
        source: MemorySource(bytes, name: "s.json"), chunkSize: chunk)
      #expect(try entries(&stream) == expected, "window \(chunk)")
    }
    // A file cut short, and junk after the array, fail where they fail in memory.
    for text in [String(decoding: bytes.prefix(bytes.count / 2), as: UTF8.self), "[{\"a\":1}] x"] {
      var inMemory = try JSONObjectStream(bytes: Array(text.utf8))
      var streamed = try JSONObjectStream(
        source: MemorySource(Array(text.utf8), name: "c.json"), chunkSize: 3)
      let a = #expect(throws: JSONScanError.self) { _ = try entries(&inMemory) }
      let b = #expect(throws: JSONScanError.self) { _ = try entries(&streamed) }
      #expect(
        a?.line == b?.line && a?.column == b?.column && a?.message == b?.message,
        "\(text.prefix(30))")
    }
  }

  @Test("not a JSON array is unrecognized; cut JSON is malformed")
  func badFiles() {
    #expect(throws: IngestError.self) {
      try SpotifyExtendedReader.read(path: "s.json", bytes: Array("[{\"ts\": \"2024".utf8))
    }
    do {
      _ = try SpotifyExtendedReader.read(path: "s.json", bytes: Array("{\"ts\": 1}".utf8))
      Issue.record("expected an error")
    } catch let error as IngestError {
      #expect(error.kind == .unrecognized)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}

@Suite("Listening readers: values that do not fit")
struct ListeningValueTests {
  @Test(
    "a Spotify ms_played that is a string, too large or not whole is a warning with its line",
    arguments: [#""200000""#, "1e300", "99999999999999999999", "12.5", "null", "-5"])
  func spotifyPlayed(value: String) throws {
    let json = """
      [
      {"ts":"2024-03-11T18:03:20Z","ms_played":\(value),"master_metadata_track_name":"Ember"},
      {"ts":"2024-03-11T18:06:20Z","ms_played":180000,"master_metadata_track_name":"Ember"}
      ]
      """
    let (file, diagnostics) = try SpotifyExtendedReader.read(
      path: "s.json", bytes: Array(json.utf8))
    #expect(file.rows == 2 && file.plays.count == 1)
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.location == SourceLocation(file: "s.json", line: 2))
    #expect(
      diagnostics.first?.message
        == "entry skipped: expected \"ms_played\" as a whole number of milliseconds, found \(value)"
    )
  }

  @Test(
    "a Spotify title that is not text refuses its entry with a warning at its line",
    arguments: ["42", "true", "[\"Ember\"]", "{\"name\": \"Ember\"}"])
  func spotifyTitleOfWrongType(value: String) throws {
    let json = """
      [
      {"ts":"2024-03-11T18:03:20Z","ms_played":200000,"master_metadata_track_name":\(value)},
      {"ts":"2024-03-11T18:06:20Z","ms_played":180000,"master_metadata_track_name":"Ember"},
      {"ts":"2024-03-11T18:09:20Z","ms_played":180000,"master_metadata_track_name":null}
      ]
      """
    let (file, diagnostics) = try SpotifyExtendedReader.read(
      path: "s.json", bytes: Array(json.utf8))
    #expect(file.rows == 3 && file.plays.map(\.song.title) == ["Ember"])
    #expect(diagnostics.map(\.location) == [SourceLocation(file: "s.json", line: 2)])
    #expect(
      diagnostics.first?.message.hasPrefix(
        "entry skipped: expected \"master_metadata_track_name\" as text, found ") == true)
  }

  @Test(
    "Spotify's yes/no fields written as the strings \"true\" and \"false\" are read as booleans")
  func spotifyFlagsAsStrings() throws {
    let json = """
      [
      {"ts":"2024-03-11T18:03:20Z","ms_played":9000,"master_metadata_track_name":"A","skipped":"true","shuffle":"false"},
      {"ts":"2024-03-11T18:06:20Z","ms_played":9000,"master_metadata_track_name":"B","skipped":"false","shuffle":"true"},
      {"ts":"2024-03-11T18:09:20Z","ms_played":9000,"master_metadata_track_name":"C","skipped":"yes"}
      ]
      """
    let (file, diagnostics) = try SpotifyExtendedReader.read(
      path: "s.json", bytes: Array(json.utf8))
    #expect(file.plays.map(\.wasSkipped) == [true, false, false])
    #expect(file.plays.map(\.shuffle) == [false, true, nil])
    #expect(diagnostics.map(\.location) == [SourceLocation(file: "s.json", line: 4)])
    #expect(
      diagnostics.first?.message == "\"skipped\" left out: expected true or false, found \"yes\"")
  }

  @Test(
    "a NUL (\\u0000) inside a JSON title is removed, not an end: Spotify, account history, Library Tracks"
  )
  func nulInJSONTitle() throws {
    let title = #""Before\u0000After""#
    let extended = try SpotifyExtendedReader.read(
      path: "s.json",
      bytes: Array(
        #"[{"ts":"2024-03-11T18:03:20Z","ms_played":9000,"master_metadata_track_name":\#(title),"master_metadata_album_artist_name":"X\u0000"}]"#
          .utf8))
    #expect(extended.0.plays.first?.song.title == "BeforeAfter")
    #expect(extended.0.plays.first?.song.artist == "X")
    #expect(
      extended.1.map(\.message) == [
        #"NUL character (\u0000) removed from "master_metadata_track_name""#,
        #"NUL character (\u0000) removed from "master_metadata_album_artist_name""#,
      ])
    let account = try SpotifyAccountReader.read(
      path: "a.json",
      bytes: Array(
        #"[{"endTime":"2023-04-01 18:22","artistName":"X","trackName":\#(title),"msPlayed":9000}]"#
          .utf8))
    #expect(account.0.plays.first?.song.title == "BeforeAfter" && account.1.count == 1)
    let library = try AppleMusicLibraryTracksReader.read(
      path: "l.json",
      bytes: Array(#"[{"Track Identifier":1,"Title":\#(title),"Content Type":"Song"}]"#.utf8))
    #expect(library.0.songs.first?.title == "BeforeAfter" && library.1.count == 1)
    #expect(library.1.first?.location == SourceLocation(file: "l.json", line: 1))
  }

  @Test("a Library Tracks or account-history title that is not text refuses the row with a warning")
  func titleOfWrongTypeElsewhere() throws {
    let library = try AppleMusicLibraryTracksReader.read(
      path: "l.json",
      bytes: Array(
        """
        [{"Track Identifier":1,"Title":7,"Content Type":"Song"},
        {"Track Identifier":2,"Title":"Seven","Content Type":"Song"}]
        """.utf8))
    #expect(library.0.songs.map(\.title) == ["Seven"])
    #expect(library.1.map(\.message) == [#"track skipped: expected "Title" as text, found 7"#])
    let account = try SpotifyAccountReader.read(
      path: "a.json",
      bytes: Array(#"[{"endTime":"2023-04-01 18:22","trackName":false,"msPlayed":9000}]"#.utf8))
    #expect(account.0.plays.isEmpty)
    #expect(
      account.1.map(\.message) == [#"entry skipped: expected "trackName" as text, found false"#])
  }

  @Test("a NUL byte inside a CSV field is removed, and the row warned of by line and column name")
  func nulInField() throws {
    let csv =
      "Song Name,Event Type,Event Start Timestamp,Play Duration Milliseconds,End Reason Type\n"
      + "Cop\0per Wire,PLAY_END,2016-05-02T08:11:00Z,1000,NATURAL_END_OF_TRACK\n"
      + "\"Glass\0house\",PLAY_END,2016-05-02T08:12:00Z,1000,NATURAL_END_OF_TRACK\n"
    let (file, diagnostics) = try AppleMusicPlayActivityReader.read(
      path: "n.csv", bytes: Array(csv.utf8))
    #expect(file.plays.map { $0.song.title ?? "" } == ["Copper Wire", "Glasshouse"])
    #expect(
      diagnostics.map(\.description) == [
        "warning: n.csv:2: NUL bytes removed from field 'Song Name' (the text is kept without them)",
        "warning: n.csv:3: NUL bytes removed from field 'Song Name' (the text is kept without them)",
      ])
  }
}

@Suite("CSV tokenizer")
struct CSVReaderTests {
  /// The fields of one line, through the tokenizer.
  static func fields(_ line: String) -> [String] {
    var reader = CSVReader(bytes: Array(line.utf8))
    guard let record = try? reader.next() else { return [] }
    return (0..<record.count).map { record.string($0) }
  }

  @Test("quotes, doubled quotes, CRLF, a BOM, empty fields and line breaks inside quotes")
  func tokenizing() throws {
    let text = "\u{FEFF}a,\"b, c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x,\n\nlast"
    var reader = CSVReader(bytes: Array(text.utf8))
    var records: [[String]] = []
    var lines: [Int] = []
    while let record = try reader.next() {
      records.append((0..<record.count).map { record.string($0) })
      lines.append(reader.line)
    }
    #expect(records == [["a", "b, c", "say \"hi\""], ["two\nlines", "", "x", ""], ["last"]])
    #expect(lines == [1, 2, 5])
    #expect(!reader.endedInsideQuotes)
  }

  @Test("read from a stream in windows of any size, the same records on the same lines")
  func streamed() throws {
    let text =
      "\u{FEFF}a,\"b, c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x,\n\n\"q\"\"\",\"\",last\r\nend"
    func records(_ reader: inout CSVReader) throws -> [String] {
      var out: [String] = []
      while let record = try reader.next() {
        out.append(
          "\(reader.line):" + (0..<record.count).map { record.string($0) }.joined(separator: "|"))
      }
      return out
    }
    var whole = CSVReader(bytes: Array(text.utf8))
    let expected = try records(&whole)
    #expect(expected.count == 4)
    for chunk in 1...24 {
      var reader = try CSVReader(
        source: MemorySource(Array(text.utf8), name: "s.csv"), chunkSize: chunk)
      #expect(try records(&reader) == expected, "window \(chunk)")
    }
    // Cut inside quotes: the end of the stream, as for bytes in memory.
    var cut = try CSVReader(
      source: MemorySource(Array("a,\"open".utf8), name: "c.csv"), chunkSize: 2)
    _ = try cut.next()
    #expect(cut.endedInsideQuotes)
  }

  @Test("integers: signs, overflow and junk")
  func integers() throws {
    var reader = CSVReader(bytes: Array("-5974836,59310000,12a,,99999999999999999999".utf8))
    let record = try reader.next()!
    #expect(record.int(0) == -5_974_836 && record.int(1) == 59_310_000)
    #expect(record.int(2) == nil && record.int(3) == nil && record.int(4) == nil)
  }
}
