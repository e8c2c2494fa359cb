import ResonanceIO
import ResonanceModel

/// What the rest of the tool knows of the formats, derived from the registry's entries: the
/// `--as` names, the lists the help and the messages give, and the sources' ranks for merges.
extension ImportRegistry {
  /// Every format the tool imports, as `--as` lists them: `apple-health`, the listening
  /// formats in `listeningFormats` order, then the apps' recordings.
  package static let formats: [ImportFormat] =
    [.appleHealth] + listeningFormats.map { .listening($0.kind) }
    + RecordingFormat.allCases.map(ImportFormat.recording)

  /// The format whose `--as` (and ledger) name is `name`.
  package static func format(named name: String) -> ImportFormat? {
    formats.first { $0.name == name }
  }

  /// The services whose exports the tool reads, as messages name them: Apple Health, then
  /// each listening format's service once, in `listeningFormats` order (`Apple Music`,
  /// `Music.app`, `Spotify`, `Last.fm`, …).
  package static let services: [String] = listeningFormats.reduce(into: ["Apple Health"]) {
    services, format in
    if !services.contains(format.service) { services.append(format.service) }
  }

  /// The listening files the tool reads, as the help lists them: each service's files, the
  /// services in `listeningFormats` order (`Apple Music Play Activity, Play History Daily
  /// Tracks, Track Play History and Library Tracks; Music.app Library.xml; …`).
  package static let listeningFiles: String = services.compactMap { service in
    let files = listeningFormats.filter { $0.service == service }.map(\.files)
    guard let last = files.last else { return nil }
    return files.count == 1 ? last : files.dropLast().joined(separator: ", ") + " and " + last
  }.joined(separator: "; ")

  /// What an input the tool reads is, for the messages about one it does not: `an export the
  /// tool reads (Apple Health, Apple Music, …) or a Resonance recording`.
  package static let expectedInput =
    "an export the tool reads (\(services.joined(separator: ", "))) or a Resonance recording"

  /// Each listening source's rank when two reports of one listen merge: the listening
  /// formats' (`ListeningFormat.plays`) and the decision log's, for `Store.beginImport`.
  package static let mergePrecedence = MergePrecedence(
    (listeningFormats.compactMap(\.plays) + [RecordingReader.plays]).reduce(into: [:]) {
      ranks, plays in ranks[plays.source] = plays.rank
    })
}

/// The reader of a listening kind no entry of the registry declares. None reaches it (the
/// registry makes every kind `--as` and recognition give), but a kind is a value, and a value
/// from elsewhere is refused with a message rather than a crash.
struct UnknownKindReader: ExportReader {
  let kind: ListeningFileKind

  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    throw IngestError(
      .unrecognized, at: SourceLocation(file: source.name),
      "expected a listening format this build reads, found '\(kind.name)'")
  }
}
