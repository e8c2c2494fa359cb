import Foundation
import ResonanceIO
import ResonanceModel

/// Reads one listening file once its first bytes were recognised, as its format's entry says
/// (`ImportRegistry.listeningFormats`), a window of the file at a time: a streamed format (the
/// large histories) sends its plays in batches while it parses, whatever the file's size; the
/// others are gathered into one `ListeningFile`, then their songs, playlists and plays sent.
/// A play or song
/// whose title, artist, album or genre is longer than `maximumNameLength` is left out with a
/// warning: no real name is, and one that is would cost its length many times over.
struct ListeningFileReader: ExportReader {
  let format: ListeningFormat

  /// Plays per batch sent to the store.
  static let batchSize = 4096
  /// The longest title, artist, album or genre kept, in bytes.
  static let maximumNameLength = 4096

  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    let path = source.name
    var summary = ReadSummary()
    // A few hundred bytes per play: a large file loads in bulk.
    let expected = Int(source.expectedByteCount ?? 0) / 600
    switch format.reading {
    case .streamed(let stream):
      guard sink.send(.expectedPlays(expected)) else { return summary }
      let batches = PlayBatches(sink: sink, path: path, expected: expected)
      let read = try stream(path, source, batches)
      summary.rows = read.rows
      summary.plays = batches.plays
      batches.log.diagnostics = read.diagnostics + batches.log.diagnostics
      return batches.log.summarise(summary)
    case .whole(let parse):
      var log = Log()
      let (file, diagnostics) = try parse(path, source)
      summary.rows = file.rows
      summary.plays = file.plays.count
      summary.songs = file.songs.count
      log.diagnostics = diagnostics
      let plays = log.named(file.plays, path: path)
      guard
        sink.send(.songs(log.named(file.songs, path: path), isLibrary: format.describesLibrary)),
        sink.send(.playlists(file.playlists)), sink.send(.expectedPlays(plays.count))
      else { return log.summarise(summary) }
      var start = 0
      while start < plays.count {
        let end = min(start + Self.batchSize, plays.count)
        guard sink.send(.plays(Array(plays[start..<end]))) else { break }
        start = end
      }
      return log.summarise(summary)
    }
  }

  /// The warnings of one file: the reader's, then the names left out for their length.
  struct Log {
    var diagnostics: [Diagnostic] = []

    /// `songs` without those whose names are too long.
    mutating func named(_ songs: [SongReference], path: String) -> [SongReference] {
      songs.filter { song in
        guard Self.isTooLong(song) else { return true }
        note(path, line: nil)
        return false
      }
    }

    /// `plays` without those whose song's names are too long.
    mutating func named(_ plays: [PlayReport], path: String) -> [PlayReport] {
      plays.filter { play in
        guard Self.isTooLong(play.song) else { return true }
        note(path, line: play.line)
        return false
      }
    }

    mutating func note(_ path: String, line: Int?) {
      diagnostics.append(
        Diagnostic(
          .warning,
          "skipped: a title, artist, album or genre longer than \(maximumNameLength) bytes",
          at: SourceLocation(file: path, line: line)))
    }

    func summarise(_ summary: ReadSummary) -> ReadSummary {
      var summary = summary
      summary.warnings = diagnostics.count
      summary.diagnostics = Array(diagnostics.prefix(DiagnosticLog.kept))
      return summary
    }

    static func isTooLong(_ song: SongReference) -> Bool {
      [song.title, song.artist, song.album, song.genre].contains {
        ($0?.utf8.count ?? 0) > maximumNameLength
      }
    }
  }
}

/// Where a streamed format's reader sends its plays: each batch, without the names too long to
/// keep, to the sink; and, when the reader must read the file again (a Play Activity file out
/// of time order), word that what it sent is void.
final class PlayBatches {
  private let sink: any ImportSink
  private let path: String
  private let expected: Int
  /// The plays sent and still standing.
  private(set) var plays = 0
  /// The names left out, so far.
  var log = ListeningFileReader.Log()

  init(sink: any ImportSink, path: String, expected: Int) {
    self.sink = sink
    self.path = path
    self.expected = expected
  }

  /// Sends a batch; false when the reader should stop.
  func send(_ batch: [PlayReport]) -> Bool {
    plays += batch.count
    return sink.send(.plays(log.named(batch, path: path)))
  }

  /// Voids what was sent: it comes again, sorted. False when the reader should stop.
  func restart() -> Bool {
    plays = 0
    log.diagnostics.removeAll()
    return sink.send(.restart) && sink.send(.expectedPlays(expected))
  }
}

/// Reads one of the Resonance apps' recordings (plain, or gzip undone by the walk): its
/// header names the format. A decision log's outcomes are also plays: each decision's chosen
/// song, from the decision's time, for as long as its outcome says it was heard.
struct RecordingReader: ExportReader {
  /// The decision log's plays: ranked below every history's, so that a history's report of a
  /// listen decides it, and the log's outcome only plays no history reports.
  static let plays = ListeningFormat.Plays(.decisionLog, rank: 1)

  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    var lines = LineReader(source, maximumLength: TraceReader.maximumLineLength)
    var summary = ReadSummary()
    // The recording goes to the store in parts as it is read: memory holds one part.
    let log = try TraceReader.stream(path: source.name, lines: &lines) { part in
      summary.rows += part.samples
      summary.samples += part.samples
      guard sink.send(.recording(part)) else { return false }
      guard case .decisions(let decisions) = part.content else { return true }
      let plays = Self.plays(from: decisions)
      summary.plays += plays.count
      if !part.continues {
        // A hint for the store's bulk load: the file's size at a few kilobytes a decision.
        let expected = Int((source.expectedByteCount ?? 0) / 4096)
        guard sink.send(.expectedPlays(max(expected, plays.count))) else { return false }
      }
      return plays.isEmpty || sink.send(.plays(plays))
    }
    summary.diagnostics = log.diagnostics
    summary.warnings = log.count
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
