import ResonanceModel
import ResonanceStages

/// `resonance notebook run`: re-runs the blocks of Markdown research notebooks against the
/// store and writes each block's output back after it.
struct NotebookCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "notebook",
    abstract:
      "Re-run Markdown research notebooks against the store, writing each block's output in place.",
    discussion: """
      'resonance notebook run FILE…' executes, in order, every fenced block tagged resonance \
      (one resonance command line) or sql (one query), and writes each block's output right \
      after it between <!-- output --> and <!-- /output -->, replacing the output a previous \
      run left. Prose and every other block are never touched, and a second run changes \
      nothing. The store must exist.

      A resonance block may run only commands that read: status, report --only NAME… (into a \
      temporary folder; the block shows each page's answer), hrv FILE, breathing FILE…, \
      validate. Anything else — sweep, tune, ingest, analyze included — is refused, and the \
      refusal is the block's output. The tuning notebook reads what sweep and tune stored \
      through sql and report --only tuning. An sql block runs one statement against the store \
      opened read-only (SQLite refuses any write) and shows its rows as a Markdown table, at \
      most 50; one that runs past --time-limit or makes a value larger than --memory-limit is \
      stopped, and fails.

      --check writes nothing: it shows the difference and exits 1 when a notebook's outputs \
      are stale. A failing block writes its error as its output, and the command exits 1. \
      docs/notebooks.md describes the format.
      """,
    examples: [
      Example(
        "resonance notebook run notebooks-md/*.md --db Reports/demo.sqlite",
        "Re-run the shipped notebooks against the demo's store."),
      Example(
        "resonance notebook run notebooks-md/what-calms-me.md --db Reports/demo.sqlite --check",
        "Exit 1, showing the difference, if the notebook's outputs are stale."),
    ])

  @Argument(name: "ACTION", help: "What to do with the notebooks: run.")
  var action: String

  @Argument(name: "FILE", help: "The notebooks to run, in order.")
  var files: [String]

  @OptionGroup var store: StoreOptions

  @Flag(
    name: "check", help: "Write nothing; show the difference and exit 1 when outputs are stale.")
  var checksOnly: Bool

  @Option(
    name: "time-limit", placeholder: "S",
    help: "Stop an sql block after S seconds, 0.1–86400. Default: 60.",
    parser: .number(in: 0.1...86_400))
  var seconds = QueryLimits.standard.seconds

  @Option(
    name: "memory-limit", placeholder: "MB",
    help: "The largest value (text or blob) an sql block may make, 1–2000 MB. Default: 100.",
    parser: .integer(in: 1...2_000))
  var megabytes = QueryLimits.standard.valueBytes >> 20

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    guard action == "run" else {
      throw UsageError(
        "'resonance notebook' needs the action 'run'",
        hint: "resonance notebook run notebooks-md/what-calms-me.md")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let request = NotebookRequest(
      store: try store.location(context.environment), files: files, checksOnly: checksOnly,
      runner: CommandLineRunner(), environment: context.environment,
      limits: QueryLimits(seconds: seconds, valueBytes: megabytes << 20))
    let result = try NotebookStage(request).run(progress: context.progress(output))
    context.show(result, output)
    // A stale notebook's difference is what --check is for: shown under --quiet too.
    if output.isQuiet, !output.isJSON {
      result.notebooks.compactMap(\.difference).forEach(context.console.out)
    }
    return result.hasProblems ? .failure : .ok
  }
}
