import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore
import Synchronization

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

    /// The zone a `TZ` environment value names, in the POSIX forms it takes besides ours:
    /// `:Europe/Paris`, a zoneinfo path (`/usr/share/zoneinfo/Europe/Paris`), `UTC0`/`GMT0`.
    /// Nil for a value it cannot read (such as `:/etc/localtime`): the import then ignores it.
    static func parse(environment value: String) -> ZoneFallback? {
      var text = value
      if text.hasPrefix(":") { text.removeFirst() }
      if let range = text.range(of: "zoneinfo/") { text = String(text[range.upperBound...]) }
      if ["UTC0", "GMT0", "UTC", "GMT"].contains(text) { return .fixed(0) }
      guard !text.isEmpty, !text.hasPrefix("/") else { return nil }
      return parse(text)
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

  /// Reads and stores one file (`sha256` when the caller hashed it while reading). A reader's
  /// error leaves the store untouched.
  static func run(
    name: String, bytes: [UInt8], sha256: String? = nil, kind: ListeningFileKind, store: Store,
    zone: ZoneFallback
  ) throws -> Result {
    let started = Date()
    var result = Result(file: name, kind: kind)
    let sha =
      sha256
      ?? {
        let hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
      }()
    if let previous = try store.existingImport(sha256: sha, importer: kind.rawValue) {
      result.previousImport = previous
      return result
    }
    if kind == .applePlayActivity || kind == .spotifyExtended {
      do {
        try runStreaming(
          name: name, bytes: bytes, sha: sha, kind: kind, store: store, zone: zone,
          result: &result)
        result.seconds = Date().timeIntervalSince(started)
        result.writeSeconds = result.seconds - result.readSeconds
        return result
      } catch is OutOfOrder {
        result = Result(file: name, kind: kind)  // rolled back: read it whole, sorted
      }
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
      defer { writer.waitForWrites() }
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

  /// Gives plays without a UTC offset the Health data's offset at that moment, else the
  /// user's zone, else UTC, and counts which.
  final class Offsets {
    let store: Store
    let zone: ZoneFallback
    private var timeline: UTCOffsetTimeline?
    private(set) var fallbacks: [String: Int] = [:]

    init(store: Store, zone: ZoneFallback) {
      self.store = store
      self.zone = zone
    }

    func offset(for play: PlayReport) throws -> (Int32, String) {
      if let offset = play.utcOffsetSeconds { return (offset, "source") }
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
      return (offset, source)
    }

    /// Stores plays, each with its offset.
    func add(_ plays: [PlayReport], to writer: ListeningWriter) throws {
      for play in plays {
        let (offset, source) = try offset(for: play)
        try writer.add(play, offset: offset, offsetSource: source)
      }
    }
  }

  /// Stores plays with their offsets. Returns how many took each fallback offset.
  static func addPlays(
    _ plays: [PlayReport], writer: ListeningWriter, store: Store, zone: ZoneFallback
  ) throws -> [String: Int] {
    try writer.beginBulkLoad(plays: plays.count)
    let offsets = Offsets(store: store, zone: zone)
    try offsets.add(plays, to: writer)
    return offsets.fallbacks
  }

  /// A Play Activity file out of time order: read it whole instead of streaming.
  private struct OutOfOrder: Error {}

  /// What the reading thread of a streamed import ended with.
  private struct Streamed: Sendable {
    var rows = 0
    var diagnostics: [Diagnostic] = []
    var inOrder = true
    var error: (any Error)?
  }

  /// Reads on one thread while the store is written on this one: for the large histories
  /// (Play Activity in time order, Spotify), whose readers stream plays in batches.
  private static func runStreaming(
    name: String, bytes: [UInt8], sha: String, kind: ListeningFileKind, store: Store,
    zone: ZoneFallback, result: inout Result
  ) throws {
    let queue = BoundedQueue<[PlayReport]>(capacity: 8)
    let outcome = Mutex(Streamed())
    let done = DispatchSemaphore(value: 0)
    let readStarted = Date()
    let producer = Thread {
      do {
        switch kind {
        case .applePlayActivity:
          let read = try AppleMusicPlayActivityReader.stream(path: name, bytes: bytes) {
            queue.push($0)
          }
          outcome.withLock {
            $0.rows = read.rows
            $0.diagnostics = read.diagnostics
            $0.inOrder = read.inOrder
          }
        default:
          let read = try SpotifyExtendedReader.stream(path: name, bytes: bytes) { queue.push($0) }
          outcome.withLock {
            $0.rows = read.rows
            $0.diagnostics = read.diagnostics
          }
        }
      } catch {
        outcome.withLock { $0.error = error }
      }
      queue.close()
      done.signal()
    }
    producer.stackSize = 8 << 20
    producer.start()
    var producerEnded = false
    func waitForProducer() {
      guard !producerEnded else { return }
      queue.close()
      done.wait()
      producerEnded = true
    }
    defer { waitForProducer() }
    let now = Clock.nowMilliseconds()
    var plays = 0
    // The writer makes every reference it writes (its own import row, songs it created or
    // found): checking each of a million rows' two foreign keys again is a fifth of SQLite's
    // work. The setting cannot change inside a transaction, hence here.
    try store.connection.execute("PRAGMA foreign_keys = OFF")
    defer { try? store.connection.execute("PRAGMA foreign_keys = ON") }
    try store.connection.transaction {
      let id = try store.insertImport(
        ImportEntry(
          file: name, sha256: sha, importer: kind.rawValue, status: .complete, records: 0,
          warnings: 0),
        bytes: Int64(bytes.count), startedAt: now, finishedAt: now)
      let writer = try ListeningWriter(store: store, importID: id)
      defer { writer.waitForWrites() }
      // A few hundred bytes per play in both formats: a large file loads in bulk.
      try writer.beginBulkLoad(plays: bytes.count / 600)
      let offsets = Offsets(store: store, zone: zone)
      while let batch = queue.pop() {
        plays += batch.count
        try offsets.add(batch, to: writer)
      }
      // The reader has finished: every error it met is known before the commit.
      producerEnded = true
      done.wait()
      let read = outcome.withLock { $0 }
      if let error = read.error { throw error }
      guard read.inOrder else { throw OutOfOrder() }
      result.readSeconds = Date().timeIntervalSince(readStarted)
      try writer.finish()
      result.rows = read.rows
      result.plays = plays
      result.diagnostics = read.diagnostics
      result.offsets = offsets.fallbacks
      result.counts = writer.counts
      let records = writer.counts.playsAdded + writer.counts.playsMerged + writer.counts.songsAdded
      try store.updateImportCounts(
        id: id, records: records, warnings: read.diagnostics.count,
        finishedAt: Clock.nowMilliseconds())
    }
  }
}
