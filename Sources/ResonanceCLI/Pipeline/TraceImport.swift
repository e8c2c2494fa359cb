import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// Imports one recording of the apps' own formats, plain or gzip, in one transaction.
enum TraceImport {
  struct Result {
    var file: String
    var format: String
    var samples: Int
    var diagnostics: [Diagnostic]
    var previousImport: ImportEntry?
    /// Plays the decision log's outcomes added or merged into other sources' plays.
    var plays = 0
  }

  /// The plays a decision log reports: each decision's chosen song, from the decision's time,
  /// for as long as its outcome says it was listened to.
  static func plays(from decisions: [DecisionRecord], path: String) -> [PlayReport] {
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

  /// The text of bytes (gzip undone) when its first line is one of our formats' headers.
  static func recognize(bytes raw: [UInt8], path: String) throws -> [UInt8]? {
    let text = Decompression.isGzip(raw) ? try Decompression.gunzip(raw, path: path) : raw
    let firstLine = text.prefix { $0 != UInt8(ascii: "\n") }
    guard TraceReader.format(ofFirstLine: firstLine) != nil else { return nil }
    return text
  }

  static func run(path: String, raw: [UInt8], text: [UInt8], store: Store) throws -> Result {
    let (file, diagnostics) = try TraceReader.read(path: path, data: Data(text))
    let hasher = SHA256()
    hasher.update(raw)
    let sha = hasher.finalize()
    var result = Result(
      file: path, format: file.format, samples: file.samples, diagnostics: diagnostics)
    if let previous = try store.existingImport(sha256: sha, importer: file.format) {
      result.previousImport = previous
      return result
    }
    let now = Clock.nowMilliseconds()
    try store.connection.transaction {
      let id = try store.insertImport(
        ImportEntry(
          file: path, sha256: sha, importer: file.format, status: .complete, records: file.samples,
          warnings: diagnostics.count),
        bytes: Int64(raw.count), startedAt: now, finishedAt: now)
      try store.insertTrace(file, importID: id)
      if case .decisions(let decisions) = file.content {
        let writer = try ListeningWriter(store: store, importID: id)
        defer { writer.waitForWrites() }
        _ = try ListeningImport.addPlays(
          plays(from: decisions, path: path), writer: writer, store: store, zone: .none)
        try writer.finish()
        result.plays = writer.counts.playsAdded + writer.counts.playsMerged
      }
    }
    return result
  }
}
