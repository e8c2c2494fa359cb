import ResonanceModel
import ResonanceStages

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

  @OptionGroup var store: StoreOptions

  @Flag(
    name: "unresolved",
    help:
      "List the songs without a known artist or genre instead, most played first, with the sources of their plays."
  )
  var listsUnresolved: Bool

  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode {
    let request = StatusRequest(
      store: try store.location(context.environment), listsUnresolved: listsUnresolved)
    context.show(try StatusStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
