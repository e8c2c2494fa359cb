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
      unchanged and that no data imported since can reach (from a week before it to ten minutes \
      after its end) \
      keeps its row, its plays' biometrics and its state ticks; the rest are computed again. \
      What depends on the whole history is recomputed every time: the song effects (one fit \
      over every play), the learning replay (from the first play, in order), the nights and \
      session quality (against the person's typical night) and the song features. When \
      nothing was imported since the last run and the options are the same, it says the \
      tables are up to date and changes nothing; --rebuild recomputes everything (after \
      upgrading resonance, say).

      --from and --to analyse only the plays that start in those days, each play's day in the \
      local time it was lived in, and print what that range gives without storing it: the \
      derived tables keep the whole-history analysis that reports, tune and sweep read. \
      --replace stores the range's analysis in their place (until a run without a range).
      """,
    options: [Option.db, Self.gap, Option.from, Option.to, Self.replace, Self.rebuild]
      + OutputOptions.options,
    examples: [
      Example("resonance analyze", "Sessions and per-play biometrics for ./resonance.sqlite."),
      Example(
        "resonance analyze --gap 45 --json --db /tmp/person.sqlite",
        "Sessions split by 45-minute silences, the summary as JSON."),
      Example(
        "resonance analyze --from 2022-06-01 --to 2022-09-01",
        "What the summer's plays alone give, printed; the stored analysis unchanged."),
      Example(
        "resonance analyze --from 2022-06-01 --to 2022-09-01 --replace",
        "The derived tables describe only the summer until the next run without a range."),
    ])

  static let gap = Option(
    "gap", placeholder: "MINUTES",
    help: "The silence that ends a session, 1–1440 minutes. Default: 30.",
    parser: .integer(in: 1...1440))
  static let replace = Flag(
    "replace",
    help:
      "With --from or --to: store the range's analysis in place of the whole history's. Without it a range is printed, not stored."
  )
  static let rebuild = Flag(
    "rebuild",
    help:
      "Recompute every session, even those the last run left unchanged, and even when nothing was imported since."
  )

  var store: StoreOptions
  var output: OutputOptions
  var scope: AnalysisScope
  var isRebuild: Bool
  var isReplace: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    isRebuild = parsed[Self.rebuild]
    isReplace = parsed[Self.replace]
    scope = AnalysisScope(
      gapMinutes: parsed[Self.gap] ?? 30,
      days: DayRange(from: parsed[Option.from], to: parsed[Option.to]))
  }

  func validate() throws(UsageError) {
    if isReplace, scope.days == DayRange() {
      throw UsageError(
        "'\(Self.replace.spelling)' needs '\(Option.from.spelling)' or '\(Option.to.spelling)': without a range the analysis is always stored",
        hint: "resonance analyze --from 2022-06-01 --to 2022-09-01 --replace")
    }
    if let from = scope.days.from, let to = scope.days.to, from >= to {
      throw UsageError(
        "'\(Option.from.spelling)' must be before '\(Option.to.spelling)'",
        hint: "resonance analyze --from 2022-06-01 --to 2022-07-01")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let started = Date()
    let startedAt = Clock.nowMilliseconds()
    if scope.days != DayRange(), !isReplace { return try preview(in: context, started: started) }
    let store = try self.store.open()
    if !isRebuild, let last = try store.isAnalysisCurrent(for: scope) {
      if output.isJSON {
        context.console.out(
          AnalyzeSummary.json(
            last.summary, scope: last.scope, derived: try store.derivedSummary(), upToDate: true,
            analysedAt: last.finishedAtMs, lastImportID: last.lastImportID,
            seconds: Date().timeIntervalSince(started)
          ).text)
      } else if !output.isQuiet {
        context.console.out(
          "analyze: up to date: nothing imported since the last analysis, with the same options (--rebuild recomputes anyway)\n"
        )
      }
      return .ok
    }
    let summary = try Self.analyze(store, scope: scope, startedAt: startedAt, rebuild: isRebuild)
    let seconds = Date().timeIntervalSince(started)
    let derived = try store.derivedSummary()
    if output.isJSON {
      context.console.out(
        AnalyzeSummary.json(
          summary, scope: scope, derived: derived, upToDate: false,
          analysedAt: try store.lastAnalysis()?.finishedAtMs ?? Clock.nowMilliseconds(),
          lastImportID: try store.lastImportID(), seconds: seconds
        ).text)
    } else if !output.isQuiet {
      for line in AnalyzeSummary.lines(summary, derived: derived, seconds: seconds) {
        context.console.out(line + "\n")
      }
    }
    return .ok
  }

  /// A range without `--replace`: the history stage over the range's plays, printed, the
  /// store only read.
  private func preview(in context: CommandContext, started: Date) throws -> ExitCode {
    let store = try self.store.openExisting(for: "analyze")
    let (results, summary) = HistoryStage.run(
      try store.analysisInputs(), scope: scope, stored: nil, digest: Self.digest)
    let seconds = Date().timeIntervalSince(started)
    if output.isJSON {
      context.console.out(
        AnalyzeSummary.json(
          summary, scope: scope, derived: results.derivedSummary, upToDate: false,
          analysedAt: Clock.nowMilliseconds(), lastImportID: try store.lastImportID(),
          seconds: seconds, stored: false
        ).text)
    } else if !output.isQuiet {
      for line in AnalyzeSummary.lines(summary, derived: results.derivedSummary, seconds: seconds) {
        context.console.out(line + "\n")
      }
      context.console.out(
        "analyze: the range's analysis, not stored: the derived tables keep the last run's (--replace stores this one instead)\n"
      )
    }
    return .ok
  }

  /// SHA-256 in hex: what names a session's inputs.
  static func digest(_ text: String) -> String {
    let hash = SHA256()
    hash.update(Array(text.utf8))
    return hash.finalize()
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
    let (results, summary) = HistoryStage.run(
      inputs, scope: scope, stored: stored, digest: digest)
    try store.replaceAnalysis(
      results, summary: summary, startedAt: startedAt, finishedAt: Clock.nowMilliseconds())
    return summary
  }
}
