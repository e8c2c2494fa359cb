import ResonanceModel
import ResonanceStages

/// `resonance experiment plan`: a randomised N-of-1 experiment for the DJ to carry out.
struct ExperimentCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "experiment",
    abstract:
      "Plan a randomised experiment the DJ carries out: the preferences in force against a candidate, day by day, or music before bed, evening by evening.",
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

      --question evening-music plans three arms by evening instead — your usual, calm music \
      (the songs estimated to lower your heart rate most; run resonance analyze first) and no \
      music from the hour before the bedtime the app predicts — by that night's minutes \
      asleep, in cycles of three weeks; --margin is then in minutes (default 15).

      'resonance experiment analyze --plan FILE' counts every day of the plan so far under its \
      planned arm and prints each candidate's contrast in keep rate with its confidence \
      sequence and a randomisation test, then the decision: adopt, keep or continue. Where the \
      decision log names each decision's arm (version 3), it lists the days the DJ ran \
      another; --per-protocol leaves those days out. 'resonance synth --dj-preferences FILE' \
      runs a simulated DJ on a plan. For evening-music it also estimates the minutes asleep \
      that music in the hour before bed brings, calm evenings against no-music ones, with \
      music played by hand on no-music evenings taken into account.
      """,
    examples: [
      Example(
        "resonance experiment plan --out Reports/experiment.json",
        "The latest tune's candidate against the preferences in force."),
      Example(
        "resonance experiment analyze --plan Reports/experiment.json",
        "What the experiment's days say so far, and whether to stop."),
    ])

  @Argument(name: "ACTION", help: "What to do: plan, or analyze.")
  var action: String

  @OptionGroup var store: StoreOptions

  @Option(
    name: "question", placeholder: "tuning|evening-music",
    help: "plan: what the experiment asks. Default: tuning.", parser: .oneOfCases)
  var question: ExperimentPlan.Question?

  @Option(
    name: "candidate", placeholder: "FILE",
    help:
      "A preference file whose preferences are an arm; repeat for more arms. Default: the candidate of the store's latest resonance tune.",
    parser: .nonEmpty)
  var candidates: [String]

  @Option(
    name: "margin", placeholder: "X",
    help:
      "The smallest gain worth showing: keep rate, 0.001–0.5 (default: the candidate's estimated keep-rate change where tune judged it, else 0.02), or for evening-music minutes asleep, up to 240 (default: 15).",
    parser: .number(in: 0.001...240))
  var margin: Double?

  @Option(
    name: "max-days", placeholder: "N",
    help:
      "The longest you would run it, in days, 56–3650 (a plan is at least four cycles). Default: 120.",
    parser: .integer(in: 56...3650))
  var maxDays: Int?

  @Option(
    name: "seed", placeholder: "S", help: "The seed the schedule is drawn from. Default: 1.",
    parser: .natural)
  var seed: UInt64?

  @Option(
    name: "start", placeholder: "DATE",
    help: "The first day, YYYY-MM-DD. Default: the day after the store's last decision.",
    parser: .day)
  var start: CalendarDay?

  @Option(
    name: "plan", placeholder: "FILE", help: "analyze: the plan to analyse.", parser: .nonEmpty)
  var plan: String?

  @Option(
    name: "as-of", placeholder: "DATE",
    help: "analyze: the last day counted, YYYY-MM-DD. Default: the last decision's.", parser: .day)
  var asOf: CalendarDay?

  @Flag(
    name: "per-protocol",
    help:
      "analyze: count only the days the log shows ran their planned arm (the randomisation's guarantee then assumes the others departed by chance)."
  )
  var perProtocol: Bool

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
    let planning =
      !candidates.isEmpty || margin != nil || maxDays != nil || seed != nil || start != nil
      || out != nil || question != nil
    if question == .eveningMusic && !candidates.isEmpty {
      throw UsageError("'--candidate' is for '--question tuning': evening-music's arms are set")
    }
    if question ?? .tuning == .tuning, let margin, margin > 0.5 {
      throw UsageError("'--margin' of a tuning experiment is a keep rate, 0.001–0.5, not \(margin)")
    }
    switch action {
    case "plan" where plan == nil && asOf == nil && !perProtocol,
      "analyze" where plan != nil && !planning:
      return
    case "plan", "analyze":
      throw UsageError(
        "'experiment plan' takes --question, --candidate, --margin, --max-days, --seed, --start, "
          + "--out and --format; 'experiment analyze' needs --plan FILE and takes --as-of and --per-protocol",
        hint: "resonance experiment analyze --plan Reports/experiment.json")
    default:
      throw UsageError(
        "'resonance experiment' needs the action 'plan' or 'analyze', not '\(action)'",
        hint: "resonance experiment plan --out Reports/experiment.json")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let location = try store.location(context.environment)
    let progress = context.progress(output)
    if let plan {
      let request = ExperimentAnalyzeRequest(
        store: location, plan: plan, asOf: asOf, perProtocol: perProtocol)
      context.show(try ExperimentAnalyzeStage(request).run(progress: progress), output)
      return .ok
    }
    let request = ExperimentPlanRequest(
      store: location, question: question ?? .tuning, candidates: candidates, margin: margin,
      maxDays: maxDays ?? 120,
      seed: seed ?? 1, start: start, out: out ?? "Reports/experiment.\(encoding.rawValue)",
      encoding: encoding)
    context.show(try ExperimentPlanStage(request).run(progress: progress), output)
    return .ok
  }
}
