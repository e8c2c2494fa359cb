import ResonanceModel
import ResonanceStages

/// `resonance validate`: how well the analyses recover what `resonance synth` planted.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Compare the store's analyses with the truth a simulated person planted.",
    discussion: """
      Reads truth.json (written by resonance synth beside the files it made) and the store the \
      files were ingested into and analysed (it must exist), and reports how well the analyses \
      recover the truth, each figure beside its goal. Breathing: Spearman's correlation of the \
      Resonance Score and of phase locking with the planted adherence (goal ≥ 0.8), and the \
      largest breathing-rate error of sessions that followed the pacer (goal ≤ 0.5 \
      breaths/min). Sessions: the share of plays whose reconstructed session has the context \
      they were lived in. Song effects on heart rate and HRV: how often the 90% intervals cover \
      the planted effect (goal 0.85–0.95), how many songs differ from the average song, and \
      Spearman's correlation with the planted effects over songs with at least 8 plays (goal \
      ≥ 0.8 at --effect-scale 3). Song features: each source's error and coverage. Practice's \
      effects on HRV and sustained changes (synth --step): each against the planted (no goal).

      With --preferences FILE, also the one-step truth of a preference file (as resonance \
      tune writes it) for the file's reward: the mean over the store's logged decisions of the \
      reward the DJ's choice would bring under the file's weights at the log's temperature, \
      from the expectations resonance synth planted for every candidate \
      (decisions-truth.jsonl.gz beside truth.json), beside the same under the preferences in \
      force, and the gain between them: the 'tuning' object of --json, with 'one_step' = \
      in_force, preferences, gain. --from and --to limit the decisions it averages over (the \
      month a tuned file was judged on, say); the other figures are the whole history's. \
      --best-point adds the best that tune could find: the point of tune's design, each made as \
      greedy as the preferences in force, with the greatest one-step value ('best_point').

      A missed goal is marked 'goal NOT met' and makes the exit status 1, with --json too; \
      all goals met is exit 0. docs/validation.md holds its output for the sample and two \
      12-month sets.
      """,
    examples: [
      Example(
        "resonance validate --truth Datasets/sample/truth.json --db Reports/demo.sqlite",
        "Validate the demo's store against the sample's truth."),
      Example(
        "resonance validate --truth Datasets/sample/truth.json --db Reports/demo.sqlite --preferences Reports/preferences.json --json",
        "The same, with the true one-step gain of the demo's tuned preference file."),
    ])

  @Option(
    name: "truth", placeholder: "FILE", help: "The truth.json of the simulated person. Required.",
    parser: .nonEmpty)
  var truthPath: String

  @Option(
    name: "preferences", placeholder: "FILE",
    help:
      "A preference file (JSON or plist) whose true one-step gain over the preferences in force to report.",
    parser: .nonEmpty)
  var preferencesPath: String?

  @Flag(
    name: "best-point",
    help: "With --preferences: also the design point of greatest one-step value.")
  var isBestPoint: Bool

  @OptionGroup var days: DayOptions

  @OptionGroup var store: StoreOptions
  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    if preferencesPath == nil, !days.days.isAll || isBestPoint {
      throw UsageError("--from, --to and --best-point need --preferences FILE")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let request = ValidateRequest(
      truthPath: truthPath, store: try store.location(context.environment),
      preferencesPath: preferencesPath, days: days.days, bestPoint: isBestPoint)
    let result = try ValidateStage(request).run(progress: context.progress(output))
    context.show(result, output)
    guard let missed = result.missedGoalsLine else { return .ok }
    if !output.isQuiet { context.report(missed) }
    return .failure
  }
}
