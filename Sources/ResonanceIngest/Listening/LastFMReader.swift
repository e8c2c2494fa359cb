import ResonanceIO
import ResonanceModel

/// Reads Last.fm scrobbles as CSV. Last.fm has no export of its own; the de-facto one
/// (benjaminbenben's lastfm-to-csv) writes headerless rows `artist,album,track,date` with the
/// date like `31 Jan 2021 14:05` in UTC. Files with a header naming `artist`, `album`, `track`
/// and a `date`, `utc_time` or `uts` (Unix seconds) column are read by those names.
///
/// A scrobble's time is when the listen began. Last.fm scrobbles only songs played for half
/// their length or four minutes, so a scrobble never marks a skip, and says nothing of how long
/// the song was played.
package enum LastFMReader {
  /// The `uts` values read: Unix seconds from year 0000 to 9999, the years the dates here can
  /// have (a larger number, besides meaning no date, overflowed in milliseconds).
  static let unixSeconds: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Column positions, from the header or the headerless layout.
  private struct Columns {
    var artist = 0
    var album: Int? = 1
    var track = 2
    var date: Int? = 3
    var uts: Int?
  }

  /// Whether the first line of a file is a Last.fm scrobble row or header: at least four CSV
  /// fields, and either the header or a fourth field dated like `31 Jan 2021 14:05`.
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    var reader = CSVReader(bytes: Array(prefix.prefix(4096)))
    guard let first = try? reader.next(), first.count >= 4 else { return false }
    if columns(ofHeader: first) != nil { return true }
    return first.withBytes(3) { lastFMDate($0) } != nil
  }

  /// Reads every row; a row without a track or with a date that does not parse is skipped with
  /// a warning naming its line. A row over the reader's cap stops the read (65, at its line).
  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    try read(path: path, source: MemorySource(bytes, name: path))
  }

  /// Reads the scrobbles a window of the file at a time: memory holds the plays, not the file.
  package static func read(path: String, source: any ByteSource) throws -> (
    ListeningFile, [Diagnostic]
  ) {
    var reader = try CSVReader(source: source)
    guard var record = try reader.nextRecord(in: path) else {
      return (ListeningFile(kind: .lastFM, rows: 0), [])
    }
    var columns = Columns()
    var hasRecord = true
    var names: [String] = []
    if let header = Self.columns(ofHeader: record) {
      columns = header
      hasRecord = false
      names = (0..<record.count).map { record.string($0) }
    }
    var plays: [PlayReport] = []
    var diagnostics: [Diagnostic] = []
    var rows = 0
    while true {
      if !hasRecord {
        guard let next = try reader.nextRecord(in: path) else { break }
        record = next
      }
      hasRecord = false
      rows += 1
      let location = SourceLocation(file: path, line: reader.line)
      if let warning = record.nulWarning(names: names, at: location) { diagnostics.append(warning) }
      guard let track = record.nonEmpty(columns.track) else {
        diagnostics.append(Diagnostic(.warning, "row skipped: no track name", at: location))
        continue
      }
      var startMs: Int64?
      if let uts = columns.uts, let seconds = record.int(uts), Self.unixSeconds.contains(seconds) {
        startMs = seconds * 1000
      }
      if startMs == nil, let date = columns.date {
        startMs = record.withBytes(date) { lastFMDate($0) }
      }
      guard let startMs else {
        let text = (columns.date ?? columns.uts).map { record.string($0) } ?? ""
        diagnostics.append(
          Diagnostic(
            .warning,
            "row skipped: the date '\(text)' is not a UTC time like '31 Jan 2021 14:05'",
            at: location))
        continue
      }
      let song = SongReference(
        title: track, artist: record.nonEmpty(columns.artist),
        album: columns.album.flatMap { record.nonEmpty($0) })
      plays.append(
        PlayReport(
          song: song, source: .lastFM, startMs: startMs, utcOffsetSeconds: nil, endMs: startMs,
          playedMs: nil, wasSkipped: false, line: reader.line))
    }
    return (ListeningFile(kind: .lastFM, plays: plays, rows: rows), diagnostics)
  }

  /// The columns a header row names, when the row is a header: `artist`, `album` and `track`
  /// (in any case), with a `date`, `utc_time` or `uts` column.
  private static func columns(ofHeader record: CSVRecord) -> Columns? {
    var names: [String: Int] = [:]
    for i in 0..<record.count {
      let name = record.string(i).lowercased().filter { $0 != " " }
      if names[name] == nil { names[name] = i }
    }
    guard let artist = names["artist"], let track = names["track"], let album = names["album"]
    else { return nil }
    let date = names["date"] ?? names["utc_time"]
    let uts = names["uts"]
    guard date != nil || uts != nil else { return nil }
    return Columns(artist: artist, album: album, track: track, date: date, uts: uts)
  }

  /// `31 Jan 2021 14:05` (also `1 Jan 2021 14:05`, `31 Jan 2021, 14:05` as Last.fm's API writes
  /// it, and with `:SS`), in UTC, → milliseconds since the epoch. English month abbreviations,
  /// in any case.
  package static func lastFMDate(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
    var i = 0
    let n = b.count
    func skipSpaces() { while i < n, b[i] == 0x20 || b[i] == 0x09 { i += 1 } }
    func number(maxDigits: Int) -> Int64? {
      var value: Int64 = 0
      var count = 0
      while i < n, count < maxDigits, b[i] >= 48, b[i] <= 57 {
        value = value * 10 + Int64(b[i] - 48)
        i += 1
        count += 1
      }
      return count > 0 ? value : nil
    }
    skipSpaces()
    guard let day = number(maxDigits: 2), i < n, b[i] == 0x20 else { return nil }
    skipSpaces()
    guard i + 3 <= n else { return nil }
    let name = (b[i] | 0x20, b[i + 1] | 0x20, b[i + 2] | 0x20)
    guard let month = months.firstIndex(where: { $0 == name }).map({ Int64($0 + 1) }) else {
      return nil
    }
    i += 3
    guard i < n, b[i] == 0x20 else { return nil }
    skipSpaces()
    let yearStart = i
    guard let year = number(maxDigits: 4), i - yearStart == 4 else { return nil }
    if i < n, b[i] == UInt8(ascii: ",") { i += 1 }
    guard i < n, b[i] == 0x20 else { return nil }
    skipSpaces()
    guard let hour = number(maxDigits: 2), i < n, b[i] == UInt8(ascii: ":") else { return nil }
    i += 1
    let minuteStart = i
    guard let minute = number(maxDigits: 2), i - minuteStart == 2 else { return nil }
    var second: Int64 = 0
    if i < n, b[i] == UInt8(ascii: ":") {
      i += 1
      let secondStart = i
      guard let s = number(maxDigits: 2), i - secondStart == 2 else { return nil }
      second = s
    }
    skipSpaces()
    guard i == n, hour < 24, minute < 60, second < 60, day >= 1,
      day <= daysIn(month: month, year: year)
    else { return nil }
    let days = Timestamp.days(fromYear: year, month: month, day: day)
    return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
  }

  /// The same, from a `String`.
  package static func lastFMDate(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { lastFMDate($0) }
  }

  private static let months: [(UInt8, UInt8, UInt8)] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ].map { name in
    let u = Array(name.utf8)
    return (u[0], u[1], u[2])
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
