import Foundation
import ResonanceIO
import ResonanceModel

/// Spotify's Extended Streaming History (`Streaming_History_Audio_*.json`, older
/// `endsong_*.json`): a JSON array of streams. `ts` is when the stream **stopped**, so a play
/// starts at `ts − ms_played`. A play is an entry with a track name and `ms_played > 0`
/// (podcast episodes and audiobooks are not songs); it is skipped when `reason_end` is
/// `fwdbtn` or `skipped` is true (`"true"` as a string counts). Spotify records no UTC offset:
/// the import supplies one. A title that is not text refuses the entry, with a warning; a NUL
/// inside text is removed, with a warning (`EntryFields`).
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
    var plays: [PlayReport] = []
    let (rows, diagnostics) = try stream(
      path: path, source: MemorySource(bytes, name: path)
    ) { batch in
      plays += batch
      return true
    }
    return (ListeningFile(kind: .spotifyExtended, plays: plays, rows: rows), diagnostics)
  }

  /// Reads the streams one at a time from `source`, never holding more than a window of it,
  /// handing plays to `emit` in batches (it returns false to stop). Returns the entries read
  /// and the warnings.
  package static func stream(
    path: String, source: any ByteSource, batchSize: Int = 4096, emit: ([PlayReport]) -> Bool
  ) throws -> (rows: Int, diagnostics: [Diagnostic]) {
    var stream: JSONObjectStream
    do {
      stream = try JSONObjectStream(source: source)
    } catch let error as JSONScanError {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: error.line, column: error.column),
        "\(error.message) (a Spotify Extended Streaming History is a JSON array of streams)")
    }
    var batch: [PlayReport] = []
    batch.reserveCapacity(batchSize)
    var diagnostics: [Diagnostic] = []
    var rows = 0
    // No interning of repeated names here: the plays cross to the writer's thread, and
    // strings both threads retain would make every retain contend for one cache line.
    func intern(_ text: String?) -> String? { text }
    do {
      while let object = try stream.next() {
        rows += 1
        let fields = EntryFields(object, at: SourceLocation(file: path, line: stream.line))
        guard
          case .text(let title) = fields.title("master_metadata_track_name", warnings: &diagnostics)
        else { continue }
        guard let playedMs = object.int64("ms_played"), playedMs >= 0 else {
          diagnostics.append(
            Diagnostic(
              .warning,
              "entry skipped: expected \"ms_played\" as a whole number of milliseconds, found \(object.rawText("ms_played") ?? "none")",
              at: SourceLocation(file: path, line: stream.line)))
          continue
        }
        guard playedMs > 0 else { continue }
        let ts = object.rawString("ts")
        guard let endMs = ts?.withUnsafeBufferPointer({ FixedDateParser.isoUTC($0) }) else {
          diagnostics.append(
            Diagnostic(
              .warning,
              "entry skipped: expected \"ts\" as an ISO UTC time, found \(object.string("ts").map { "'\($0)'" } ?? "none")",
              at: SourceLocation(file: path, line: stream.line)))
          continue
        }
        let reasonEnd = intern(fields.text("reason_end", warnings: &diagnostics))
        let skipped =
          reasonEnd == "fwdbtn" || fields.flag("skipped", warnings: &diagnostics) == true
        let uri = fields.text("spotify_track_uri", warnings: &diagnostics)
        batch.append(
          PlayReport(
            song: SongReference(
              title: intern(title),
              artist: intern(
                fields.text("master_metadata_album_artist_name", warnings: &diagnostics)),
              album: intern(
                fields.text("master_metadata_album_album_name", warnings: &diagnostics)),
              spotifyURI: intern(uri.flatMap { $0.hasPrefix("spotify:track:") ? $0 : nil })),
            source: .spotify, startMs: endMs - playedMs, utcOffsetSeconds: nil, endMs: endMs,
            playedMs: playedMs, wasSkipped: skipped, completed: reasonEnd.map { $0 == "trackdone" },
            endReason: reasonEnd,
            startReason: intern(fields.text("reason_start", warnings: &diagnostics)),
            shuffle: fields.flag("shuffle", warnings: &diagnostics), line: stream.line))
        if batch.count == batchSize {
          guard emit(batch) else { return (rows, diagnostics) }
          batch.removeAll(keepingCapacity: true)
        }
      }
    } catch let error as JSONScanError {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: error.column),
        error.message)
    }
    if !batch.isEmpty { _ = emit(batch) }
    return (rows, diagnostics)
  }
}
