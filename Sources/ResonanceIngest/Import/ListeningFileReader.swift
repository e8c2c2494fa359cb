import Foundation
import ResonanceIO
import ResonanceModel

/// Reads one listening file once its first bytes were recognised: the large histories (Apple
/// Music Play Activity in time order, Spotify Extended) send their plays in batches while they
/// parse; the others parse the file whole and send its songs, playlists and plays.
///
/// Every listening reader parses bytes in memory, so the file is read into memory first (the
/// largest real ones are tens of megabytes; a Health export, which is gigabytes, is streamed).
struct ListeningFileReader: ExportReader {
  let kind: ListeningFileKind

  /// Plays per batch sent to the store.
  static let batchSize = 4096

  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    let path = source.name
    let bytes = try source.readAll()
    sink.progress(Int64(bytes.count))
    var summary = ReadSummary()
    switch kind {
    case .applePlayActivity:
      // A few hundred bytes per play: a large file loads in bulk.
      guard sink.send(.expectedPlays(bytes.count / 600)) else { return summary }
      var plays = 0
      let read = try AppleMusicPlayActivityReader.stream(path: path, bytes: bytes) { batch in
        plays += batch.count
        return sink.send(.plays(batch))
      }
      if read.inOrder {
        summary.rows = read.rows
        summary.plays = plays
        summary.diagnostics = read.diagnostics
        summary.warnings = read.diagnostics.count
        return summary
      }
      // Out of time order part-way: what was sent is void; read it whole, sorted.
      guard sink.send(.restart) else { return summary }
    case .spotifyExtended:
      guard sink.send(.expectedPlays(bytes.count / 600)) else { return summary }
      var plays = 0
      let read = try SpotifyExtendedReader.stream(path: path, bytes: bytes) { batch in
        plays += batch.count
        return sink.send(.plays(batch))
      }
      summary.rows = read.rows
      summary.plays = plays
      summary.diagnostics = read.diagnostics
      summary.warnings = read.diagnostics.count
      return summary
    default:
      break
    }
    let (file, diagnostics) = try Self.read(kind, path: path, bytes: bytes)
    summary.rows = file.rows
    summary.plays = file.plays.count
    summary.songs = file.songs.count
    summary.diagnostics = diagnostics
    summary.warnings = diagnostics.count
    let isLibrary = kind == .appleLibraryTracks || kind == .musicLibraryXML
    guard sink.send(.songs(file.songs, isLibrary: isLibrary)),
      sink.send(.playlists(file.playlists)), sink.send(.expectedPlays(file.plays.count))
    else { return summary }
    var start = 0
    while start < file.plays.count {
      let end = min(start + Self.batchSize, file.plays.count)
      guard sink.send(.plays(Array(file.plays[start..<end]))) else { break }
      start = end
    }
    return summary
  }

  /// The whole file, parsed by its kind's reader.
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
}

/// Reads one of the Resonance apps' recordings (plain, or gzip undone by the walk): its
/// header names the format. A decision log's outcomes are also plays: each decision's chosen
/// song, from the decision's time, for as long as its outcome says it was heard.
struct RecordingReader: ExportReader {
  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    let bytes = try source.readAll()
    sink.progress(Int64(bytes.count))
    let (file, diagnostics) = try TraceReader.read(path: source.name, data: Data(bytes))
    var summary = ReadSummary()
    summary.rows = file.samples
    summary.samples = file.samples
    summary.diagnostics = diagnostics
    summary.warnings = diagnostics.count
    guard sink.send(.recording(file)) else { return summary }
    if case .decisions(let decisions) = file.content {
      let plays = Self.plays(from: decisions)
      summary.plays = plays.count
      guard sink.send(.expectedPlays(plays.count)) else { return summary }
      _ = sink.send(.plays(plays))
    }
    return summary
  }

  /// The plays a decision log reports.
  static func plays(from decisions: [DecisionRecord]) -> [PlayReport] {
    decisions.compactMap { d in
      guard let chosen = d.chosen, let outcome = d.outcome else { return nil }
      let start = d.time.millisecondsSinceEpoch
      return PlayReport(
        song: SongReference(
          artist: d.chosenArtist, durationMs: outcome.durationMs, appleCatalogID: chosen),
        source: .decisionLog, startMs: start, utcOffsetSeconds: d.time.utcOffsetSeconds,
        endMs: start + outcome.listenedMs, playedMs: outcome.listenedMs,
        mediaDurationMs: outcome.durationMs, wasSkipped: outcome.skipped,
        completed: outcome.completed, decision: d.decision, line: 0)
    }
  }
}
