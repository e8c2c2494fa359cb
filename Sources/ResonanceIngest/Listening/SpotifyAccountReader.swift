import Foundation
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
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    } catch {
      throw IngestError(
        .malformed, at: location(ofError: error, in: bytes, path: path),
        "malformed JSON: \(reason(error))")
    }
    guard let entries = object as? [Any],
      let first = entries.first as? [String: Any], first["endTime"] is String
    else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected Spotify's streaming history (a JSON array of objects with \"endTime\")")
    }
    let lines = entryLines(bytes)
    var plays: [PlayReport] = []
    var diagnostics: [Diagnostic] = []
    for (index, entry) in entries.enumerated() {
      let line = lines.count == entries.count ? lines[index] : index + 1
      let location = SourceLocation(file: path, line: line)
      guard let entry = entry as? [String: Any] else {
        diagnostics.append(Diagnostic(.warning, "entry skipped: not an object", at: location))
        continue
      }
      if entry["episodeName"] != nil || entry["podcastName"] != nil { continue }
      guard let endText = entry["endTime"] as? String, let endMs = minuteUTC(endText) else {
        diagnostics.append(
          Diagnostic(
            .warning, "entry skipped: no \"endTime\" like \"2023-04-01 18:22\"", at: location))
        continue
      }
      guard let msPlayed = wholeNumber(entry["msPlayed"]), msPlayed >= 0 else {
        diagnostics.append(
          Diagnostic(
            .warning, "entry skipped: \"msPlayed\" is not a whole number of milliseconds",
            at: location))
        continue
      }
      if msPlayed == 0 { continue }
      guard let title = entry["trackName"] as? String, !title.isEmpty else {
        diagnostics.append(Diagnostic(.warning, "entry skipped: no \"trackName\"", at: location))
        continue
      }
      let artist = (entry["artistName"] as? String).flatMap { $0.isEmpty ? nil : $0 }
      plays.append(
        PlayReport(
          song: SongReference(title: title, artist: artist), source: .spotifyAccount,
          startMs: endMs - msPlayed, utcOffsetSeconds: nil, endMs: endMs, playedMs: msPlayed,
          wasSkipped: false, line: line))
    }
    return (
      ListeningFile(kind: .spotifyAccount, plays: plays, rows: entries.count), diagnostics
    )
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

  /// The line each element of the top-level array starts on, found by a scan that tracks
  /// strings and nesting (JSONSerialization gives no positions).
  static func entryLines(_ bytes: [UInt8]) -> [Int] {
    var lines: [Int] = []
    var line = 1
    var depth = 0
    var inString = false
    var escaped = false
    var expectingElement = false
    for byte in bytes {
      if byte == 0x0A { line += 1 }
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      if depth == 1, expectingElement, !isSpace(byte), byte != UInt8(ascii: "]") {
        lines.append(line)
        expectingElement = false
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth == 1 { expectingElement = true }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      case UInt8(ascii: ","): if depth == 1 { expectingElement = true }
      default: break
      }
    }
    return lines
  }

  /// Where JSONSerialization gave up, as a line and column when it says at which byte: in
  /// `NSJSONSerializationErrorIndex` (Darwin) or as "around character N" in its description
  /// (swift-corelibs-foundation).
  private static func location(ofError error: any Error, in bytes: [UInt8], path: String)
    -> SourceLocation
  {
    let info = (error as NSError).userInfo
    var index = info["NSJSONSerializationErrorIndex"] as? Int
    if index == nil, let text = info[NSDebugDescriptionErrorKey] as? String,
      let range = text.range(of: "around character ")
    {
      index = Int(text[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
    guard let index, index >= 0, index <= bytes.count else { return SourceLocation(file: path) }
    var line = 1
    var column = 1
    for byte in bytes[..<index] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return SourceLocation(file: path, line: line, column: column)
  }

  /// JSONSerialization's own words for what went wrong, in the house's lower case.
  private static func reason(_ error: any Error) -> String {
    guard var text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String,
      let first = text.first
    else { return "not valid JSON" }
    text = first.lowercased() + text.dropFirst()
    while text.last == "." { text.removeLast() }
    return text
  }

  /// A JSON number that is a whole number (`123456`, `123456.0`).
  private static func wholeNumber(_ value: Any?) -> Int64? {
    if let value = value as? Int { return Int64(value) }
    if let value = value as? Double { return Int64(exactly: value) }
    return nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
