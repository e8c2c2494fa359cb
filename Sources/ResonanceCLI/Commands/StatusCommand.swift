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
    options: [CommonOptions.db, CommonOptions.json],
    examples: [
      Example("resonance status", "Summarise ./resonance.sqlite."),
      Example(
        "resonance status --db ~/research/me.sqlite --json",
        "Print the summary of another store as JSON."),
    ])

  var storePath: String
  var isJSON: Bool

  init(parsed: ParsedArguments, environment: [String: String]) {
    storePath = CommonOptions.storePath(parsed, environment)
    isJSON = parsed.flag("json")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    let summary = try store.summary()
    if isJSON {
      context.console.out(try StatusCommand.json(summary) + "\n")
    } else {
      context.console.out(StatusCommand.text(summary, storePath: storePath))
    }
    return .ok
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
