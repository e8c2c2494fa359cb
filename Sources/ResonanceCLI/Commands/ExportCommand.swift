import ResonanceModel
import ResonanceStages

/// `resonance export`: one person's derived tables under a pseudonym, for a cohort.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write the person's derived tables as Parquet or CSV for a cohort (DIR/person=ID/).",
    discussion: """
      Writes into DIR/person=ID/ the tables analyze, breathing and tune derived (songs, \
      song_contexts, sessions, nights, play_biometrics, breathing, tuning), effects.json \
      (the person-level effects resonance cohort pool reads) and, last, manifest.json (the \
      files' rows and SHA-256). No raw sample leaves the store, and the same store writes \
      the same bytes again. ID is a pseudonym you choose, never a name or number from the \
      data. A folder holding another store's hand-off is refused unless --replace. \
      docs/cohort.md lists every column.
      """,
    examples: [
      Example(
        "resonance export --db Reports/demo.sqlite --out cohort --person p001",
        "Write cohort/person=p001/*.parquet, effects.json and manifest.json."),
      Example(
        "resonance export --format csv --out cohort --person p001",
        "The same tables as CSV."),
    ])

  @OptionGroup var store: StoreOptions

  @Option(
    name: "format", placeholder: "FORMAT", help: "parquet (the default) or csv.",
    parser: .oneOfCases)
  var format = HandOffFormat.parquet

  @Option(
    name: "out", placeholder: "DIR", help: "The cohort folder to write into.", parser: .nonEmpty)
  var folder: String

  @Option(
    name: "person", placeholder: "ID",
    help: "The person's pseudonym: a letter, then up to 63 letters, digits, _ or -.",
    parser: ValueParser(expected: "a letter, then up to 63 letters, digits, _ or -") {
      HandOffPerson.isValid($0) ? $0 : nil
    })
  var person: String

  @Flag(name: "replace", help: "Write over another store's hand-off in the person's folder.")
  var replace: Bool

  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode {
    let request = ExportRequest(
      store: try store.location(context.environment), format: format, folder: folder,
      person: person, replace: replace, toolVersion: Resonance.version)
    context.show(try ExportStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
