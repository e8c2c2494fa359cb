import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance analyze`: the derived tables brought up to date from what the store holds.
struct AnalyzeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "analyze",
    abstract:
      "The history stage: sessions, heart rate and HRV around every play, what each song does, sleep, quality and states.",
    discussion: """
      Groups the stored plays into sessions (a new one after a gap of more than 30 minutes, or \
      where the context changes for three plays or more), gives each the context the seed's \
      five-level cascade finds (Watch workout, the Mac's Focus, apps and meetings, motion, \
      time of day with weekends, fallback), its skip rate \
      and engagement, and measures heart rate and HRV before and during every play and \
      session, with the number of samples behind each figure: most plays have no HRV sample, \
      and then there is no figure (docs/brain.md gives every window).

      It also finds the nights in the sleep records, gives each session its next night and \
      its quality (skip rate, HRV response, engagement, next-night sleep), and estimates the \
      state every 30 seconds of every session (state_ticks).

      Beyond the seed it estimates what each song does to heart rate and HRV while it plays, \
      against the person's average music, with a 90% interval (song_effect_estimates), and \
      stores every song's tempo, energy and valence estimates (song_features).

      A run brings the derived tables up to date in one transaction and records itself in \
      analysis_runs with the last import it saw and its options. A session whose plays are \
      unchanged and that no data imported since can reach (from a week before it to its end) \
      keeps its row, its plays' biometrics and its state ticks; the rest are computed again. \
      What depends on the whole history is recomputed every time: the song effects (one fit \
      over every play), the learning replay (from the first play, in order), the nights and \
      session quality (against the person's typical night) and the song features. When \
      nothing was imported since the last run and the options are the same, it says the \
      tables are up to date and changes nothing; --rebuild recomputes everything (after \
      upgrading resonance, say). --from and --to restrict the analysis to the plays that start \
      in those days.
      """,
    options: [
      CommonOptions.db,
      OptionDefinition(
        "gap", .value(placeholder: "MINUTES"),
        help: "The silence that ends a session, 1–1440 minutes. Default: 30."),
      OptionDefinition(
        "from", .value(placeholder: "DATE"),
        help: "Only plays starting on or after this day (YYYY-MM-DD, UTC)."),
      OptionDefinition(
        "to", .value(placeholder: "DATE"),
        help: "Only plays starting before this day (YYYY-MM-DD, UTC): the day after the last."),
      OptionDefinition(
        "rebuild", .flag,
        help:
          "Recompute every session, even those the last run left unchanged, and even when nothing was imported since."
      ),
      CommonOptions.json,
      CommonOptions.quiet,
    ],
    examples: [
      Example("resonance analyze", "Sessions and per-play biometrics for ./resonance.sqlite."),
      Example(
        "resonance analyze --gap 45 --json --db /tmp/person.sqlite",
        "Sessions split by 45-minute silences, the summary as JSON."),
      Example(
        "resonance analyze --from 2022-06-01 --to 2022-09-01 --rebuild",
        "Only the summer's plays, recomputed whatever the last run did."),
    ])

  var storePath: String
  var scope: AnalysisScope
  var gapMinutes: Int { scope.gapMinutes }
  var isRebuild: Bool
  var isJSON: Bool
  var isQuiet: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    storePath = CommonOptions.storePath(parsed, environment)
    isJSON = parsed.flag("json")
    isQuiet = parsed.flag("quiet")
    isRebuild = parsed.flag("rebuild")
    scope = AnalysisScope()
    if let text = parsed.value("gap") {
      guard let minutes = Int(text), (1...1440).contains(minutes) else {
        throw UsageError(
          "--gap: expected whole minutes from 1 to 1440, found '\(text)'",
          hint: "resonance analyze --gap 30")
      }
      scope.gapMinutes = minutes
    }
    for (name, text) in [("from", parsed.value("from")), ("to", parsed.value("to"))] {
      guard let text else { continue }
      guard let ms = HRVCommand.day(text) else {
        throw UsageError(
          "--\(name): expected a day YYYY-MM-DD, found '\(text)'",
          hint: "resonance analyze --from 2022-06-01 --to 2022-07-01")
      }
      if name == "from" { scope.fromMs = ms } else { scope.toMs = ms }
    }
    if let from = scope.fromMs, let to = scope.toMs, from >= to {
      throw UsageError(
        "--from must be before --to", hint: "resonance analyze --from 2022-06-01 --to 2022-07-01")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let started = Date()
    let startedAt = Clock.nowMilliseconds()
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    if !isRebuild, let last = try store.isAnalysisCurrent(for: scope) {
      reportUpToDate(last.lastImportID, finishedAtMs: last.finishedAtMs, context: context)
      return .ok
    }
    let summary = try Self.analyze(store, scope: scope, startedAt: startedAt, rebuild: isRebuild)
    let seconds = Date().timeIntervalSince(started)
    let derived = try store.derivedSummary()
    if isJSON {
      context.console.out(AnalyzeSummary.json(summary, derived: derived, seconds: seconds).text)
    } else if !isQuiet {
      for line in AnalyzeSummary.lines(summary, derived: derived, seconds: seconds) {
        context.report(line)
      }
    }
    return .ok
  }

  /// Loads what the analysis reads, runs the history stage, and brings the derived tables up
  /// to date: the sessions whose inputs did not change since the last run keep their rows
  /// (unless `rebuild`), every other derived row is replaced.
  static func analyze(
    _ store: Store, scope: AnalysisScope = AnalysisScope(), startedAt: Int64,
    rebuild: Bool = false
  ) throws -> HistorySummary {
    let inputs = try store.analysisInputs()
    let stored = rebuild ? nil : try store.storedSessions(for: scope)
    let (results, summary) = HistoryStage.run(inputs, scope: scope, stored: stored) { text in
      let hash = SHA256()
      hash.update(Array(text.utf8))
      return hash.finalize()
    }
    try store.replaceAnalysis(results, startedAt: startedAt, finishedAt: Clock.nowMilliseconds())
    return summary
  }

  private func reportUpToDate(_ lastImport: Int64?, finishedAtMs: Int64, context: CommandContext) {
    if isJSON {
      let object: [String: Any] = [
        "up_to_date": true, "last_import_id": lastImport.map { $0 as Any } ?? NSNull(),
        "analysed_at_ms": finishedAtMs,
      ]
      let data =
        (try? JSONSerialization.data(
          withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
      context.console.out(String(decoding: data, as: UTF8.self) + "\n")
    } else if !isQuiet {
      context.report(
        "analyze: up to date: nothing imported since the last analysis, with the same options (--rebuild recomputes anyway)"
      )
    }
  }
}
