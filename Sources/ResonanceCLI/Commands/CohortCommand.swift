import ResonanceModel
import ResonanceStages

/// `resonance cohort pool`: the person-level effects of many hand-offs, pooled.
struct CohortCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "cohort",
    abstract: "Pool the person-level effects of a cohort's hand-offs (resonance export).",
    discussion: """
      'resonance cohort pool DIR' reads every DIR/person=ID/ that resonance export wrote and \
      pools each person-level effect by a random-effects model: REML τ², a Hartung–Knapp \
      interval for the mean μ, a prediction interval for a new person, and I². It writes \
      cohort.md with a forest plot and a funnel per effect, pooled.csv and effects.csv, and \
      gives the share of persons tune told to change. A folder without a complete manifest \
      is skipped with a warning and counted; a hand-off of another schema version, or whose \
      effects.json is not its manifest's, is refused by name. docs/cohort.md explains it.
      """,
    examples: [
      Example(
        "resonance cohort pool cohort --out Reports/cohort",
        "Pool the hand-offs in cohort/ into Reports/cohort/cohort.md.")
    ])

  @Argument(name: "ACTION", help: "What to do with the cohort: pool.")
  var action: String

  @Argument(name: "DIR", help: "The cohort folder of person=ID/ hand-offs.")
  var folders: [String]

  @Option(
    name: "out", placeholder: "DIR", help: "The folder to write into. Default: Reports/cohort.",
    parser: .nonEmpty)
  var out = "Reports/cohort"

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    guard action == "pool", folders.count == 1 else {
      throw UsageError(
        "'resonance cohort' needs the action 'pool' and one cohort folder",
        hint: "resonance cohort pool cohort --out Reports/cohort")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let request = CohortPoolRequest(folder: folders[0], out: out)
    context.show(try CohortPoolStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
