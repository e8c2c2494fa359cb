import Foundation
import ResonanceIO
import ResonanceModel

/// What an Apple Music `End Reason Type` says about a play: the one mapping table, which
/// `docs/formats.md` reproduces.
package enum AppleMusicEndReason {
  /// How a play that ended with `reason` is marked.
  package enum Outcome: String, Sendable {
    /// The listener skipped forward: the only source-marked skip.
    case skipped
    /// Played to its natural end.
    case completed
    /// Paused, suspended, scrubbed, timed out: a chain of rows may continue the listen.
    case interrupted
    /// Stopped for another reason (another item chosen, skipped back, failed, app exited…):
    /// neither a marked skip nor a completion.
    case stopped
  }

  /// End reasons after which the next row of the same song continues the same listen.
  package static let continuing: Set<String> = [
    "PLAYBACK_MANUALLY_PAUSED", "PLAYBACK_SUSPENDED", "PAUSED_ON_TIMEOUT",
    "PLAYBACK_PAUSED_DUE_TO_INACTIVITY", "SCRUB_BEGIN", "SCRUB_END",
  ]

  package static func outcome(_ reason: String) -> Outcome {
    switch reason {
    case "TRACK_SKIPPED_FORWARDS": .skipped
    case "NATURAL_END_OF_TRACK": .completed
    case _ where continuing.contains(reason): .interrupted
    default: .stopped
    }
  }
}

/// Apple Music's `Apple Music Play Activity.csv`: one row per player event. Only the rows
/// that end a play (`PLAY_END`, or in older files an empty `Event Type` with an end reason) and
/// name a song are plays; a listen split by pauses or scrubs (consecutive `PLAY_END`
/// rows of one song, the earlier ended by a pause or scrub, the later starting within 30
/// minutes of its end) is one play. Durations are clamped to [0, media duration].
package enum AppleMusicPlayActivityReader {
  /// The longest gap between a pause and the resumed row that still continues one listen.
  package static let resumeWindowMs: Int64 = 30 * 60_000

  /// Whether a file starting with `prefix` is a Play Activity CSV, by its header.
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    guard let header = CSVHeader.firstLine(of: prefix) else { return false }
    return header.has("Event Type", "Play Duration Milliseconds")
      && header.index("Song Name", "Content Name") != nil
  }

  private struct Row {
    var title: String
    var album: String?
    var artist: String?
    var startMs: Int64
    var endMs: Int64
    var offset: Int32?
    var playedMs: Int64
    var mediaMs: Int64?
    var endReason: String
    var shuffle: Bool?
    var line: Int
  }

  /// - Throws: `IngestError(.unrecognized)` when the header lacks the columns a play needs,
  ///   `.malformed` for a file cut inside a quoted field.
  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    var rows: [Row] = []
    let (count, diagnostics) = try scan(path: path, bytes: bytes, interning: true) { row in
      rows.append(row)
      return true
    }
    // Chronological, so a paused listen's rows are neighbours whatever the file's order.
    let inOrder = zip(rows, rows.dropFirst()).allSatisfy { $0.startMs <= $1.startMs }
    if !inOrder { rows.sort { ($0.startMs, $0.line) < ($1.startMs, $1.line) } }
    var plays: [PlayReport] = []
    plays.reserveCapacity(rows.count)
    var chain = Chain()
    for row in rows {
      if let play = chain.add(row) { plays.append(play) }
    }
    if let play = chain.finish() { plays.append(play) }
    return (ListeningFile(kind: .applePlayActivity, plays: plays, rows: count), diagnostics)
  }

  /// What `stream` read: rows, warnings, and whether the file was in time order throughout.
  package struct StreamResult: Sendable {
    package var rows: Int
    package var diagnostics: [Diagnostic]
    /// False when a row started before the one before it: `stream` stopped there, and the
    /// plays it emitted may be incomplete — read the file with `read` instead.
    package var inOrder: Bool
  }

  /// Reads a file that is in time order (as Apple writes them) without holding its rows: plays
  /// go to `emit` in batches as the chains close. Stops at the first row out of order.
  package static func stream(
    path: String, bytes: [UInt8], batchSize: Int = 4096, emit: ([PlayReport]) -> Bool
  ) throws -> StreamResult {
    var batch: [PlayReport] = []
    batch.reserveCapacity(batchSize)
    var chain = Chain()
    var lastStart = Int64.min
    var inOrder = true
    var stopped = false
    let (count, diagnostics) = try scan(path: path, bytes: bytes, interning: false) { row in
      guard row.startMs >= lastStart else {
        inOrder = false
        return false
      }
      lastStart = row.startMs
      if let play = chain.add(row) {
        batch.append(play)
        if batch.count == batchSize {
          guard emit(batch) else {
            stopped = true
            return false
          }
          batch.removeAll(keepingCapacity: true)
        }
      }
      return true
    }
    if inOrder, !stopped {
      if let play = chain.finish() { batch.append(play) }
      if !batch.isEmpty { _ = emit(batch) }
    }
    return StreamResult(rows: count, diagnostics: diagnostics, inOrder: inOrder)
  }

  /// Merges consecutive rows of one listen (pauses, scrubs) into plays, rows in time order.
  private struct Chain {
    private var open: Row?
    private var played: Int64 = 0
    private var start: Int64 = 0

    /// The play the row closes, if it does not continue the open one.
    mutating func add(_ row: Row) -> PlayReport? {
      if let previous = open, previous.title == row.title, previous.album == row.album,
        AppleMusicEndReason.continuing.contains(previous.endReason),
        row.startMs >= previous.startMs, row.startMs - previous.endMs <= resumeWindowMs
      {
        played += row.playedMs
        if let media = row.mediaMs { played = min(played, media) }
        var merged = row
        merged.artist = row.artist ?? previous.artist
        open = merged
        return nil
      }
      let closed = finish()
      open = row
      played = row.playedMs
      start = row.startMs
      return closed
    }

    /// The open play, closed.
    mutating func finish() -> PlayReport? {
      guard let last = open else { return nil }
      open = nil
      let outcome = AppleMusicEndReason.outcome(last.endReason)
      return PlayReport(
        song: SongReference(
          title: last.title, artist: last.artist, album: last.album, durationMs: last.mediaMs),
        source: .appleMusic, startMs: start, utcOffsetSeconds: last.offset,
        endMs: max(last.endMs, start), playedMs: played, mediaDurationMs: last.mediaMs,
        wasSkipped: outcome == .skipped,
        completed: outcome == .interrupted ? false : outcome == .completed,
        endReason: last.endReason.isEmpty ? nil : last.endReason, shuffle: last.shuffle,
        line: last.line)
    }
  }

  /// Parses the rows that are plays' parts (play ends with a song name), in file order, handing
  /// each to `body` until it returns false. Returns the data rows read and the warnings.
  ///
  /// With `interning`, repeated names share one String (a history plays the same songs over
  /// and over); not when the plays go to another thread, where shared strings would make
  /// every retain contend for one cache line.
  private static func scan(
    path: String, bytes: [UInt8], interning: Bool, _ body: (Row) -> Bool
  ) throws -> (
    Int, [Diagnostic]
  ) {
    var reader = CSVReader(bytes: bytes)
    guard let first = reader.next() else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected an Apple Music Play Activity header, found an empty file")
    }
    let header = CSVHeader(first)
    guard let eventType = header.index("Event Type"),
      let title = header.index("Song Name", "Content Name"),
      let start = header.index("Event Start Timestamp"),
      let played = header.index("Play Duration Milliseconds")
    else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected the Play Activity columns 'Event Type', 'Song Name', 'Event Start Timestamp' and 'Play Duration Milliseconds', found '\(header.names.prefix(6).joined(separator: ","))…'"
      )
    }
    let end = header.index("Event End Timestamp")
    let offset = header.index("UTC Offset In Seconds")
    let media = header.index("Media Duration In Milliseconds")
    let reason = header.index("End Reason Type")
    let album = header.index("Album Name", "Container Album Name")
    let artist = header.index("Artist Name", "Container Artist Name")
    let shuffle = header.index("Shuffle Play")

    var diagnostics: [Diagnostic] = []
    var count = 0
    var names: [Int: [String]] = [:]
    func intern(_ record: CSVRecord, _ index: Int) -> String? {
      record.withBytes(index) { b -> String? in
        guard !b.isEmpty else { return nil }
        guard interning else { return String(decoding: b, as: UTF8.self) }
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(b))
        let key = hasher.finalize()
        if let candidates = names[key] {
          for candidate in candidates where candidate.utf8.elementsEqual(b) { return candidate }
        }
        let text = String(decoding: b, as: UTF8.self)
        names[key, default: []].append(text)
        return text
      }
    }
    // Before about 2017 Apple left `Event Type` empty on most rows; a row with an end reason
    // still records how a play ended.
    func isPlayEnd(_ record: CSVRecord) -> Bool {
      if record.equals(eventType, "PLAY_END") { return true }
      guard let reason, record.withBytes(eventType, { $0.isEmpty }) else { return false }
      return record.withBytes(reason) { !$0.isEmpty }
    }
    while let record = reader.next() {
      count += 1
      if let warning = record.nulWarning(
        names: header.names, at: SourceLocation(file: path, line: reader.line))
      {
        diagnostics.append(warning)
      }
      guard isPlayEnd(record), let name = intern(record, title) else { continue }
      let location = SourceLocation(file: path, line: reader.line)
      guard let playedRaw = record.int(played) else {
        diagnostics.append(
          Diagnostic(
            .warning,
            "row skipped: expected a whole number in 'Play Duration Milliseconds', found '\(record.string(played))'",
            at: location))
        continue
      }
      let mediaMs = media.flatMap { record.int($0) }.flatMap { $0 > 0 ? $0 : nil }
      let playedMs = min(max(playedRaw, 0), mediaMs ?? Int64.max)
      let startMs = record.withBytes(start) { FixedDateParser.isoUTC($0) }
      let endMs = end.flatMap { i in record.withBytes(i) { FixedDateParser.isoUTC($0) } }
      guard let startMs = startMs ?? endMs.map({ $0 - playedMs }) else {
        diagnostics.append(
          Diagnostic(
            .warning,
            "row skipped: expected an ISO UTC time in 'Event Start Timestamp' or 'Event End Timestamp', found '\(record.string(start))'",
            at: location))
        continue
      }
      let offsetSeconds = offset.flatMap { record.int($0) }.flatMap {
        abs($0) <= 18 * 3600 ? Int32($0) : nil
      }
      let row = Row(
        title: name, album: album.flatMap { intern(record, $0) },
        artist: artist.flatMap { intern(record, $0) }, startMs: startMs,
        endMs: endMs ?? startMs + playedMs, offset: offsetSeconds, playedMs: playedMs,
        mediaMs: mediaMs, endReason: reason.flatMap { intern(record, $0) } ?? "",
        shuffle: shuffle.flatMap { i in
          record.equals(i, "SHUFFLE_ON") ? true : record.equals(i, "SHUFFLE_OFF") ? false : nil
        }, line: reader.line)
      guard body(row) else { return (count, diagnostics) }
    }
    if reader.endedInsideQuotes {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: reader.line),
        "expected a closing quote, found the end of the file (is it cut short?)")
    }
    return (count, diagnostics)
  }
}

/// Splits Apple's `Artist - Title` descriptions on the first " - " (titles may hold more).
package func splitArtistTitle(_ text: String) -> (artist: String, title: String)? {
  guard let range = text.range(of: " - ") else { return nil }
  let artist = String(text[..<range.lowerBound])
  let title = String(text[range.upperBound...])
  guard !artist.isEmpty, !title.isEmpty else { return nil }
  return (artist, title)
}

/// Apple Music's `Play History Daily Tracks.csv` and `Track Play History.csv`: per-day or
/// last-played summaries of the same listening the Play Activity file holds. They are read
/// only for the artist each `Artist - Title` description gives, never counted as plays.
package enum AppleMusicHistorySummaryReader {
  /// Whether a file starting with `prefix` is one of the two summaries, and which.
  package static func kind(of prefix: [UInt8]) -> ListeningFileKind? {
    guard let header = CSVHeader.firstLine(of: prefix) else { return nil }
    if header.has("Track Description"), header.index("Date Played", "Last Played Date") != nil {
      return .appleDailyTracks
    }
    if header.has("Track Name", "Last Played Date") { return .appleTrackPlayHistory }
    return nil
  }

  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    var reader = CSVReader(bytes: bytes)
    guard let first = reader.next() else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected an Apple Music play history header, found an empty file")
    }
    let header = CSVHeader(first)
    let isDaily = header.has("Track Description")
    guard let description = header.index("Track Description", "Track Name") else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected a 'Track Description' or 'Track Name' column, found '\(header.names.prefix(6).joined(separator: ","))…'"
      )
    }
    var songs: [SongReference] = []
    var seen: Set<String> = []
    var diagnostics: [Diagnostic] = []
    var count = 0
    while let record = reader.next() {
      count += 1
      if let warning = record.nulWarning(
        names: header.names, at: SourceLocation(file: path, line: reader.line))
      {
        diagnostics.append(warning)
      }
      let text = record.string(description)
      guard let (artist, title) = splitArtistTitle(text) else {
        diagnostics.append(
          Diagnostic(
            .warning, "row skipped: expected 'Artist - Title', found '\(text)'",
            at: SourceLocation(file: path, line: reader.line)))
        continue
      }
      if seen.insert(text).inserted { songs.append(SongReference(title: title, artist: artist)) }
    }
    return (
      ListeningFile(
        kind: isDaily ? .appleDailyTracks : .appleTrackPlayHistory, songs: songs, rows: count),
      diagnostics
    )
  }
}

/// Apple Music's `Apple Music Library Tracks.json`: the library with genre, duration, tempo
/// (when not 0), play and skip counts, and the catalog ID that links it to the decision log.
package enum AppleMusicLibraryTracksReader {
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
    return text.drop { $0.isWhitespace }.first == "["
      && text.contains("\"Track Identifier\"") && text.contains("\"Title\"")
  }

  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    var stream: JSONObjectStream
    do {
      stream = try JSONObjectStream(bytes: bytes)
    } catch {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: error.line, column: error.column),
        "\(error.message) (Library Tracks is a JSON array of tracks)")
    }
    var songs: [SongReference] = []
    var diagnostics: [Diagnostic] = []
    var rows = 0
    do {
      while let track = try stream.next() {
        rows += 1
        guard let title = track.string("Title"), !title.isEmpty else {
          diagnostics.append(
            Diagnostic(
              .warning, "track skipped: no \"Title\"",
              at: SourceLocation(file: path, line: stream.line)))
          continue
        }
        if let type = track.string("Content Type"), type != "Song" { continue }
        // Identifiers come as numbers or as strings; 0 means none.
        let catalogID =
          track.int64("Apple Music Track Identifier").map(String.init)
          ?? track.string("Apple Music Track Identifier")
        songs.append(
          SongReference(
            title: title, artist: track.string("Artist"), album: track.string("Album"),
            genre: track.string("Genre").flatMap { $0.isEmpty ? nil : $0 },
            durationMs: track.int64("Track Duration"),
            appleCatalogID: catalogID.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 },
            bpm: track.number("Beats Per Minute").flatMap { $0 > 0 ? $0 : nil },
            playCount: track.int64("Track Play Count").map { Int($0) },
            skipCount: track.int64("Skip Count").map { Int($0) }))
      }
    } catch {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: error.column),
        error.message)
    }
    return (ListeningFile(kind: .appleLibraryTracks, songs: songs, rows: rows), diagnostics)
  }
}
