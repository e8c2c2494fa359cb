import ResonanceModel

/// Runs command lines for a notebook's `resonance` blocks through the program itself, with a
/// console that keeps what they print.
struct CommandLineRunner: NotebookCommandRunner {
  func positionals(of words: [String], for command: String) -> [String]? {
    guard let type = Resonance.command(named: command) else { return nil }
    return try? ParsedArguments.parse(words, for: type.configuration, type.definitions)
      .positionals
  }

  func run(_ words: [String], environment: [String: String]) -> NotebookCommandOutput {
    let console = CapturingConsole()
    let status = Resonance.main(words, environment: environment, console: console)
    return NotebookCommandOutput(
      status: status.code, standardOutput: console.standardOutput,
      standardError: console.standardError)
  }
}
