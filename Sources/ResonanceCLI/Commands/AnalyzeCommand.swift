import ResonanceModel
import ResonanceStages

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
      time of day with weekends, fallback), its skip rate and engagement, and measures heart \
      rate and HRV before and during every play and session, with the number of samples \
      behind each figure: most plays have no HRV sample, and then there is no figure \
      (docs/brain.md gives every window). The store must exist (resonance ingest makes it).

      It also finds the nights in the sleep records, gives each session its next night and \
      its quality (skip rate, HRV response, engagement, next-night sleep), and estimates the \
      state every 30 seconds of every session (state_ticks).

      Beyond the seed it estimates what each song does to heart rate and HRV while it plays, \
      against the person's average music, with a 90% interval (song_effect_estimates), and \
      stores every song's tempo, energy and valence estimates (song_features).

      A run brings the derived tables up to date in one transaction and records itself in \
      analysis_runs with the last import it saw and its options. A session whose plays are \
      unchanged and that no data imported since can reach (from a week before it to ten \
      minutes after its end) keeps its row, its plays' biometrics and its state ticks; the \
      rest are computed again. What depends on the whole history is recomputed every time: \
      the song effects (one fit over every play), the learning replay (from the first play, \
      in order), the nights and session quality (against the person's typical night) and the \
      song features. When nothing was imported since the last run and the options are the \
      same, it says the tables are up to date and changes nothing; --rebuild recomputes \
      everything (after upgrading resonance, say). On a terminal it shows which part it is \
      working on.

      --from and --to analyse only the plays that start in those days, each play's day in the \
      local time it was lived in, and print what that range gives without storing it: the \
      derived tables keep the whole-history analysis that reports, tune and sweep read. \
      --replace stores the range's analysis in their place (until a run without a range).
      """,
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

  @OptionGroup var store: StoreOptions

  @Option(
    name: "gap", placeholder: "MINUTES",
    help: "The silence that ends a session, 1–1440 minutes. Default: 30.",
    parser: .integer(in: 1...1440))
  var gapMinutes = AnalysisScope().gapMinutes

  @OptionGroup var days: DayOptions

  @Flag(
    name: "replace",
    help:
      "With --from or --to: store the range's analysis in place of the whole history's. Without it a range is printed, not stored."
  )
  var replaces: Bool

  @Flag(
    name: "rebuild",
    help:
      "Recompute every session, even those the last run left unchanged, and even when nothing was imported since."
  )
  var rebuilds: Bool

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    if replaces, days.days.isAll {
      throw UsageError(
        "'--replace' needs '--from' or '--to': without a range the analysis is always stored",
        hint: "resonance analyze --from 2022-06-01 --to 2022-09-01 --replace")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let request = AnalyzeRequest(
      store: try store.location(context.environment),
      scope: AnalysisScope(gapMinutes: gapMinutes, days: days.days), rebuild: rebuilds,
      replace: replaces)
    context.show(try AnalyzeStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
