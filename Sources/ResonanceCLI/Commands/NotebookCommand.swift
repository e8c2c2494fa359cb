import Foundation
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore

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
      nothing.

      A resonance block may run only commands that read: status, report --only NAME… (into a \
      temporary folder; the block shows each page's answer), hrv FILE, breathing FILE…, \
      validate. Anything else — sweep, tune, ingest, analyze included — is refused, and the \
      refusal is the block's output. The tuning notebook reads what sweep and tune stored \
      through sql and report --only tuning. An sql block runs one statement against the store \
      opened read-only (SQLite refuses any write) and shows its rows as a Markdown table, at \
      most 50.

      --check writes nothing: it shows the difference and exits 1 when a notebook's outputs \
      are stale. A failing block writes its error as its output, and the command exits 1. \
      docs/notebooks.md describes the format.
      """,
    arguments: [
      ArgumentDefinition("ACTION", help: "What to do with the notebooks: run."),
      ArgumentDefinition("FILE", help: "The notebooks to run, in order.", variadic: true),
    ],
    options: [Option.existingDB, Self.check] + OutputOptions.options,
    examples: [
      Example(
        "resonance notebook run notebooks-md/*.md --db Reports/demo.sqlite",
        "Re-run the shipped notebooks against the demo's store."),
      Example(
        "resonance notebook run notebooks-md/what-calms-me.md --db Reports/demo.sqlite --check",
        "Exit 1, showing the difference, if the notebook's outputs are stale."),
    ])

  static let check = Flag(
    "check", help: "Write nothing; show the difference and exit 1 when outputs are stale.")

  /// The commands a block may run: they read the store or files and change nothing.
  static let allowed: Set<String> = ["status", "report", "hrv", "breathing", "validate"]
  /// Rows an sql block shows.
  static let rowLimit = 50

  var store: StoreOptions
  var output: OutputOptions
  var checks: Bool
  var files: [String]

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    checks = parsed[Self.check]
    guard parsed.positionals.first == "run" else {
      throw UsageError(
        "'resonance notebook' needs the action 'run'",
        hint: "resonance notebook run notebooks-md/what-calms-me.md")
    }
    files = Array(parsed.positionals.dropFirst())
    guard !files.isEmpty else {
      throw UsageError(
        "'resonance notebook run' needs a notebook", hint: "resonance notebook run FILE.md")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    // A notebook only reads: the store must exist, and QueryStore opens it read-only.
    try store.requireExisting(for: "notebook run")
    let queries = try QueryStore(path: store.path)
    var texts: [String] = []
    for file in files {
      let data = try InputFile.open(path: file).readAll()
      guard let text = String(bytes: data, encoding: .utf8) else {
        throw CommandError(.dataError, "\(file): expected a UTF-8 Markdown file")
      }
      texts.append(text)
    }
    var failed = 0
    var stale = 0
    var summaries: [JSONValue] = []
    for (file, text) in zip(files, texts) {
      let notebook = Notebook(parsing: text)
      var outputs: [String] = []
      var failures = 0
      for block in notebook.blocks {
        let (result, ok) = run(block, queries: queries, context: context)
        outputs.append(result)
        if !ok {
          failures += 1
          if !output.isQuiet {
            context.report(
              "\(file):\(block.line):1: error: the \(block.kind.rawValue) block failed")
          }
        }
      }
      let rendered = notebook.rendered(outputs: outputs)
      let changed = rendered != text
      if checks {
        if changed {
          stale += 1
          if !output.isJSON { context.console.out(NotebookOutput.diff(text, rendered, name: file)) }
        }
      } else if changed {
        try OutputFiles.write(rendered, to: file)
      }
      failed += failures
      let state = changed ? (checks ? "stale" : "updated") : "unchanged"
      if output.isText {
        context.console.out(
          "notebook: \(file): \(notebook.blocks.count) blocks, \(failures) failed, \(state)\n")
      }
      summaries.append([
        "file": .string(file), "blocks": .integer(notebook.blocks.count),
        "failed": .integer(failures), "state": .string(state),
      ])
    }
    if output.isJSON {
      context.console.out(
        JSONValue.object(["format_version": 1, "notebooks": .array(summaries)]).text)
    }
    return failed > 0 || stale > 0 ? .failure : .ok
  }

  /// One block's output, and whether it ran.
  private func run(_ block: Notebook.Block, queries: QueryStore, context: CommandContext)
    -> (String, Bool)
  {
    switch block.kind {
    case .sql:
      do {
        return (NotebookOutput.table(try queries.query(block.code, limit: Self.rowLimit)), true)
      } catch {
        return (NotebookOutput.failure("error: \(error.message)"), false)
      }
    case .resonance:
      let words: [String]
      do {
        words = try Self.words(block.code)
      } catch {
        return (NotebookOutput.failure("error: \(error.message)"), false)
      }
      if let refusal = Self.refusal(words) {
        return (NotebookOutput.failure("refused: " + refusal), false)
      }
      var arguments = Array(words.dropFirst())
      var folder: TemporaryReportFolder?
      if arguments.first == "report" {
        folder = TemporaryReportFolder()
        arguments += ["--out", folder?.path ?? ""]
      }
      defer { folder?.remove() }
      let console = CapturingConsole()
      var environment = context.environment
      environment["RESONANCE_DB"] = store.path
      let status = Resonance.main(arguments, environment: environment, console: console)
      guard status == .ok else {
        return (NotebookOutput.failure(console.standardError, status: Int(status.code)), false)
      }
      var printed = console.standardOutput
      if folder != nil {
        // The report's last line names the temporary folder: not the notebook's business.
        printed = printed.split(separator: "\n").filter { !$0.hasPrefix("report: wrote ") }
          .map { $0 + "\n" }.joined()
      }
      return (NotebookOutput.text(printed), true)
    }
  }

  /// Why a block's command line may not run, or nil when it may.
  static func refusal(_ words: [String]) -> String? {
    let allowed =
      "a notebook runs only status, report --only NAME…, hrv FILE, breathing FILE… and validate"
    guard words.first == "resonance", words.count >= 2 else {
      return "a resonance block is one command line starting with 'resonance'; \(allowed)"
    }
    let command = words[1]
    guard Self.allowed.contains(command) else {
      return
        "'resonance \(command)' is not one a notebook runs: \(allowed), which change nothing (read stored sweeps and tunings with sql and report --only tuning)"
    }
    let rest = Array(words.dropFirst(2))
    switch command {
    case "report":
      if !rest.contains("--only") {
        return "'resonance report' in a notebook names its pages with --only"
      }
      if rest.contains(where: { $0 == "--out" || $0.hasPrefix("--out=") }) {
        return "'resonance report' in a notebook writes nowhere: drop --out"
      }
    case "hrv", "breathing":
      let configuration =
        command == "hrv" ? HRVCommand.configuration : BreathingCommand.configuration
      let parsed = try? ParsedArguments.parse(rest, for: configuration)
      if parsed?.positionals.isEmpty ?? true {
        return "'resonance \(command)' in a notebook reads files: name them"
      }
    default:
      break
    }
    return nil
  }

  /// The words of a command line: split at spaces, '…' and "…" quoting, a line ending in a
  /// backslash continued on the next, lines starting with # left out.
  static func words(_ code: String) throws(CommandError) -> [String] {
    let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.drop(while: \.isWhitespace).hasPrefix("#") }
      .map { $0.hasSuffix("\\") ? String($0.dropLast()) : String($0) }
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    for c in lines.joined(separator: " ") {
      if let q = quote {
        if c == q { quote = nil } else { word.append(c) }
      } else if c == "'" || c == "\"" {
        quote = c
        inWord = true
      } else if c.isWhitespace {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(c)
        inWord = true
      }
    }
    guard quote == nil else {
      throw CommandError(.dataError, "an unclosed quote in the command line")
    }
    if inWord { words.append(word) }
    return words
  }
}

/// A folder for a notebook's `report` block, removed after it.
private struct TemporaryReportFolder {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("resonance-notebook-\(UUID().uuidString)").path

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
