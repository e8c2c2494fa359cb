import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// Imports one listening file (or archive member) in one transaction: its ledger row, its
/// songs and playlists, and its plays, merged with what other sources reported.
enum ListeningImport {
  struct Result {
    var file: String
    var kind: ListeningFileKind
    var rows = 0
    var plays = 0
    var songs = 0
    var counts = ListeningWriter.Counts()
    var diagnostics: [Diagnostic] = []
    var previousImport: ImportEntry?
    /// Plays whose UTC offset came from each place (`health`, `user`, `utc`).
    var offsets: [String: Int] = [:]
    var seconds = 0.0
    /// Of `seconds`: reading and parsing the file; resolving and writing (with the commit).
    var readSeconds = 0.0
    var writeSeconds = 0.0
  }

  /// Where the offset of a source without one comes from when the Health data has none.
  enum ZoneFallback {
    case fixed(Int32)
    case named(TimeZone)
    case none

    func offset(atMs ms: Int64) -> Int32? {
      switch self {
      case .fixed(let seconds): seconds
      case .named(let zone):
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000)))
      case .none: nil
      }
    }

    /// `+02:00`, `-0700`, `UTC` or an IANA name (`Europe/Paris`); nil when it is none of them.
    static func parse(_ text: String) -> ZoneFallback? {
      if text == "UTC" || text == "Z" { return .fixed(0) }
      let scalars = Array(text.utf8)
      if let sign = scalars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        let digits = scalars.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let d = digits.map { Int32($0 - 48) }
        let seconds = (d[0] * 10 + d[1]) * 3600 + (d[2] * 10 + d[3]) * 60
        guard seconds <= 18 * 3600 else { return nil }
        return .fixed(sign == UInt8(ascii: "-") ? -seconds : seconds)
      }
      return TimeZone(identifier: text).map { .named($0) }
    }
  }

  /// The kind of listening file whose first bytes are `prefix`, by content.
  static func recognize(_ prefix: [UInt8]) -> ListeningFileKind? {
    if AppleMusicPlayActivityReader.looksLike(prefix) { return .applePlayActivity }
    if let kind = AppleMusicHistorySummaryReader.kind(of: prefix) { return kind }
    if AppleMusicLibraryTracksReader.looksLike(prefix) { return .appleLibraryTracks }
    if SpotifyExtendedReader.looksLike(prefix) { return .spotifyExtended }
    if SpotifyAccountReader.looksLike(prefix) { return .spotifyAccount }
    if MusicLibraryReader.looksLike(prefix) { return .musicLibraryXML }
    if LastFMReader.looksLike(prefix) { return .lastFM }
    return nil
  }

  static func read(_ kind: ListeningFileKind, path: String, bytes: [UInt8]) throws -> (
    ListeningFile, [Diagnostic]
  ) {
    switch kind {
    case .applePlayActivity: try AppleMusicPlayActivityReader.read(path: path, bytes: bytes)
    case .appleDailyTracks, .appleTrackPlayHistory:
      try AppleMusicHistorySummaryReader.read(path: path, bytes: bytes)
    case .appleLibraryTracks: try AppleMusicLibraryTracksReader.read(path: path, bytes: bytes)
    case .musicLibraryXML: try MusicLibraryReader.read(path: path, bytes: bytes)
    case .spotifyExtended: try SpotifyExtendedReader.read(path: path, bytes: bytes)
    case .spotifyAccount: try SpotifyAccountReader.read(path: path, bytes: bytes)
    case .lastFM: try LastFMReader.read(path: path, bytes: bytes)
    }
  }

  /// Reads and stores one file. A reader's error leaves the store untouched.
  static func run(
    name: String, bytes: [UInt8], kind: ListeningFileKind, store: Store, zone: ZoneFallback
  ) throws -> Result {
    let started = Date()
    var result = Result(file: name, kind: kind)
    let hasher = SHA256()
    hasher.update(bytes)
    let sha = hasher.finalize()
    if let previous = try store.existingImport(sha256: sha, importer: kind.rawValue) {
      result.previousImport = previous
      return result
    }
    let readStarted = Date()
    let (file, diagnostics) = try read(kind, path: name, bytes: bytes)
    result.readSeconds = Date().timeIntervalSince(readStarted)
    let writeStarted = Date()
    result.rows = file.rows
    result.plays = file.plays.count
    result.songs = file.songs.count
    result.diagnostics = diagnostics
    let now = Clock.nowMilliseconds()
    try store.connection.transaction {
      let id = try store.insertImport(
        ImportEntry(
          file: name, sha256: sha, importer: kind.rawValue, status: .complete, records: 0,
          warnings: diagnostics.count),
        bytes: Int64(bytes.count), startedAt: now, finishedAt: now)
      let writer = try ListeningWriter(store: store, importID: id)
      try writer.addSongs(
        file.songs, isLibrary: kind == .appleLibraryTracks || kind == .musicLibraryXML)
      try writer.addPlaylists(file.playlists)
      result.offsets = try addPlays(file.plays, writer: writer, store: store, zone: zone)
      try writer.finish()
      result.counts = writer.counts
      let records =
        writer.counts.playsAdded + writer.counts.playsMerged + writer.counts.songsAdded
      try store.updateImportCounts(
        id: id, records: records, warnings: diagnostics.count,
        finishedAt: Clock.nowMilliseconds())
    }
    result.writeSeconds = Date().timeIntervalSince(writeStarted)
    result.seconds = Date().timeIntervalSince(started)
    return result
  }

  /// Stores plays, giving those without a UTC offset the Health data's offset at that moment,
  /// else the user's zone, else UTC. Returns how many took each fallback.
  static func addPlays(
    _ plays: [PlayReport], writer: ListeningWriter, store: Store, zone: ZoneFallback
  ) throws -> [String: Int] {
    var timeline: UTCOffsetTimeline?
    var fallbacks: [String: Int] = [:]
    if let first = plays.map(\.startMs).min(), let last = plays.map(\.startMs).max() {
      try writer.preparePlays(fromMs: first, toMs: last)
      try writer.beginBulkLoad(plays: plays.count)
    }
    for play in plays {
      if let offset = play.utcOffsetSeconds {
        try writer.add(play, offset: offset, offsetSource: "source")
        continue
      }
      if timeline == nil { timeline = try store.healthOffsetTimeline() }
      let (offset, source): (Int32, String) =
        if let health = timeline?.offset(atMs: play.startMs) {
          (health, "health")
        } else if let user = zone.offset(atMs: play.startMs) {
          (user, "user")
        } else {
          (0, "utc")
        }
      fallbacks[source, default: 0] += 1
      try writer.add(play, offset: offset, offsetSource: source)
    }
    return fallbacks
  }
}
