import ResonanceModel
import ResonanceStages

/// `resonance experiment plan`: a randomised N-of-1 experiment for the DJ to carry out.
struct ExperimentCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "experiment",
    abstract:
      "Plan a randomised experiment the DJ carries out: the preferences in force against a candidate, day by day.",
    discussion: """
      'resonance experiment plan' writes a preference file whose experiment section holds \
      each arm's preferences — those in force, and the latest tune's candidate or each \
      --candidate file's — the arm of every day (cycles of a week per arm, every weekday once \
      per arm, drawn from --seed), the stopping rule and the primary outcome, the day's keep \
      rate. Its length is the fewest cycles with 90% power, on your own last year of days, to \
      show --margin (else the candidate's estimated keep-rate change, else +0.02); when that \
      is longer than --max-days, it runs --max-days and says what gain that could show. Its \
      confidence sequence may be looked at as often as you like. docs/experiments.md explains \
      the design, the power analysis and the guarantee; docs/formats.md gives the keys.
      """,
    examples: [
      Example(
        "resonance experiment plan --out Reports/experiment.json",
        "The latest tune's candidate against the preferences in force."),
      Example(
        "resonance experiment plan --candidate mine.json --margin 0.03 --max-days 180 --out plan.json",
        "A preference file of your own, planned to show +0.03 in keep rate within 180 days."),
    ])

  @Argument(name: "ACTION", help: "What to do: plan.")
  var action: String

  @OptionGroup var store: StoreOptions

  @Option(
    name: "candidate", placeholder: "FILE",
    help:
      "A preference file whose preferences are an arm; repeat for more arms. Default: the candidate of the store's latest resonance tune.",
    parser: .nonEmpty)
  var candidates: [String]

  @Option(
    name: "margin", placeholder: "X",
    help:
      "The smallest keep-rate gain worth showing, 0.001–0.5. Default: the candidate's estimated keep-rate change where tune judged it, else 0.02.",
    parser: .number(in: 0.001...0.5))
  var margin: Double?

  @Option(
    name: "max-days", placeholder: "N",
    help: "The longest you would run it, in days, 28–3650. Default: 120.",
    parser: .integer(in: 28...3650))
  var maxDays = 120

  @Option(
    name: "seed", placeholder: "S", help: "The seed the schedule is drawn from. Default: 1.",
    parser: .natural)
  var seed: UInt64 = 1

  @Option(
    name: "start", placeholder: "DATE",
    help: "The first day, YYYY-MM-DD. Default: the day after the store's last decision.",
    parser: .day)
  var start: CalendarDay?

  @Option(
    name: "out", placeholder: "FILE",
    help: "Where the plan goes. Default: Reports/experiment.json (or .plist).", parser: .nonEmpty)
  var out: String?

  @Option(
    name: "format", placeholder: "json|plist",
    help: "The file's encoding: JSON (default) or an XML property list.", parser: .oneOfCases)
  var encoding = PreferenceFile.Encoding.json

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    guard action == "plan" else {
      throw UsageError(
        "'resonance experiment' needs the action 'plan', not '\(action)'",
        hint: "resonance experiment plan --out Reports/experiment.json")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let request = ExperimentPlanRequest(
      store: try store.location(context.environment), candidates: candidates, margin: margin,
      maxDays: maxDays, seed: seed, start: start,
      out: out ?? "Reports/experiment.\(encoding.rawValue)", encoding: encoding)
    context.show(try ExperimentPlanStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
