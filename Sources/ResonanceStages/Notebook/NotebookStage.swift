import Foundation
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance notebook run`: re-runs the blocks of Markdown research notebooks against the
/// store and writes each block's output after it.
///
/// An `sql` block runs one statement against the store opened read-only. A `resonance` block
/// runs one command that changes nothing — `status`, `report --only NAME…` (into a
/// temporary folder), `hrv FILE`, `breathing FILE…`, `validate` — through the request's
/// runner; anything else is refused, and the refusal is the block's output.
package struct NotebookStage: Stage {
  package let request: NotebookRequest

  /// The commands a block may run: they read the store or files and change nothing.
  static let allowed: Set<String> = ["status", "report", "hrv", "breathing", "validate"]
  /// Rows an sql block shows.
  static let rowLimit = 50

  package init(_ request: NotebookRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when there is no store; `IOError` for a notebook
  ///   that cannot be read; `StageError.badData` for one that is not UTF-8 text;
  ///   `StageError.io` when one cannot be written.
  package func run(progress: any StageProgress) throws -> NotebookResult {
    // A notebook only reads: the store must exist, and QueryStore opens it read-only.
    try request.store.requireExisting(for: "notebook run")
    let queries = try QueryStore(path: request.store.path)
    var texts: [String] = []
    for file in request.files {
      let data = try InputFile.open(path: file).readAll()
      guard let text = String(bytes: data, encoding: .utf8) else {
        throw StageError(.badData, "\(file): expected a UTF-8 Markdown file")
      }
      texts.append(text)
    }
    var outcomes: [NotebookResult.Outcome] = []
    for (file, text) in zip(request.files, texts) {
      let notebook = Notebook(parsing: text)
      var outputs: [String] = []
      var failures = 0
      for block in notebook.blocks {
        let (output, ok) = run(block, queries: queries)
        outputs.append(output)
        if !ok {
          failures += 1
          progress.say("\(file):\(block.line):1: error: the \(block.kind.rawValue) block failed")
        }
      }
      let rendered = notebook.rendered(outputs: outputs)
      let changed = rendered != text
      if changed, !request.checksOnly { try OutputFiles.write(rendered, to: file) }
      outcomes.append(
        NotebookResult.Outcome(
          file: file, blocks: notebook.blocks.count, failed: failures,
          state: changed ? (request.checksOnly ? .stale : .updated) : .unchanged,
          difference: changed && request.checksOnly
            ? NotebookOutput.diff(text, rendered, name: file) : nil))
    }
    return NotebookResult(notebooks: outcomes)
  }

  /// One block's output, and whether it ran.
  private func run(_ block: Notebook.Block, queries: QueryStore) -> (String, Bool) {
    switch block.kind {
    case .sql:
      do {
        let table = try queries.query(block.code, limit: Self.rowLimit, limits: request.limits)
        return (NotebookOutput.table(table), true)
      } catch {
        let hint = error.kind == .limit ? " (notebook run --time-limit S, --memory-limit MB)" : ""
        return (NotebookOutput.failure("error: \(error.message)" + hint), false)
      }
    case .resonance:
      let words: [String]
      do {
        words = try Self.words(block.code)
      } catch {
        return (NotebookOutput.failure("error: \(error.message)"), false)
      }
      if let refusal = refusal(words) {
        return (NotebookOutput.failure("refused: " + refusal), false)
      }
      var arguments = Array(words.dropFirst())
      let folder = arguments.first == "report" ? TemporaryFolder() : nil
      if let folder { arguments += ["--out", folder.path] }
      defer { folder?.remove() }
      var environment = request.environment
      environment["RESONANCE_DB"] = request.store.path
      let output = request.runner.run(arguments, environment: environment)
      guard output.status == 0 else {
        return (NotebookOutput.failure(output.standardError, status: Int(output.status)), false)
      }
      var printed = output.standardOutput
      if folder != nil {
        // The report's last line names the temporary folder: not the notebook's business.
        printed = printed.split(separator: "\n").filter { !$0.hasPrefix("report: wrote ") }
          .map { $0 + "\n" }.joined()
      }
      return (NotebookOutput.text(printed), true)
    }
  }

  /// Why a block's command line may not run, or nil when it may.
  func refusal(_ words: [String]) -> String? {
    let allowed =
      "a notebook runs only status, report --only NAME…, hrv FILE, breathing FILE… and validate"
    guard words.first == "resonance", words.count >= 2 else {
      return "a resonance block is one command line starting with 'resonance'; \(allowed)"
    }
    let command = words[1]
    guard Self.allowed.contains(command) else {
      return
        "'resonance \(command)' is not one a notebook runs: \(allowed), which change nothing "
        + "(read stored sweeps and tunings with sql and report --only tuning)"
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
      if request.runner.positionals(of: rest, for: command)?.isEmpty ?? true {
        return "'resonance \(command)' in a notebook reads files: name them"
      }
    default:
      break
    }
    return nil
  }

  /// The words of a command line: split at spaces, '…' and "…" quoting, a line ending in a
  /// backslash continued on the next, lines starting with # left out.
  ///
  /// - Throws: `StageError.badData` for an unclosed quote.
  static func words(_ code: String) throws(StageError) -> [String] {
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
      throw StageError(.badData, "an unclosed quote in the command line")
    }
    if inWord { words.append(word) }
    return words
  }
}

/// A folder for a notebook's `report` block, removed after it.
private struct TemporaryFolder {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("resonance-notebook-\(UUID().uuidString)").path

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

extension NotebookResult: ConsolePresentable {
  package var text: String {
    notebooks.map { n in
      (n.difference ?? "")
        + "notebook: \(n.file): \(n.blocks) blocks, \(n.failed) failed, \(n.state.rawValue)\n"
    }.joined()
  }

  package var json: String {
    JSONValue.object([
      "format_version": 1,
      "notebooks": .array(
        notebooks.map {
          [
            "file": .string($0.file), "blocks": .integer($0.blocks),
            "failed": .integer($0.failed), "state": .string($0.state.rawValue),
          ]
        }),
    ]).text
  }
}
