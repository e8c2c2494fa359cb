import ResonanceModel
import ResonanceStages

/// `resonance report`: the pages a person reads, each with its CSV and charts, from the store.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "report",
    abstract: "Write the Markdown report, its CSVs and charts, from the store.",
    discussion: """
      Writes into the folder (default Reports/) one page per question, each with the CSV \
      behind it and SVG charts, and index.md with each page's answer in one line: \
      \(ReportPages.described).

      --from and --to limit the plays, sessions, nights, days and breathing sessions a page \
      covers; song estimates always use the whole history, and songs.md says so. Every \
      statistic comes from the store (which must exist), run through the same code as \
      resonance analyze; a page with too little data says what it needs. docs/reports.md \
      documents every page, column and chart. Nothing is written outside the folder.
      """,
    examples: [
      Example("resonance report", "Write every page of ./resonance.sqlite into Reports/."),
      Example(
        "resonance report --db Reports/demo.sqlite --only sleep --only sessions --out /tmp/r",
        "Write only the sleep and sessions pages (and the index) into /tmp/r."),
      Example(
        "resonance report --db Reports/demo.sqlite --truth Datasets/sample/truth.json",
        "Add validation.md, the analyses against the simulated person's truth."),
    ])

  @OptionGroup var store: StoreOptions

  @Option(
    name: "out", placeholder: "DIR", help: "The folder to write into. Default: Reports.",
    parser: .nonEmpty)
  var folder = "Reports"

  @OptionGroup var days: DayOptions

  @Option(
    name: "only", placeholder: "NAME",
    help:
      "Write only this page (and the index): "
      + ReportPages.names.map(\.rawValue).joined(separator: ", ") + ". Repeatable.",
    parser: .oneOf(ReportPages.names, named: \.rawValue))
  var only: [ReportPageName] = []

  @Option(
    name: "truth", placeholder: "FILE",
    help: "A simulated person's truth.json: adds validation.md.", parser: .nonEmpty)
  var truthPath: String?

  @Flag(name: "html", help: "Also write each page as HTML (index.html): charts inline, offline.")
  var html: Bool

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    if only.contains(.validation), truthPath == nil {
      throw UsageError(
        "the validation page needs '--truth FILE'",
        hint: "resonance report --only validation --truth Datasets/sample/truth.json")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let pages = ReportPages.names.filter { name in
      (only.isEmpty || only.contains(name)) && (name != .validation || truthPath != nil)
    }
    let request = ReportRequest(
      store: try store.location(context.environment), folder: folder, days: days.days,
      pages: pages, truthPath: truthPath, html: html)
    context.show(try ReportStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
