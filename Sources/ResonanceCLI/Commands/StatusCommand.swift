import Foundation
import ResonanceModel
import ResonanceStore

/// `resonance status`: what the store holds.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "status",
    abstract: "Show what the store holds: records, plays, traces and every imported file.",
    discussion: """
      Counts Apple Health records per type identifier (as written in the export), heartbeats, \
      workouts and plays, the time span each covers (in UTC), and the ingest ledger: one row \
      per imported file, with its SHA-256, importer, status and counts.

      The --json form is a stable interface for scripts; docs/cli.md describes every key.
      """,
    options: [
      CommonOptions.db, CommonOptions.json,
      OptionDefinition(
        "unresolved", .flag,
        help:
          "List the songs without a known artist or genre instead, most played first, with the sources of their plays."
      ),
    ],
    examples: [
      Example("resonance status", "Summarise ./resonance.sqlite."),
      Example(
        "resonance status --unresolved",
        "See which songs no library or summary has named yet (import Library Tracks or Daily Tracks to resolve them)."
      ),
      Example(
        "resonance status --db ~/research/me.sqlite --json",
        "Print the summary of another store as JSON."),
    ])

  var storePath: String
  var isJSON: Bool
  var listsUnresolved: Bool

  init(parsed: ParsedArguments, environment: [String: String]) {
    storePath = CommonOptions.storePath(parsed, environment)
    isJSON = parsed.flag("json")
    listsUnresolved = parsed.flag("unresolved")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    if listsUnresolved {
      context.console.out(try unresolved(store))
      return .ok
    }
    let summary = try store.summary()
    if isJSON {
      context.console.out(try StatusCommand.json(summary) + "\n")
    } else {
      context.console.out(StatusCommand.text(summary, storePath: storePath))
    }
    return .ok
  }

  private func unresolved(_ store: Store) throws -> String {
    let songs = try store.unresolvedSongs()
    if isJSON {
      let objects: [[String: Any]] = songs.map { song in
        var object: [String: Any] = [
          "title": song.title, "plays": song.plays,
          "sources": song.sources.split(separator: ",").map(String.init),
          "missing": [song.artist == nil ? "artist" : nil, song.genre == nil ? "genre" : nil]
            .compactMap { $0 },
        ]
        object["artist"] = song.artist
        object["album"] = song.album
        object["genre"] = song.genre
        object["apple_catalog_id"] = song.appleCatalogID
        return object
      }
      let data = try JSONSerialization.data(
        withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
      return String(decoding: data, as: UTF8.self) + "\n"
    }
    guard !songs.isEmpty else { return "every song has an artist and a genre\n" }
    var lines = [
      "\(songs.count) songs without an artist or a genre (plays, title, album, what is missing, sources):"
    ]
    for song in songs {
      let title =
        song.title.isEmpty
        ? "(no title; Apple catalog ID \(song.appleCatalogID ?? "?"))" : song.title
      let missing = [song.artist == nil ? "artist" : nil, song.genre == nil ? "genre" : nil]
        .compactMap { $0 }.joined(separator: ", ")
      lines.append(
        "  \(song.plays)  \(title)\(song.artist.map { " — " + $0 } ?? "")"
          + "\(song.album.map { " [" + $0 + "]" } ?? "")  missing \(missing)"
          + (song.sources.isEmpty ? "" : "  (\(song.sources))"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The summary as pretty-printed JSON with sorted keys, so the output is stable.
  static func json(_ summary: StoreSummary) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(summary), as: UTF8.self)
  }

  /// The readable form of the same summary.
  static func text(_ summary: StoreSummary, storePath: String) -> String {
    let count = ProgressReporter.grouped
    var lines = ["store: \(storePath) (schema version \(summary.schemaVersion))"]
    let health = summary.health
    let recordTotal = health.records.values.reduce(0, +)
    lines.append(
      "health: \(count(Int64(recordTotal))) records, \(count(Int64(health.heartbeats))) "
        + "heartbeats, \(count(Int64(health.workouts))) workouts\(span(health.first, health.last))")
    for (type, n) in health.records.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
      lines.append("  \(type): \(count(Int64(n)))")
    }
    let listening = summary.listening
    lines.append(
      "listening: \(count(Int64(listening.plays))) plays (\(count(Int64(listening.skips))) "
        + "skipped), \(count(Int64(listening.songs))) songs"
        + span(listening.first, listening.last))
    if listening.plays > 0 {
      let unresolved = listening.plays - listening.resolved
      lines.append(
        "  resolved to an artist and genre: \(count(Int64(listening.resolved))) plays"
          + (unresolved > 0
            ? " (\(count(Int64(unresolved))) not: see 'resonance status --unresolved')" : ""))
    }
    lines.append(
      "traces: \(count(Int64(summary.traces.recordings))) recordings, "
        + "\(count(Int64(summary.traces.samples))) samples")
    if summary.imports.isEmpty {
      lines.append("imports: none yet (see 'resonance --help')")
    } else {
      lines.append("imports: \(summary.imports.count)")
      for entry in summary.imports {
        lines.append(
          "  \(entry.file)  \(entry.importer)  \(entry.status.rawValue)  "
            + "\(count(Int64(entry.records))) records  \(count(Int64(entry.warnings))) warnings  "
            + "sha256 \(entry.sha256.prefix(12))…")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func span(_ first: Timestamp?, _ last: Timestamp?) -> String {
    guard let first, let last else { return "" }
    return ", \(first.iso8601UTC) to \(last.iso8601UTC)"
  }
}
