/// A set of declared options and arguments: a command, or a group of options commands share
/// (`@OptionGroup`).
///
/// Every stored property is declared with `@Option`, `@Flag`, `@Argument` or `@OptionGroup`
/// (or has a default), so `init()` builds it; the runner builds it inside an `ArgumentScope`,
/// where the property wrappers take their values from the parsed words.
package protocol ParsableArguments: Sendable {
  init()

  /// Checks the values as a whole (combinations, ranges) before any work. The runner calls it
  /// on every included group, then on the command.
  ///
  /// - Throws: `UsageError`.
  func validate() throws(UsageError)
}

extension ParsableArguments {
  package func validate() throws(UsageError) {}
}

/// One `resonance` command: what it is called and does, its declared arguments, and the work.
///
/// The runner parses the words against the declared options, builds the command, calls
/// `validate()` on each group and the command, then `run(in:)`. A usage problem found before
/// `run` exits 64 before any work starts. A command parses, calls one stage and prints the
/// stage's result; it never calls another command.
package protocol ParsableCommand: ParsableArguments {
  /// Name, abstract, discussion and examples.
  static var configuration: CommandConfiguration { get }

  /// Does the work, writing through `context`.
  ///
  /// - Returns: the exit status (0 when all went well; a command that goes on after a bad file
  ///   returns the most severe code it met).
  /// - Throws: any error; the runner maps it to a message and an exit code in one place.
  func run(in context: CommandContext) throws -> ExitCode
}

extension ParsableCommand {
  /// Everything the command declares, as the parser and the help read it.
  static var definitions: CommandDefinitions { ArgumentScope.definitions(of: Self.self) }
}
