import Foundation
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

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
      gain has the largest lower 95% bound (from the spread of its days), among those with \
      an effective sample size of 200 in every month, is judged on the month itself. \
      Pooled over the judged months, that is what choosing on the past gains on months it \
      never saw; a bootstrap over their days (seeded: the same store gives the same \
      interval) gives its 95% interval. The candidate is the point chosen on every month \
      before the last.

      The recommendation is change only when that interval's lower end is above the margin \
      (--margin, 0.01: offline estimates hold the later history fixed, and the candidates \
      chosen lean on it) and the candidate's effective sample size on the last month is at \
      least 200; otherwise keep, with the reason. With decisions from fewer than 3 months it \
      is keep ("too little history"), exit 0; with no decision log at all, keep too. \
      --by-context runs the same for each context with at least 200 decisions in the last \
      month, at the level 1 − 0.05/k for the k contexts tried (Bonferroni), and keeps the \
      general preferences elsewhere.

      The preference file (docs/formats.md) holds the preferences to run, the recommendation \
      and the evidence; resonance synth --dj-preferences FILE runs a simulated DJ on it. The \
      report also goes into the store (tuning_runs).
      """,
    options: [Option.db, Self.out, Self.format, Self.byContext, Self.margin]
      + TuningOptions.options
      + OutputOptions.options,
    examples: [
      Example("resonance tune", "Write Reports/preferences.json from the store's history."),
      Example(
        "resonance tune --reward keep --out prefs.plist --format plist",
        "Judge by the keep rate alone; write a property list the app reads."),
      Example(
        "resonance tune --by-context --json", "Per-context profiles, the report as JSON."),
    ])

  static let out = Option(
    "out", placeholder: "FILE",
    help: "Where the preference file goes. Default: Reports/preferences.json.",
    parser: .nonEmpty)
  static let format = Option<PreferenceFile.Encoding>(
    "format", placeholder: "json|plist",
    help: "The preference file's encoding: JSON (default) or an XML property list.",
    parser: .oneOfCases)
  static let margin = Option(
    "margin", placeholder: "G",
    help:
      "The least gain worth a change, on the reward's 0–1 scale: the held-out interval's lower end must clear it, 0–0.5. Default: 0.01, about what offline estimates run above the closed loop on simulated people (docs/tuning.md).",
    parser: .number(in: 0...0.5))
  static let byContext = Flag(
    "by-context",
    help:
      "Also try a profile per context, each judged on its own held-out decisions at 1 − 0.05/k.")

  var store: StoreOptions
  var output: OutputOptions
  var tuning: TuningOptions
  var outPath: String
  var encoding: PreferenceFile.Encoding
  var isByContext: Bool
  var margin: Double

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    tuning = try TuningOptions(parsed, command: Self.configuration.name)
    encoding = parsed[Self.format] ?? .json
    outPath = parsed[Self.out] ?? "Reports/preferences.\(encoding.rawValue)"
    isByContext = parsed[Self.byContext]
    margin = parsed[Self.margin] ?? TuningSettings().margin
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let store = try self.store.openExisting(for: Self.configuration.name)
    let history = try tuning.history(store)
    var settings = TuningSettings()
    settings.design = tuning.design
    settings.reward = tuning.reward
    settings.estimator = tuning.estimator
    settings.product = tuning.product
    settings.byContext = isByContext
    settings.margin = margin
    if output.isText {
      context.report(
        "tune: replaying \(Format.grouped(history.records.count)) logged decisions, then "
          + "\(Format.grouped(tuning.design.count)) design points")
    }
    let report = try Self.tune(store, history: history, settings: settings, days: tuning.days)
    let command =
      ["resonance", "tune", "--db", self.store.path] + tuning.spelled
      + (isByContext ? ["--by-context"] : []) + ["--margin", "\(margin)", "--out", outPath]
      + (encoding == .plist ? ["--format", "plist"] : [])
    try OutputFiles.write(
      try Self.file(report, command: command.joined(separator: " ")).encoded(as: encoding),
      to: outPath)
    if output.isJSON {
      context.console.out(TuningReportText.json(report, outPath: outPath).text)
    } else if !output.isQuiet {
      for line in TuningReportText.lines(report, outPath: outPath) {
        context.console.out(line + "\n")
      }
    }
    return .ok
  }

  /// Tunes on `history`, adds the pairwise cross-check on the plays of `days`, and stores the
  /// report. A log that does not replay is exit 65, naming the first decision that differs.
  static func tune(
    _ store: Store, history: DecisionHistory, settings: TuningSettings, days: DayRange
  ) throws -> TuningReport {
    var report: TuningReport
    do {
      report = try Tuner.tune(history, settings: settings)
    } catch {
      throw CommandError(.dataError, "\(store.path): \(error.detail)")
    }
    if let mismatch = report.replay.firstMismatch {
      throw CommandError(
        .dataError,
        "\(store.path): the decision log does not replay: \(mismatch); offline evaluation "
          + "needs the engine that made the decisions, so nothing was written")
    }
    // The plays chosen by hand, ranked pairwise: a cross-check, never the evidence.
    let features = Dictionary(
      uniqueKeysWithValues: try store.songFeatures().map { ($0.songID, $0.features) })
    let plays = try store.rankingPlays().filter { days.contains($0.start) }
    report.pairwise = PairwiseCheck.fit(
      plays: plays, features: features, recommended: report.recommended.weights)
    try store.insertTuning(report, at: Clock.nowMilliseconds())
    return report
  }

  /// The preference file of a report, with the command that made it.
  static func file(_ report: TuningReport, command: String) -> PreferenceFile {
    PreferenceFile(
      recommendation: report.recommendation, preferences: report.recommended,
      contexts: contexts(report),
      evidence: TuningEvidence(
        from: report.from ?? "", to: report.to ?? "", decisions: report.decisions,
        months: report.months.count, estimator: report.estimator, reward: report.reward,
        heldOutGain: report.forwardGain,
        effectiveSampleSize: report.heldOut?.effectiveSampleSize,
        agreementShare: report.heldOut?.agreementShare, folds: report.folds.count,
        reason: report.reason, command: command))
  }

  /// The claimed contexts' preferences, keyed by context; nil when none was claimed.
  static func contexts(_ report: TuningReport) -> [String: UserPreferences]? {
    let claimed = report.contexts.filter(\.claimed)
    guard !claimed.isEmpty else { return nil }
    return Dictionary(
      uniqueKeysWithValues: claimed.compactMap { c in
        c.weights.map { (c.context, report.inForce.with(weights: $0)) }
      })
  }

}
