import Testing

@testable import ResonanceCLI
@testable import ResonanceModel

/// A command shaped like `ingest`, declared as every command is.
private struct Sample: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "ingest", abstract: "Read files.",
    examples: [Example("resonance ingest export.zip", "Read an export.")])

  @Argument(name: "PATH", help: "Files to read.") var paths: [String]
  @Option(name: "db", placeholder: "PATH", help: "Store.", parser: .text) var db: String?
  @Option(name: "as", placeholder: "KIND", help: "Force a reader.", parser: .text)
  var kinds: [String] = []
  @Option(name: "months", placeholder: "N", help: "Months.", parser: .integer(in: 1...120))
  var months = 1
  @Option(name: "scale", placeholder: "F", help: "Scale.", parser: .number(in: 0.01...100))
  var scale: Double?
  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode { .ok }
}

/// A command with a required option and a group that checks itself.
private struct Needy: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "needy", abstract: "Needs things.", examples: [Example("resonance needy", "Runs.")])

  @Option(name: "truth", placeholder: "FILE", help: "Required.", parser: .nonEmpty)
  var truth: String
  @OptionGroup var days: DayOptions

  func run(in context: CommandContext) throws -> ExitCode { .ok }
}

@Suite("Argument parser")
struct ArgumentParserTests {
  fileprivate func parse(_ words: [String]) throws(UsageError) -> Sample {
    let parsed = try ParsedArguments.parse(words, for: Sample.configuration, Sample.definitions)
    return ArgumentScope.build(Sample.self, from: parsed).command
  }

  fileprivate func parseNeedy(_ words: [String]) throws(UsageError) -> Needy {
    let parsed = try ParsedArguments.parse(words, for: Needy.configuration, Needy.definitions)
    let (command, groups) = ArgumentScope.build(Needy.self, from: parsed)
    for group in groups { try group.validate() }
    try command.validate()
    return command
  }

  @Test("the options are declared once, in declaration order, groups included, --help last")
  func declarations() {
    let definitions = Sample.definitions
    #expect(
      definitions.options.map(\.name) == ["db", "as", "months", "scale", "json", "quiet", "help"])
    #expect(definitions.arguments.map(\.name) == ["PATH"])
    #expect(definitions.option(named: "as")?.isRepeatable == true)
    #expect(definitions.option(named: "db")?.isRequired == false)
    #expect(Needy.definitions.option(named: "truth")?.isRequired == true)
    #expect(
      HelpFormatter.synopsis(of: Sample.configuration, definitions)
        == "resonance ingest [--db PATH] [--as KIND …] [--months N] [--scale F] [--json] [--quiet] PATH…"
    )
  }

  @Test("sorts flags, values and positionals, in both option spellings, into the properties")
  func basics() throws {
    let command = try parse(["a.xml", "--db", "x.sqlite", "-q", "--as=spotify", "b.json", "--json"])
    #expect(command.paths == ["a.xml", "b.json"])
    #expect(command.db == "x.sqlite")
    #expect(command.kinds == ["spotify"])
    #expect(command.output.isQuiet && command.output.isJSON)
  }

  @Test("an absent option takes its default, or nil")
  func defaults() throws {
    let command = try parse(["a"])
    #expect(command.months == 1)
    #expect(command.scale == nil && command.db == nil && command.kinds.isEmpty)
    #expect(!command.output.isJSON && !command.output.isQuiet)
  }

  @Test("'--' ends options, so a file may start with a dash")
  func doubleDash() throws {
    #expect(try parse(["--", "--weird-name.csv", "-x"]).paths == ["--weird-name.csv", "-x"])
  }

  @Test("a repeatable option keeps every value; a single one refuses a second")
  func repetition() throws {
    #expect(try parse(["a", "--as", "x", "--as", "y"]).kinds == ["x", "y"])
    #expect(throws: UsageError("'--db' given more than once", hint: "give '--db' once")) {
      try parse(["a", "--db", "1", "--db", "2"])
    }
  }

  @Test("an unknown option names the nearest known one")
  func unknownOption() {
    #expect(
      throws: UsageError("unknown option '--jsno' for 'ingest'", hint: "did you mean '--json'?")
    ) {
      try parse(["a", "--jsno"])
    }
    #expect(
      throws: UsageError(
        "unknown option '--frobnicate' for 'ingest'", hint: "see 'resonance ingest --help'")
    ) {
      try parse(["a", "--frobnicate"])
    }
  }

  @Test("a missing value is an error that shows the expected form")
  func missingValue() {
    #expect(throws: UsageError("missing value for '--db'", hint: "write '--db PATH'")) {
      try parse(["a", "--db"])
    }
    #expect(throws: UsageError("missing value for '--db'", hint: "write '--db PATH'")) {
      try parse(["a", "--db", "--json"])
    }
  }

  @Test("a flag given a value is an error")
  func flagWithValue() {
    #expect(throws: UsageError.self) { try parse(["a", "--json=yes"]) }
  }

  @Test("a missing required argument is an error with the synopsis as the hint")
  func missingPositional() {
    do {
      _ = try parse(["--json"])
      Issue.record("expected a usage error")
    } catch {
      #expect(error.message == "missing PATH for 'ingest'")
      #expect(error.hint?.hasPrefix("usage: resonance ingest") == true)
    }
  }

  @Test("a missing required option names it and how to write it")
  func missingRequiredOption() throws {
    #expect(
      throws: UsageError(
        "missing '--truth FILE' for 'needy'", hint: "write 'resonance needy --truth FILE'")
    ) {
      try parseNeedy([])
    }
    #expect(try parseNeedy(["--truth", "t.json"]).truth == "t.json")
  }

  @Test("an included group checks its own combination before the command runs")
  func groupValidation() {
    #expect(throws: UsageError.self) {
      try parseNeedy(["--truth", "t.json", "--from", "2022-06-02", "--to", "2022-06-01"])
    }
    #expect(
      runResonance(["report", "--from", "2022-06-02", "--to", "2022-06-01"]).status == .usage)
  }

  @Test("--help is accepted even when arguments are missing")
  func help() throws {
    for words in [["--help"], ["-h"]] {
      #expect(
        try ParsedArguments.parse(words, for: Sample.configuration, Sample.definitions).isHelp)
    }
  }

  @Test("surplus positionals are refused when the command takes none")
  func surplus() {
    #expect(throws: UsageError.self) {
      try ParsedArguments.parse(
        ["extra"], for: StatusCommand.configuration, StatusCommand.definitions)
    }
  }

  @Test("values are checked while parsing, and read back typed")
  func numbers() throws {
    #expect(try parse(["a", "--months", "12"]).months == 12)
    #expect(try parse(["a", "--scale=2.5"]).scale == 2.5)
    #expect(
      throws: UsageError(
        "invalid value '0' for '--months'", hint: "expected a whole number from 1 to 120")
    ) { try parse(["a", "--months", "0"]) }
    #expect(throws: UsageError.self) { try parse(["a", "--scale", "nan"]) }
  }

  @Test("every command declares each option once and shows an example")
  func everyCommand() {
    for command in Resonance.commands {
      let names = command.definitions.options.map(\.name)
      #expect(Set(names).count == names.count, "\(command.configuration.name)")
      #expect(!command.configuration.examples.isEmpty)
    }
  }

  @Test("edit distance finds plausible typos only")
  func spelling() {
    #expect(Spelling.editDistance("kitten", "sitting") == 3)
    #expect(Spelling.editDistance("jsno", "json") == 1)
    #expect(Spelling.nearest(to: "stauts", among: ["status", "demo"]) == "status")
    #expect(Spelling.nearest(to: "zzz", among: ["status", "demo"]) == nil)
  }
}
