/// One `resonance` command: its configuration, how it reads its parsed arguments, a check of
/// their combination, and the work.
///
/// The runner parses the words, calls `init(parsed:)`, then `validate()`, then `run(in:)`. A
/// usage problem found at any of the first three steps exits 64 before any work starts.
package protocol ParsableCommand {
  /// Name, help, options and examples.
  static var configuration: CommandConfiguration { get }

  /// Reads typed values out of the parsed words.
  ///
  /// - Throws: `UsageError` for a value of the wrong form.
  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError)

  /// Checks the arguments as a whole (combinations, ranges) before any work.
  ///
  /// - Throws: `UsageError`.
  func validate() throws(UsageError)

  /// Does the work, writing through `context`.
  ///
  /// - Returns: the exit status (0 when all went well; a command that goes on after a bad file
  ///   returns the most severe code it met).
  /// - Throws: any error; the runner maps it to a message and an exit code in one place.
  func run(in context: CommandContext) throws -> ExitCode
}

extension ParsableCommand {
  package func validate() throws(UsageError) {}
}
