import ResonanceIO
import ResonanceModel

/// ListenBrainz's listen export: the zip a user downloads (`listens/YYYY/M.jsonl`, one JSON
/// listen per line; the walk opens the zip, each month its own import), or the older single
/// JSON array of listens. A listen is
/// `{"listened_at": 1710180000, "track_metadata": {"artist_name", "track_name",
/// "release_name", "additional_info": {…}, "mbid_mapping": {…} or null}, …}`.
///
/// `listened_at` (Unix seconds, when the listen began; the zip writes it with a fraction) is
/// the play's start. A listen says nothing of how long it was heard: like a Last.fm scrobble
/// it is never a skip and its played time is unknown. Its song is `track_name` by
/// `artist_name` on `release_name`, with `additional_info`'s `duration_ms` (or `duration`,
/// seconds) as its length, `spotify_id` (a track URL) as the Spotify URI the Spotify readers
/// give, and `mbid_mapping.recording_mbid` (else `additional_info.recording_mbid`) as its
/// MusicBrainz recording ID. Nothing else is read: never `user_name`, nor the client and
/// player fields.
///
/// A JSON Lines line that is not a JSON object, or a listen without a start or a track name,
/// is skipped with a warning at its line; the JSON array, which cannot be read past a break,
/// is an error at its line and column.
package enum ListenBrainzReader {
  /// The `listened_at` values read: Unix seconds from year 0000 to 9999, as Last.fm's.
  static let unixSeconds = LastFMReader.unixSeconds

  /// Whether a stream starting with `prefix` is a listen export: JSON Lines whose first line
  /// is an object, or a JSON array, naming `"listened_at"` and `"track_metadata"` in its first
  /// 16 KiB.
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    let head = Array(prefix.prefix(16 << 10))
    guard let first = firstByte(of: head), first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return false }
    return head.contains(utf8: "\"listened_at\"") && head.contains(utf8: "\"track_metadata\"")
  }

  /// The whole file's plays (tests, small files): `stream` over the bytes, collected.
  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    var plays: [PlayReport] = []
    let (rows, diagnostics) = try stream(path: path, source: MemorySource(bytes, name: path)) {
      plays += $0
      return true
    }
    return (ListeningFile(kind: .listenBrainz, plays: plays, rows: rows), diagnostics)
  }

  /// Reads the listens from `source` one at a time, never holding more than a line (JSON
  /// Lines) or a window (the array) of it, handing plays to `emit` in batches (it returns false
  /// to stop). Returns the listens read and the warnings.
  ///
  /// - Throws: `IngestError(.unrecognized)` when the first listen is not a JSON object,
  ///   `.malformed` for an array that stops being JSON; `IOError` from reading.
  package static func stream(
    path: String, source: any ByteSource, batchSize: Int = 4096, emit: ([PlayReport]) -> Bool
  ) throws -> (rows: Int, diagnostics: [Diagnostic]) {
    let input = PeekableSource(wrapping: source)
    var batch = Batch(size: batchSize)
    var log = Log(path: path)
    if firstByte(of: try input.peek(upTo: 4096)) == UInt8(ascii: "[") {
      try readArray(input, path: path, batch: &batch, log: &log, emit: emit)
    } else {
      try readLines(input, path: path, batch: &batch, log: &log, emit: emit)
    }
    batch.flush(emit)
    return (log.rows, log.diagnostics)
  }

  /// The zip's months: one listen per line.
  private static func readLines(
    _ input: PeekableSource, path: String, batch: inout Batch, log: inout Log,
    emit: ([PlayReport]) -> Bool
  ) throws {
    var lines = LineReader(input, maximumLength: TraceReader.maximumLineLength)
    var seenListen = false
    while !batch.isStopped, let line = try lines.next() {
      guard case .text(let bytes) = line.content else {
        log.rows += 1
        log.warn(
          "line skipped: longer than the \(TraceReader.maximumLineLength) bytes a line may have",
          line.number)
        continue
      }
      guard firstByte(of: bytes) != nil else { continue }
      log.rows += 1
      do {
        let listen = try JSONFlatObject(parsing: bytes)
        seenListen = true
        batch.add(try play(listen, line: line.number, log: &log), emit)
      } catch {
        guard seenListen else {
          throw IngestError(
            .unrecognized, at: SourceLocation(file: path, line: line.number, column: error.column),
            "expected a ListenBrainz listen (a JSON object on each line): \(error.message)")
        }
        log.warn(
          "line skipped: not a JSON object: \(error.message) (column \(error.column))", line.number)
      }
    }
  }

  /// The older export: one JSON array of listens.
  private static func readArray(
    _ input: PeekableSource, path: String, batch: inout Batch, log: inout Log,
    emit: ([PlayReport]) -> Bool
  ) throws {
    var stream: JSONObjectStream
    do {
      stream = try JSONObjectStream(source: input)
    } catch let error as JSONScanError {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: error.line, column: error.column),
        "\(error.message) (a ListenBrainz export is a JSON array of listens)")
    }
    do {
      while !batch.isStopped, let listen = try stream.next() {
        log.rows += 1
        do {
          batch.add(try play(listen, line: stream.line, log: &log), emit)
        } catch {
          // A nested value the array skipped whole, read now: its break is one listen's.
          log.warn("listen skipped: \(error.message)", stream.line)
        }
      }
    } catch let error as JSONScanError {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: error.column),
        error.message)
    }
  }

  /// The play one listen reports, or nil (with a warning) when it names no start or track.
  ///
  /// - Throws: `JSONScanError` when a nested object of the listen is not well-formed.
  static func play(_ listen: JSONFlatObject, line: Int, log: inout Log) throws(JSONScanError)
    -> PlayReport?
  {
    guard let startMs = startMs(listen) else {
      log.warn(
        "listen skipped: expected \"listened_at\" as Unix seconds, found \(listen.rawText("listened_at") ?? "none")",
        line)
      return nil
    }
    guard let track = try listen.object("track_metadata") else {
      log.warn(
        "listen skipped: expected a \"track_metadata\" object, found \(listen.rawText("track_metadata") ?? "none")",
        line)
      return nil
    }
    let fields = EntryFields(
      track, at: SourceLocation(file: log.path, line: line), entryName: "listen")
    let title: String
    switch fields.title("track_name", warnings: &log.diagnostics) {
    case .refused: return nil
    case .none:
      log.warn(
        "listen skipped: expected a \"track_name\", found \(track.rawText("track_name") ?? "none")",
        line)
      return nil
    case .text(let text): title = text
    }
    let info = try track.object("additional_info")
    let mapping = try track.object("mbid_mapping")
    // `duration_ms`, else `duration` in seconds; a length of 0 or less is none.
    var durationMs = info?.int64("duration_ms")
    if durationMs == nil, let seconds = info?.int64("duration"), seconds < Int64.max / 1000 {
      durationMs = seconds * 1000
    }
    durationMs = durationMs.flatMap { $0 > 0 ? $0 : nil }
    let mbid = (mapping?.string("recording_mbid") ?? info?.string("recording_mbid")).flatMap(
      recordingID)
    return PlayReport(
      song: SongReference(
        title: title, artist: nonEmpty(fields.text("artist_name", warnings: &log.diagnostics)),
        album: nonEmpty(fields.text("release_name", warnings: &log.diagnostics)),
        durationMs: durationMs,
        spotifyURI: info?.string("spotify_id").flatMap(spotifyURI), musicBrainzRecordingID: mbid),
      source: .listenBrainz, startMs: startMs, utcOffsetSeconds: nil, endMs: startMs,
      playedMs: nil, mediaDurationMs: durationMs, wasSkipped: false, line: line)
  }

  /// `listened_at` in milliseconds: a whole number of seconds, or one with a fraction (as the
  /// zip writes it, `1710180000.000000`), within `unixSeconds`.
  static func startMs(_ listen: JSONFlatObject) -> Int64? {
    if let seconds = listen.int64("listened_at") {
      return unixSeconds.contains(seconds) ? seconds * 1000 : nil
    }
    guard let seconds = listen.number("listened_at"),
      seconds >= Double(unixSeconds.lowerBound), seconds <= Double(unixSeconds.upperBound)
    else { return nil }
    return Int64((seconds * 1000).rounded())
  }

  /// The Spotify URI a `spotify_id` names, as the Spotify readers write it
  /// (`spotify:track:ID`): from a track URL (`https://open.spotify.com/track/ID?si=…`, with or
  /// without a locale path such as `intl-de/`), or a URI already; nil for anything else.
  package static func spotifyURI(_ text: String) -> String? {
    let id: Substring
    if text.hasPrefix("spotify:track:") {
      id = text.dropFirst("spotify:track:".count)
    } else if let range = text.range(of: "open.spotify.com/") {
      let path = text[range.upperBound...].split(separator: "/", omittingEmptySubsequences: true)
      guard let track = path.firstIndex(of: "track"), track + 1 < path.count else { return nil }
      id = path[track + 1].prefix { $0 != "?" && $0 != "#" }
    } else {
      return nil
    }
    // Spotify's IDs are 22 base-62 characters.
    guard id.count == 22, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
      return nil
    }
    return "spotify:track:" + id
  }

  /// A MusicBrainz recording ID as the store keeps it (a UUID in lower case), or nil for text
  /// that is not one.
  static func recordingID(_ text: String) -> String? {
    let lower = text.lowercased()
    let groups = lower.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12],
      lower.allSatisfy({ $0 == "-" || $0.isHexDigit })
    else { return nil }
    return lower
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }

  /// The first byte that is not whitespace or a byte-order mark.
  private static func firstByte(of bytes: [UInt8]) -> UInt8? {
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    return bytes[start...].first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
  }

  /// Plays on their way out, a batch at a time.
  private struct Batch {
    let size: Int
    var plays: [PlayReport] = []
    /// Whether the receiver asked for no more.
    private(set) var isStopped = false

    init(size: Int) {
      self.size = size
      plays.reserveCapacity(size)
    }

    mutating func add(_ play: PlayReport?, _ emit: ([PlayReport]) -> Bool) {
      guard let play, !isStopped else { return }
      plays.append(play)
      if plays.count == size { flush(emit) }
    }

    mutating func flush(_ emit: ([PlayReport]) -> Bool) {
      guard !plays.isEmpty, !isStopped else { return }
      isStopped = !emit(plays)
      plays.removeAll(keepingCapacity: true)
    }
  }

  /// The listens read and the warnings, with their lines.
  struct Log {
    let path: String
    var rows = 0
    var diagnostics: [Diagnostic] = []

    mutating func warn(_ message: String, _ line: Int) {
      diagnostics.append(Diagnostic(.warning, message, at: SourceLocation(file: path, line: line)))
    }
  }
}
