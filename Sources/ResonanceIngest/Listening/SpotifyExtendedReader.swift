import Foundation
import ResonanceIO
import ResonanceModel

/// Spotify's Extended Streaming History (`Streaming_History_Audio_*.json`, older
/// `endsong_*.json`): a JSON array of streams. `ts` is when the stream **stopped**, so a play
/// starts at `ts − ms_played`. A play is an entry with a track name and `ms_played > 0`
/// (podcast episodes and audiobooks are not songs); it is skipped when `reason_end` is
/// `fwdbtn` or `skipped` is true. Spotify records no UTC offset: the import supplies one.
///
/// Only the fields listed here are read; `username`, `ip_addr`, `conn_country` and the
/// platform string are never kept.
package enum SpotifyExtendedReader {
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
    return text.drop { $0.isWhitespace }.first == "["
      && text.contains("\"ts\"") && text.contains("\"ms_played\"")
  }

  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    let objects = try JSONArrayReading.objects(
      path: path, bytes: bytes, what: "Spotify Extended Streaming History")
    var plays: [PlayReport] = []
    plays.reserveCapacity(objects.count)
    var diagnostics: [Diagnostic] = []
    for (i, object) in objects.enumerated() {
      guard let title = object["master_metadata_track_name"] as? String, !title.isEmpty,
        let played = JSONArrayReading.number(object["ms_played"]), played > 0
      else { continue }
      guard let ts = object["ts"] as? String, let endMs = FixedDateParser.isoUTC(ts) else {
        diagnostics.append(
          Diagnostic(
            .warning,
            "entry \(i + 1) skipped: expected \"ts\" as an ISO UTC time, found \(String(describing: object["ts"] ?? "nothing"))",
            at: SourceLocation(file: path)))
        continue
      }
      let playedMs = Int64(played)
      let reasonEnd = object["reason_end"] as? String
      let skipped = reasonEnd == "fwdbtn" || (object["skipped"] as? Bool ?? false)
      plays.append(
        PlayReport(
          song: SongReference(
            title: title, artist: object["master_metadata_album_artist_name"] as? String,
            album: object["master_metadata_album_album_name"] as? String,
            spotifyURI: (object["spotify_track_uri"] as? String).flatMap {
              $0.hasPrefix("spotify:track:") ? $0 : nil
            }), source: .spotify, startMs: endMs - playedMs, utcOffsetSeconds: nil, endMs: endMs,
          playedMs: playedMs, wasSkipped: skipped,
          completed: reasonEnd.map { $0 == "trackdone" }, endReason: reasonEnd,
          startReason: object["reason_start"] as? String, shuffle: object["shuffle"] as? Bool,
          line: i + 1))
    }
    return (ListeningFile(kind: .spotifyExtended, plays: plays, rows: objects.count), diagnostics)
  }
}
