import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance status`: what the store holds.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "status",
    abstract: "Show what the store holds: records, plays, traces and every imported file.",
    discussion: """
      Counts Apple Health records per type identifier (as written in the export), heartbeats, \
      workouts and plays, the time span each covers, and the ingest ledger: one row per \
      imported file, with its SHA-256, importer, status and counts.

      The --json form is a stable interface for scripts; docs/cli.md describes every key.
      """,
    options: [Option.existingDB, Self.unresolved] + OutputOptions.options,
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

  static let unresolved = Flag(
    "unresolved",
    help:
      "List the songs without a known artist or genre instead, most played first, with the sources of their plays."
  )

  var store: StoreOptions
  var output: OutputOptions
  var listsUnresolved: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    listsUnresolved = parsed[Self.unresolved]
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let opened = try store.openExisting(for: "status")
    if listsUnresolved {
      let songs = try opened.unresolvedSongs()
      if output.isJSON {
        context.console.out(StatusReport.unresolvedJSON(songs).text)
      } else if !output.isQuiet {
        context.console.out(StatusReport.unresolvedText(songs))
      }
      return .ok
    }
    let summary = try opened.summary()
    if output.isJSON {
      context.console.out(StatusReport.json(summary).text)
    } else if !output.isQuiet {
      context.console.out(StatusReport.text(summary, storePath: store.path))
    }
    return .ok
  }
}
