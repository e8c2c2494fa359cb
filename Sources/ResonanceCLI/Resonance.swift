import ResonanceModel
import ResonanceStages

/// The `resonance` program: finds the command, parses its arguments, runs it, and turns any
/// error into a message on standard error and an exit code — in one place.
package enum Resonance {
  /// The version `--version` prints.
  package static let version = "0.1.0"

  /// Every command, in the order `--help` lists them.
  static var commands: [any ParsableCommand.Type] {
    [
      SynthCommand.self, IngestCommand.self, StatusCommand.self, HRVCommand.self,
      BreathingCommand.self, ValidateCommand.self, AnalyzeCommand.self, SweepCommand.self,
      TuneCommand.self, ReportCommand.self, ExportCommand.self, CohortCommand.self,
      NotebookCommand.self, ExperimentCommand.self, DemoCommand.self,
    ]
  }

  /// Runs the program on `arguments` (without the program name) and returns its exit status.
  package static func main(
    _ arguments: [String], environment: [String: String], console: any Console
  ) -> ExitCode {
    let context = CommandContext(console: console, environment: environment)
    guard let first = arguments.first else {
      console.err(overview)
      return .usage
    }
    switch first {
    case "-h", "--help":
      console.out(overview)
      return .ok
    case "--version":
      console.out("resonance \(version)\n")
      return .ok
    case "help":
      guard arguments.count > 1 else {
        console.out(overview)
        return .ok
      }
      guard let command = command(named: arguments[1]) else {
        return fail(unknownCommand(arguments[1]), context: context)
      }
      console.out(help(for: command))
      return .ok
    default:
      guard let command = command(named: first) else {
        return fail(unknownCommand(first), context: context)
      }
      return run(command, Array(arguments.dropFirst()), context: context)
    }
  }

  /// `--help` of one command, from its configuration and declarations.
  static func help(for type: any ParsableCommand.Type) -> String {
    HelpFormatter.help(for: type.configuration, type.definitions)
  }

  private static func run(
    _ type: any ParsableCommand.Type, _ words: [String], context: CommandContext
  ) -> ExitCode {
    do {
      let parsed = try ParsedArguments.parse(words, for: type.configuration, type.definitions)
      if parsed.isHelp {
        context.console.out(help(for: type))
        return .ok
      }
      let (command, groups) = ArgumentScope.build(type, from: parsed)
      for group in groups { try group.validate() }
      try command.validate()
      return try command.run(in: context)
    } catch {
      return fail(error, context: context)
    }
  }

  /// Prints `error: …` (and a hint for usage errors) and returns the error's exit status.
  static func fail(_ error: any Error, context: CommandContext) -> ExitCode {
    context.console.err("error: \(error)\n")
    if let usage = error as? UsageError, let hint = usage.hint {
      context.console.err("hint: \(hint)\n")
    }
    return ExitCode.of(error)
  }

  static func command(named name: String) -> (any ParsableCommand.Type)? {
    commands.first { $0.configuration.name == name }
  }

  static func unknownCommand(_ name: String) -> UsageError {
    let names = commands.map { $0.configuration.name }
    if name.hasPrefix("-") {
      return UsageError(
        "unknown option '\(name)'", hint: "options follow a command: resonance <command> \(name)")
    }
    let nearest = Spelling.nearest(to: name, among: names).map { "did you mean '\($0)'?" }
    return UsageError(
      "unknown command '\(name)'",
      hint: nearest ?? "commands: \(names.joined(separator: ", ")); see 'resonance --help'")
  }

  /// The top-level help: what the tool is and which commands it has.
  static var overview: String {
    var text = """
      OVERVIEW: resonance — what your music does to your heart, from your own exports, offline.

      Reads Apple Health and listening exports into one SQLite store, works out what each
      song did to heart rate, HRV and sleep, and writes reports. Nothing leaves this machine.

      USAGE: resonance <command> [options]

      COMMANDS:

      """
    text += HelpFormatter.table(commands.map { ($0.configuration.name, $0.configuration.abstract) })
    let shared = ArgumentScope.definitions(of: SharedOptions.self).options
    text += """

      OPTIONS SHARED BY THE COMMANDS THAT TAKE THEM:

      """
    text += HelpFormatter.table(
      shared.filter { $0 != .help }.map { option in
        ((option.shortName.map { "-\($0), " } ?? "") + option.synopsis, option.help)
      } + [
        ("-h, --help", "Show help: 'resonance <command> --help' for one command."),
        ("--version", "Print the version and exit."),
      ])
    text += """

      EXAMPLES:
        resonance status
        resonance demo
        resonance help status

      """
    return text
  }
}

/// The options most commands share, as the overview lists them.
private struct SharedOptions: ParsableArguments {
  @OptionGroup var store: StoreOptions
  @OptionGroup var output: OutputOptions
}
