import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceIngest

@Suite("ListenBrainz reader")
struct ListenBrainzReaderTests {
  static let march = "listenbrainz/listens/2024/3.jsonl"

  static func read(_ name: String) throws -> (ListeningFile, [Diagnostic]) {
    try ListenBrainzReader.read(path: name, bytes: listeningFixture(name))
  }

  @Test("a month of the zip, listen by listen: names, start, length, identifiers")
  func month() throws {
    let (file, _) = try Self.read(Self.march)
    #expect(file.kind == .listenBrainz)
    // Nine lines: seven listens, one cut short, one without a start.
    #expect(file.rows == 9)
    let plays = file.plays
    #expect(plays.count == 7)
    #expect(plays.allSatisfy { $0.source == .listenBrainz && $0.utcOffsetSeconds == nil })
    #expect(plays.allSatisfy { $0.playedMs == nil && !$0.wasSkipped && $0.endMs == $0.startMs })

    let lanterns = plays[0]
    #expect(lanterns.line == 1 && lanterns.startMs == 1_710_057_600_000)
    #expect(lanterns.song.title == "Paper Lanterns" && lanterns.song.artist == "Lumen Drift")
    #expect(lanterns.song.album == "Night Roads" && lanterns.song.durationMs == 200_000)
    #expect(lanterns.mediaDurationMs == 200_000)
    // The mapping's recording, in lower case; no Spotify link on this one.
    #expect(lanterns.song.musicBrainzRecordingID == "3f4b8c2e-5d6a-4b7c-8d9e-0a1b2c3d4e5f")
    #expect(lanterns.song.spotifyURI == nil)

    // The track URL, as the Spotify readers give it.
    #expect(plays[1].startMs == 1_710_180_000_000)
    #expect(plays[1].song.spotifyURI == "spotify:track:4uLU6hMCjMI75M1A2tKUQC")

    // `mbid_mapping: null`, names only; the same listen on the next line, read again (the
    // store keeps one).
    #expect(plays[2].song.title == "Glass Houses" && plays[2].song.musicBrainzRecordingID == nil)
    #expect(
      plays[3]
        == PlayReport(
          song: plays[2].song, source: .listenBrainz, startMs: plays[2].startMs,
          utcOffsetSeconds: nil, endMs: plays[2].endMs, playedMs: nil,
          mediaDurationMs: plays[2].mediaDurationMs, wasSkipped: false, line: 4))

    // An msid and no mapping at all; the length in seconds.
    #expect(plays[4].song.title == "Ember" && plays[4].song.durationMs == 210_000)
    #expect(plays[4].song.musicBrainzRecordingID == nil)

    // Names beyond ASCII, kept as written; no length at all.
    #expect(plays[5].song.title == "Nuit étoilée" && plays[5].song.artist == "Sigur Rós")
    #expect(plays[5].song.album == "Ágætis byrjun" && plays[5].song.durationMs == nil)
    #expect(plays[5].song.musicBrainzRecordingID == "0f3c2c5e-1111-4222-8333-444455556666")
    #expect(plays[6].song.title == "夜に駆ける" && plays[6].song.artist == "YOASOBI")
    #expect(plays[6].line == 8)
  }

  @Test("a line that is not JSON and a listen without a start: warnings at their lines")
  func warnings() throws {
    let (_, diagnostics) = try Self.read(Self.march)
    #expect(diagnostics.count == 2)
    #expect(diagnostics.map(\.location?.line) == [7, 9])
    #expect(diagnostics.allSatisfy { $0.location?.file == Self.march })
    #expect(diagnostics[0].message.hasPrefix("line skipped: not a JSON object"))
    #expect(
      diagnostics[1].message
        == "listen skipped: expected \"listened_at\" as Unix seconds, found none")
    #expect(
      diagnostics[0].description.hasPrefix("warning: \(Self.march):7: line skipped"),
      "\(diagnostics[0].description)")
  }

  @Test("the older export: one JSON array of listens, user names and all, none of it kept")
  func array() throws {
    let (file, diagnostics) = try Self.read("listenbrainz-export.json")
    #expect(diagnostics.isEmpty && file.rows == 3 && file.plays.count == 3)
    let ember = file.plays[0]
    #expect(ember.startMs == 1_710_184_170_000 && ember.line == 2)
    // A URL with a locale and a query.
    #expect(ember.song.spotifyURI == "spotify:track:7qiZfU4dY1lWllzX7mPBI3")
    #expect(
      file.plays[1].song.title == "Café del Mar" && file.plays[1].song.album == "Café del Mar")
    #expect(!allStrings(file).contains { $0.contains("lb-listener-42") })
  }

  @Test("recognised by the keys of a listen, as JSON Lines or an array; other JSON is not")
  func recognition() throws {
    #expect(ListenBrainzReader.looksLike(try listeningFixture(Self.march)))
    #expect(ListenBrainzReader.looksLike(try listeningFixture("listenbrainz-export.json")))
    #expect(!ListenBrainzReader.looksLike(try listeningFixture("listenbrainz/user.json")))
    #expect(!ListenBrainzReader.looksLike(try listeningFixture("listenbrainz/feedback.jsonl")))
    #expect(!ListenBrainzReader.looksLike(try listeningFixture("spotify-extended.json")))
    #expect(!ListenBrainzReader.looksLike(try listeningFixture("decisions.jsonl")))
    #expect(
      ImportRegistry.recognize(try listeningFixture(Self.march))
        == .format(.listening(.listenBrainz)))
  }

  @Test("a listened_at of the wrong kind or out of range is the listen's warning")
  func badStarts() throws {
    let values = ["\"1710057600\"", "null", "1e300", "-1e300", "99999999999999999999", "true"]
    let text = values.map { #"{"listened_at":\#($0),"track_metadata":{"track_name":"A"}}"# }
    let (file, diagnostics) = try ListenBrainzReader.read(
      path: "x.jsonl", bytes: Array((text.joined(separator: "\n") + "\n").utf8))
    #expect(file.plays.isEmpty && file.rows == values.count)
    #expect(diagnostics.compactMap(\.location?.line) == Array(1...values.count))
    #expect(diagnostics[0].message.hasSuffix("found \"1710057600\""))
    // A fraction of a second is kept to the millisecond.
    let (fraction, _) = try ListenBrainzReader.read(
      path: "y.jsonl",
      bytes: Array(#"{"listened_at":1710057600.25,"track_metadata":{"track_name":"A"}}"#.utf8))
    #expect(fraction.plays.first?.startMs == 1_710_057_600_250)
  }

  @Test("a listen without a track name, or without track_metadata, is the listen's warning")
  func missingTrack() throws {
    let text = """
      {"listened_at":1710057600,"track_metadata":{"artist_name":"A"}}
      {"listened_at":1710057600}
      {"listened_at":1710057600,"track_metadata":{"track_name":"B","additional_info":{"duration_ms":"long"}}}

      """
    let (file, diagnostics) = try ListenBrainzReader.read(path: "t.jsonl", bytes: Array(text.utf8))
    #expect(file.plays.map(\.song.title) == ["B"] && file.plays[0].song.durationMs == nil)
    #expect(diagnostics.map(\.location?.line) == [1, 2])
    #expect(diagnostics[0].message == "listen skipped: expected a \"track_name\", found none")
  }

  @Test(
    "not listens at all: an error at the first line; an array cut short: at its line and column")
  func errors() throws {
    do {
      _ = try ListenBrainzReader.read(path: "a.csv", bytes: Array("artist,album\nx,y\n".utf8))
      Issue.record("expected an error")
    } catch let error as IngestError {
      #expect(error.kind == .unrecognized && error.location.line == 1 && error.location.column == 1)
    }
    let array = try listeningFixture("listenbrainz-export.json")
    do {
      _ = try ListenBrainzReader.read(path: "cut.json", bytes: Array(array.prefix(700)))
      Issue.record("expected an error")
    } catch let error as IngestError {
      #expect(error.kind == .malformed && error.location.line == 3)
      #expect(error.location.column != nil, "\(error)")
    }
  }

  @Test("Spotify links and MusicBrainz IDs: what is one, what is not")
  func identifiers() {
    for (text, uri) in [
      (
        "https://open.spotify.com/track/1rrgWMXGCGHru5bIRxGFV0",
        "spotify:track:1rrgWMXGCGHru5bIRxGFV0"
      ),
      (
        "http://open.spotify.com/track/1rrgWMXGCGHru5bIRxGFV0?si=x",
        "spotify:track:1rrgWMXGCGHru5bIRxGFV0"
      ),
      ("spotify:track:1rrgWMXGCGHru5bIRxGFV0", "spotify:track:1rrgWMXGCGHru5bIRxGFV0"),
    ] {
      #expect(ListenBrainzReader.spotifyURI(text) == uri)
    }
    for text in [
      "https://open.spotify.com/album/1rrgWMXGCGHru5bIRxGFV0", "https://example.com/track/x",
      "https://open.spotify.com/track/short", "spotify:track:", "",
    ] {
      #expect(ListenBrainzReader.spotifyURI(text) == nil, "\(text)")
    }
    #expect(ListenBrainzReader.recordingID("0F3C2C5E-1111-4222-8333-444455556666") != nil)
    #expect(ListenBrainzReader.recordingID("not-a-uuid") == nil)
    #expect(ListenBrainzReader.recordingID("0f3c2c5e11114222833344445555666") == nil)
  }
}
