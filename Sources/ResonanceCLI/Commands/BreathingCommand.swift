import ResonanceModel
import ResonanceStages

/// `resonance breathing`: analyses breathing-pacer recordings, as files or from the store.
struct BreathingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "breathing",
    abstract:
      "Analyse breathing-pacer recordings: Resonance Score, rate, phase locking, coherence.",
    discussion: """
      For each recording (resonance.breathing JSON Lines, plain or gzip, docs/formats.md) — the \
      files given, or without files the sessions `resonance ingest` put in the store (which \
      must exist): the app's Resonance Score exactly as the app computes it, the breathing \
      rate measured from the chest waveform and its variability, phase locking to the pacer \
      and the lag, the share of the session the live nudge would have said "In sync", \
      heart-rhythm coherence with its peak frequency, RSA amplitude, HRV before and after, and \
      the dominant expression. Then a comparison by month and across the three patterns. \
      docs/breathing.md gives every formula; a metric that cannot be computed is null, and the \
      notes say why. Sessions from the store have their results saved beside them \
      (breathing_results). A file that cannot be read is an error, and the others go on.
      """,
    examples: [
      Example(
        "resonance breathing Datasets/sample/resonance/breathing/*.jsonl.gz",
        "Analyse the sample's sessions, one row each, then compare the patterns."),
      Example(
        "resonance breathing --session 4", "Analyse session 4 as imported into ./resonance.sqlite."),
    ])

  @Argument(
    name: "FILE", help: "Recording files; without any, the sessions in the store.", required: false)
  var paths: [String]

  @OptionGroup var store: StoreOptions

  @Option(
    name: "session", placeholder: "ID", help: "Only the store's session with this number.",
    parser: .integer(in: 0...Int(Int32.max)))
  var session: Int?

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    if session != nil && !paths.isEmpty {
      throw UsageError(
        "'--session' picks from the store; give it without files",
        hint: "resonance breathing --session ID")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let input: BreathingRequest.Input =
      paths.isEmpty
      ? .store(try store.location(context.environment), session: session) : .files(paths)
    let result = try BreathingStage(BreathingRequest(input: input)).run(
      progress: context.progress(output))
    context.show(result, output)
    return result.failures.map { ExitCode($0.kind) }.max() ?? .ok
  }
}
