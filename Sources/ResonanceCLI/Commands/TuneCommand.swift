import ResonanceModel
import ResonanceStages

/// `resonance tune`: chooses the DJ's weights on earlier months, judges them on later ones, and
/// writes the preference file with the recommendation and its evidence.
struct TuneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "tune",
    abstract:
      "Recommend the DJ's weights from its own history, judged on months the choice never saw.",
    discussion: """
      First replays the decision engine on every logged decision and compares it with the \
      log (version 2 to 1e-9; version 1 to its printed precision): a log that does not \
      replay was not made by this engine, and tune refuses it (exit 65), naming the first \
      decision that differs.

      Then it chooses and judges (docs/tuning.md), by forward chaining over calendar \
      months: for every month after the first, reward models are fitted on the months \
      before it alone, every point of the design (the same as resonance sweep's, each \
      rescaled to the entropy of the policy in force, so that points differ in taste, not \
      greediness) is estimated there against the preferences in force, and the point whose \
      gain has the largest lower one-sided bound at the level (--level, 95%), among those \
      with an effective sample size of 200 in every month, is judged on the month itself. \
      Pooled over the judged months, that is what choosing on the past gains on months it \
      never saw, with its interval at the same level. Bounds and intervals take each \
      month's days as its pieces: Student's t times the spread of the days' contributions, \
      compared within each month. The candidate is the point chosen on every month before \
      the last.

      The recommendation is change only when that interval's lower end is above the margin \
      (--margin, 0.01: the smallest gain worth a change), the candidate's own interval on the \
      last month, the month it was not chosen on, is above 0, and its effective sample size \
      there is at least 200; otherwise keep, with the reason (--json's clears_margin and \
      clears_zero say which held). With decisions from fewer than 3 months it \
      is keep ("too little history"), exit 0; with no decision log at all, keep too. \
      --by-context runs the same for each context with at least 200 decisions in the last \
      month and keeps the general preferences elsewhere; then every test, the general one \
      and each context's, is made at the Bonferroni level 1−(1−L)/k for the k made.

      Run every month, tune would test again and again, and sooner or later say change by \
      chance. So the error rate 1−L is a budget for the preferences in force, kept in the \
      store (tuning_ledger): a run through n months of history may have spent, with the \
      runs before it, (1−L)·n/(n+3) — half by the third month, four fifths by the twelfth — \
      and tests at what the months new since the last run bring; the console line and \
      --json's ledger say what it spent and the level it tested at. A run through a month \
      already tested repeats that test; a change of the preferences in force starts a new \
      budget. --no-ledger tests at L itself, for a one-off analysis.

      The temperature is judged apart: the weights are compared at the greediness in force, \
      and the weights in force at other temperatures are chosen and judged the same way, \
      reported as what more exploitation (or exploration) would gain. Only with \
      --tune-temperature, and only when the weights stay, does the file change it.

      The preference file (docs/formats.md) holds the preferences to run, the recommendation \
      and the evidence; resonance synth --dj-preferences FILE runs a simulated DJ on it. The \
      report also goes into the store (tuning_runs).
      """,
    examples: [
      Example("resonance tune", "Write Reports/preferences.json from the store's history."),
      Example(
        "resonance tune --reward keep --out prefs.plist --format plist",
        "Judge by the keep rate alone; write a property list the app reads."),
      Example(
        "resonance tune --by-context --json", "Per-context profiles, the report as JSON."),
    ])

  @OptionGroup var store: StoreOptions

  @Option(
    name: "out", placeholder: "FILE",
    help: "Where the preference file goes. Default: Reports/preferences.json.",
    parser: .nonEmpty)
  var preferencePath: String?

  @Option(
    name: "format", placeholder: "json|plist",
    help: "The preference file's encoding: JSON (default) or an XML property list.",
    parser: .oneOfCases)
  var encoding = PreferenceFile.Encoding.json

  @Flag(
    name: "by-context",
    help:
      "Also try a profile per context, each judged on its own held-out decisions; every test at 1−(1−L)/k for the k made."
  )
  var isByContext: Bool

  @Option(
    name: "margin", placeholder: "G",
    help:
      "The least gain worth a change, on the reward's 0–1 scale: the forward-chaining interval's lower end must clear it, 0–0.5. Default: 0.01.",
    parser: .number(in: 0...0.5))
  var margin = TuningSettings().margin

  @Option(
    name: "level", placeholder: "L",
    help:
      "The level, 0.5–0.999, that every run on the same preferences in force keeps together: each run tests at 1 − what it spends of 1−L (with --no-ledger at L itself; with --by-context, corrected for the tests made). Default: 0.95.",
    parser: .number(in: 0.5...0.999))
  var level = TuningSettings().level

  @Flag(
    name: "tune-temperature",
    help:
      "Let the file change the softmax temperature too, when the weights in force at ×0.5, ×0.7, ×1.4 or ×2 of it clear the same bar (one more test in the correction); without it the temperature is judged and reported, never written."
  )
  var isTuningTemperature: Bool

  @Flag(
    name: "no-ledger",
    help:
      "A one-off analysis: test at --level itself, spending nothing from the store's error ledger and recording nothing there."
  )
  var isWithoutLedger: Bool

  @OptionGroup var tuning: TuningOptions
  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode {
    let location = try store.location(context.environment)
    let path = preferencePath ?? "Reports/preferences.\(encoding.rawValue)"
    var settings = TuningSettings()
    settings.design = tuning.design
    settings.reward = tuning.reward
    settings.estimator = tuning.estimator
    settings.product = tuning.product
    settings.byContext = isByContext
    settings.tuneTemperature = isTuningTemperature
    settings.margin = margin
    settings.level = level
    let command =
      ["resonance", "tune", "--db", location.path] + tuning.spelled
      + (isByContext ? ["--by-context"] : []) + (isTuningTemperature ? ["--tune-temperature"] : [])
      + ["--margin", "\(margin)"]
      + (level == TuningSettings().level ? [] : ["--level", "\(level)"]) + ["--out", path]
      + (encoding == .plist ? ["--format", "plist"] : [])
      + (isWithoutLedger ? ["--no-ledger"] : [])
    let request = TuneRequest(
      store: location, days: tuning.days.days, settings: settings, preferencePath: path,
      encoding: encoding, command: command.joined(separator: " "), usesLedger: !isWithoutLedger)
    context.show(try TuneStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
