import ResonanceIO
import ResonanceModel

/// Reads Spotify's account-data streaming history (`StreamingHistory0.json`,
/// `StreamingHistory_music_0.json`): a JSON array of `{"endTime": "2023-04-01 18:22",
/// "artistName", "trackName", "msPlayed"}`, about the last year, in UTC to the minute, with no
/// URI and no skip flag.
///
/// `endTime` is when the stream stopped, so a play began `msPlayed` before it. Podcast episodes
/// and streams of 0 ms are left out without a word; only the track, artist, end time and
/// milliseconds played are kept.
package enum SpotifyAccountReader {
  /// Whether the first bytes of a file are an account-data streaming history: a JSON array
  /// naming `"endTime"` within the first 4 KB, and not the extended history's `"ts"`.
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    let head = Array(prefix.prefix(4096))
    let start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    guard let first = head[start...].first(where: { !isSpace($0) }), first == UInt8(ascii: "[")
    else { return false }
    return head.contains(utf8: "\"endTime\"") && !head.contains(utf8: "\"ts\"")
  }

  /// - Throws: `IngestError(.malformed)` for bytes that are not JSON;
  ///   `IngestError(.unrecognized)` for JSON that is not an array of objects with `endTime`.
  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    try read(path: path, source: MemorySource(bytes, name: path))
  }

  /// Reads the history a window of the file at a time: memory holds the plays, not the file.
  package static func read(path: String, source: any ByteSource) throws -> (
    ListeningFile, [Diagnostic]
  ) {
    let notOurs = IngestError(
      .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
      "expected Spotify's streaming history (a JSON array of objects with \"endTime\")")
    var stream: JSONObjectStream
    do {
      stream = try JSONObjectStream(source: source)
    } catch is JSONScanError {
      throw notOurs
    }
    var plays: [PlayReport] = []
    var diagnostics: [Diagnostic] = []
    var rows = 0
    do {
      while let entry = try stream.next() {
        if rows == 0, entry.kind("endTime") != .string { throw notOurs }
        rows += 1
        let location = SourceLocation(file: path, line: stream.line)
        if entry.has("episodeName") || entry.has("podcastName") { continue }
        guard let endText = entry.string("endTime"), let endMs = minuteUTC(endText) else {
          diagnostics.append(
            Diagnostic(
              .warning, "entry skipped: no \"endTime\" like \"2023-04-01 18:22\"", at: location))
          continue
        }
        guard let msPlayed = entry.int64("msPlayed"), msPlayed >= 0 else {
          diagnostics.append(
            Diagnostic(
              .warning,
              "entry skipped: expected \"msPlayed\" as a whole number of milliseconds, found \(entry.rawText("msPlayed") ?? "none")",
              at: location))
          continue
        }
        if msPlayed == 0 { continue }
        let fields = EntryFields(entry, at: location)
        let title: String
        switch fields.title("trackName", warnings: &diagnostics) {
        case .refused: continue
        case .none:
          diagnostics.append(Diagnostic(.warning, "entry skipped: no \"trackName\"", at: location))
          continue
        case .text(let text): title = text
        }
        let artist = fields.text("artistName", warnings: &diagnostics).flatMap {
          $0.isEmpty ? nil : $0
        }
        plays.append(
          PlayReport(
            song: SongReference(title: title, artist: artist), source: .spotifyAccount,
            startMs: endMs - msPlayed, utcOffsetSeconds: nil, endMs: endMs, playedMs: msPlayed,
            wasSkipped: false, line: stream.line))
      }
    } catch let error as JSONScanError {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: error.column),
        "malformed JSON: \(error.message)")
    }
    guard rows > 0 else { throw notOurs }
    return (ListeningFile(kind: .spotifyAccount, plays: plays, rows: rows), diagnostics)
  }

  /// `2023-04-01 18:22` (or with `:SS`), in UTC, → milliseconds since the epoch.
  package static func minuteUTC(_ text: String) -> Int64? {
    let b = Array(text.utf8)
    guard b.count == 16 || (b.count == 19 && b[16] == UInt8(ascii: ":")), b[10] == 0x20,
      b[13] == UInt8(ascii: ":")
    else { return nil }
    func digits(_ start: Int, _ count: Int) -> Int64? {
      b.withUnsafeBufferPointer { FixedDateParser.digits($0, start, count) }
    }
    guard let days = b.withUnsafeBufferPointer({ FixedDateParser.date($0) }),
      let hour = digits(11, 2), let minute = digits(14, 2), hour < 24, minute < 60
    else { return nil }
    var second: Int64 = 0
    if b.count == 19 {
      guard let s = digits(17, 2), s < 60 else { return nil }
      second = s
    }
    return days * 86_400_000 + (hour * 60 + minute) * 60_000 + second * 1000
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
