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

  /// The whole file's plays (tests, small files): `stream` over the bytes, collected.
  ///
  /// - Throws: `IngestError(.unrecognized)` when the header lacks the columns a play needs,
  ///   `.malformed` for a file cut inside a quoted field.
  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    var plays: [PlayReport] = []
    let result = try stream(
      path: path, source: MemorySource(bytes, name: path),
      emit: { batch in
        plays += batch
        return true
      },
      restart: {
        plays.removeAll()
        return true
      })
    return (
      ListeningFile(kind: .applePlayActivity, plays: plays, rows: result.rows),
      result.diagnostics
    )
  }

  /// What `stream` read: rows, warnings, and whether the file was in time order throughout.
  package struct StreamResult: Sendable {
    package var rows: Int
    package var diagnostics: [Diagnostic]
    /// False when a row started before the one above it: the plays were then sent again, in
    /// order, after a `restart`.
    package var inOrder: Bool
  }

  /// Reads the file from `source` without holding it or its rows: plays go to `emit` in batches
  /// as the chains of paused rows close.
  ///
  /// Rows are merged in start order. A file in order (as Apple writes most) is merged as it is
  /// read. Every row also goes, packed in 64 bytes, to a temporary file; at the first row that
  /// starts before the one above it, `restart` is called (what was emitted is void), the rest
  /// of the file is read into the temporary file, and the rows are merged again from it in
  /// start order — memory holds 16 bytes a row for the sort, the file the rest.
  ///
  /// - Parameters:
  ///   - emit: receives the plays; returns false to stop.
  ///   - restart: called once when the file turns out to be out of order; returns false to stop.
  package static func stream(
    path: String, source: any ByteSource, batchSize: Int = 4096,
    emit: ([PlayReport]) -> Bool, restart: () -> Bool
  ) throws -> StreamResult {
    var batch: [PlayReport] = []
    batch.reserveCapacity(batchSize)
    var chain = Chain()
    var lastStart = Int64.min
    var inOrder = true
    var stopped = false
    var spill = try RowSpill(path: path)
    defer { spill.close() }
    var reader = try CSVReader(source: source)
    func send(_ play: PlayReport?) -> Bool {
      guard let play else { return true }
      batch.append(play)
      guard batch.count == batchSize else { return true }
      defer { batch.removeAll(keepingCapacity: true) }
      return emit(batch)
    }
    let (count, diagnostics) = try scan(path: path, reader: &reader) { row in
      try spill.append(row)
      guard inOrder else { return true }
      guard row.startMs >= lastStart else {
        inOrder = false
        batch.removeAll(keepingCapacity: true)
        guard restart() else {
          stopped = true
          return false
        }
        return true
      }
      lastStart = row.startMs
      guard send(chain.add(row)) else {
        stopped = true
        return false
      }
      return true
    }
    guard !stopped else {
      return StreamResult(rows: count, diagnostics: diagnostics, inOrder: inOrder)
    }
    if !inOrder {
      chain = Chain()
      try spill.forEachInStartOrder { row in
        guard send(chain.add(row)) else {
          stopped = true
          return false
        }
        return true
      }
    }
    if !stopped {
      _ = send(chain.finish())
      if !batch.isEmpty { _ = emit(batch) }
    }
    return StreamResult(rows: count, diagnostics: diagnostics, inOrder: inOrder)
  }

  /// The rows of a stream, packed 64 bytes each in an unlinked temporary file (in `TMPDIR`, or
  /// `/tmp`), their names interned: what sorting an out-of-order file needs without holding
  /// its rows.
  private struct RowSpill {
    static let recordSize = 64
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var written: Int64 = 0
    private(set) var count = 0
    /// Interned names; id 0 is "none".
    private var names: [String] = [""]
    private var ids: [String: UInt32] = [:]

    init(path: String) throws {
      self.path = path
      let folder =
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/tmp"
      var template = Array((folder + "/resonance-rows-XXXXXX").utf8CString)
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else {
        throw IOError(
          .failed, path: folder,
          reason: "cannot make a temporary file: " + String(cString: strerror(errno)).lowercased())
      }
      // Gone from the folder at once: the space comes back when the descriptor closes, even
      // if the run is killed.
      template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
      descriptor = fd
      buffer.reserveCapacity(1 << 20)
    }

    private mutating func id(_ name: String?) -> UInt32 {
      guard let name else { return 0 }
      if let known = ids[name] { return known }
      let new = UInt32(names.count)
      names.append(name)
      ids[name] = new
      return new
    }

    mutating func append(_ row: Row) throws {
      func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
      }
      put(row.startMs)
      put(row.endMs)
      put(row.playedMs)
      put(row.mediaMs ?? -1)
      put(id(row.title))
      put(id(row.album))
      put(id(row.artist))
      put(id(row.endReason))
      put(row.offset ?? Int32.min)
      put(Int32(truncatingIfNeeded: row.line))
      put(Int8(row.shuffle.map { $0 ? 1 : 0 } ?? -1))
      buffer.append(contentsOf: repeatElement(0, count: 7))
      count += 1
      if buffer.count >= 1 << 20 { try flush() }
    }

    private mutating func flush() throws {
      try buffer.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let n = pwrite(
            descriptor, bytes.baseAddress! + offset, bytes.count - offset, off_t(written))
          if n < 0, errno == EINTR { continue }
          guard n > 0 else {
            throw IOError(
              .failed, path: path,
              reason: "cannot write the temporary file of rows: "
                + String(cString: strerror(errno)).lowercased())
          }
          offset += n
          written += Int64(n)
        }
      }
      buffer.removeAll(keepingCapacity: true)
    }

    /// Reads `bytes.count` bytes at `offset`.
    private func read(into bytes: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
      var done = 0
      while done < bytes.count {
        let n = pread(
          descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + Int64(done)))
        if n < 0, errno == EINTR { continue }
        guard n > 0 else {
          throw IOError(
            .failed, path: path,
            reason: "cannot read the temporary file of rows: "
              + String(cString: strerror(errno)).lowercased())
        }
        done += n
      }
    }

    private func row(_ r: UnsafeRawBufferPointer) -> Row {
      func get<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
        T(littleEndian: r.loadUnaligned(fromByteOffset: offset, as: T.self))
      }
      let media = get(24, Int64.self)
      let album = get(36, UInt32.self)
      let artist = get(40, UInt32.self)
      let offset = get(48, Int32.self)
      let shuffle = get(56, Int8.self)
      return Row(
        title: names[Int(get(32, UInt32.self))], album: album == 0 ? nil : names[Int(album)],
        artist: artist == 0 ? nil : names[Int(artist)], startMs: get(0, Int64.self),
        endMs: get(8, Int64.self), offset: offset == Int32.min ? nil : offset,
        playedMs: get(16, Int64.self), mediaMs: media < 0 ? nil : media,
        endReason: names[Int(get(44, UInt32.self))],
        shuffle: shuffle < 0 ? nil : shuffle == 1, line: Int(get(52, Int32.self)))
    }

    /// Every row, by start and then by position in the file, to `body` until it returns false.
    mutating func forEachInStartOrder(_ body: (Row) throws -> Bool) throws {
      try flush()
      let size = Self.recordSize
      // The sort keys: start and row number, read through once.
      var keys: [(start: Int64, index: UInt32)] = []
      keys.reserveCapacity(count)
      let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
      defer { block.deallocate() }
      var index = 0
      while index < count {
        let n = min(count - index, block.count / size)
        let part = UnsafeMutableRawBufferPointer(rebasing: block[0..<(n * size)])
        try read(into: part, at: Int64(index * size))
        for i in 0..<n {
          keys.append(
            (
              Int64(littleEndian: part.loadUnaligned(fromByteOffset: i * size, as: Int64.self)),
              UInt32(index + i)
            ))
        }
        index += n
      }
      keys.sort { ($0.start, $0.index) < ($1.start, $1.index) }
      // Rows read back a block of 256 at a time: a file out of order in places reads
      // mostly from the block in hand.
      let perBlock = 256
      var cached = -1
      let cache = UnsafeMutableRawBufferPointer(rebasing: block[0..<(perBlock * size)])
      for key in keys {
        let i = Int(key.index)
        let wanted = i / perBlock
        if wanted != cached {
          let first = wanted * perBlock
          let n = min(perBlock, count - first)
          try read(
            into: UnsafeMutableRawBufferPointer(rebasing: cache[0..<(n * size)]),
            at: Int64(first * size))
          cached = wanted
        }
        let offset = (i % perBlock) * size
        guard try body(row(UnsafeRawBufferPointer(rebasing: cache[offset..<(offset + size)])))
        else { return }
      }
    }

    /// Closes the file (and so frees its space).
    func close() { _ = Glibc.close(descriptor) }
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
  /// Names are not interned: the plays go to the store's thread, where strings shared between
  /// plays would make every retain contend for one cache line.
  private static func scan(
    path: String, reader: inout CSVReader, _ body: (Row) throws -> Bool
  ) throws -> (
    Int, [Diagnostic]
  ) {
    guard let first = try reader.nextRecord(in: path) else {
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
    func intern(_ record: CSVRecord, _ index: Int) -> String? {
      record.withBytes(index) { b -> String? in
        b.isEmpty ? nil : String(decoding: b, as: UTF8.self)
      }
    }
    // Before about 2017 Apple left `Event Type` empty on most rows; a row with an end reason
    // still records how a play ended.
    func isPlayEnd(_ record: CSVRecord) -> Bool {
      if record.equals(eventType, "PLAY_END") { return true }
      guard let reason, record.withBytes(eventType, { $0.isEmpty }) else { return false }
      return record.withBytes(reason) { !$0.isEmpty }
    }
    while let record = try reader.nextRecord(in: path) {
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
      guard try body(row) else { return (count, diagnostics) }
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
    try read(path: path, source: MemorySource(bytes, name: path))
  }

  /// Reads the summary a window of the file at a time: memory holds its songs, not the file.
  package static func read(path: String, source: any ByteSource) throws -> (
    ListeningFile, [Diagnostic]
  ) {
    var reader = try CSVReader(source: source)
    guard let first = try reader.nextRecord(in: path) else {
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
    while let record = try reader.nextRecord(in: path) {
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
