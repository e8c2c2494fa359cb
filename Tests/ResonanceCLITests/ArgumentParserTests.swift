import Testing

@testable import ResonanceCLI

@Suite("Argument parser")
struct ArgumentParserTests {
  static let db = Option("db", placeholder: "PATH", help: "Store.")
  static let kind = Option("as", placeholder: "KIND", help: "Force a reader.", repeatable: true)
  static let months = Option(
    "months", placeholder: "N", help: "Months.", parser: .integer(in: 1...120))
  static let scale = Option(
    "scale", placeholder: "F", help: "Scale.", parser: .number(in: 0.01...100))
  static let json = Flag("json", help: "JSON.")
  static let quiet = Flag("quiet", short: "q", help: "Quiet.")

  static let configuration = CommandConfiguration(
    name: "ingest", abstract: "Read files.",
    arguments: [ArgumentDefinition("PATH", help: "Files to read.", variadic: true)],
    options: [db, kind, months, scale, json, quiet],
    examples: [Example("resonance ingest export.zip", "Read an export.")])

  func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
    try ParsedArguments.parse(words, for: Self.configuration)
  }

  @Test("sorts flags, values and positionals, in both option spellings")
  func basics() throws {
    let parsed = try parse(["a.xml", "--db", "x.sqlite", "-q", "--as=spotify", "b.json", "--json"])
    #expect(parsed.positionals == ["a.xml", "b.json"])
    #expect(parsed[Self.db] == "x.sqlite")
    #expect(parsed[Self.kind] == "spotify")
    #expect(parsed[Self.quiet] && parsed[Self.json])
    #expect(!parsed[Flag.help])
  }

  @Test("'--' ends options, so a file may start with a dash")
  func doubleDash() throws {
    let parsed = try parse(["--", "--weird-name.csv", "-x"])
    #expect(parsed.positionals == ["--weird-name.csv", "-x"])
  }

  @Test("a repeatable option keeps every value; a single one refuses a second")
  func repetition() throws {
    #expect(try parse(["a", "--as", "x", "--as", "y"]).all(Self.kind) == ["x", "y"])
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

  @Test("--help is accepted even when arguments are missing")
  func help() throws {
    #expect(try parse(["--help"])[Flag.help])
    #expect(try parse(["-h"])[Flag.help])
  }

  @Test("surplus positionals are refused when the command takes none")
  func surplus() {
    #expect(throws: UsageError.self) {
      try ParsedArguments.parse(["extra"], for: StatusCommand.configuration)
    }
  }

  @Test("values are checked while parsing, and read back typed")
  func numbers() throws {
    #expect(try parse(["a", "--months", "12"])[Self.months] == 12)
    #expect(try parse(["a", "--scale=2.5"])[Self.scale] == 2.5)
    #expect(try parse(["a"])[Self.months] == nil)
    #expect(
      throws: UsageError(
        "invalid value '0' for '--months'", hint: "expected a whole number from 1 to 120")
    ) { try parse(["a", "--months", "0"]) }
    #expect(throws: UsageError.self) { try parse(["a", "--scale", "nan"]) }
  }

  @Test("edit distance finds plausible typos only")
  func spelling() {
    #expect(Spelling.editDistance("kitten", "sitting") == 3)
    #expect(Spelling.editDistance("jsno", "json") == 1)
    #expect(Spelling.nearest(to: "stauts", among: ["status", "demo"]) == "status")
    #expect(Spelling.nearest(to: "zzz", among: ["status", "demo"]) == nil)
  }
}
