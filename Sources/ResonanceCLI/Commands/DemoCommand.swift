import ResonanceModel
import ResonanceStages

/// `resonance demo`: the whole pipeline on the committed sample, into a fresh store, with the
/// reports written from what that store holds.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract:
      "Run every stage on the committed sample and write Reports/: every page, CSV and chart, sweep.csv and preferences.json.",
    discussion: """
      Starts a fresh store (the old demo store is deleted first; your own ./resonance.sqlite \
      is never touched unless you pass it with --db), ingests what this build's readers \
      understand under the data folder, runs every stage — analyze, breathing, and where the \
      data holds a DJ decision log, sweep (Reports/sweep.csv) and tune \
      (Reports/preferences.json) with their defaults, and the experiment in a folder named \
      as the data folder with -experiment after it (planned into Reports/experiment.json, \
      its decision logs ingested, analysed) — and writes the report from what the \
      store then holds, as resonance report does (with validation.md when the data folder \
      has the simulated person's truth.json), its index listing each stage. Every figure in \
      the reports comes from the data.

      'make demo' builds resonance in release mode and runs this command.
      """,
    examples: [
      Example("resonance demo", "Rebuild Reports/ from Datasets/sample."),
      Example(
        "resonance demo --data ~/exports --reports /tmp/out",
        "Run the same pipeline over your own folder of exports, writing to /tmp/out."),
    ])

  @Option(
    name: "data", placeholder: "DIR", help: "The sample to read. Default: Datasets/sample.",
    parser: .nonEmpty)
  var dataPath = "Datasets/sample"

  @Option(
    name: "reports", placeholder: "DIR", help: "Where to write the reports. Default: Reports.",
    parser: .nonEmpty)
  var reportsPath = "Reports"

  @Option(
    name: "db", placeholder: "PATH",
    help: "The demo's store, deleted and rebuilt. Default: demo.sqlite under --reports.",
    parser: .storePath)
  var storePath: String?

  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode {
    let request = DemoRequest(dataPath: dataPath, reportsPath: reportsPath, storePath: storePath)
    let result = try DemoStage(request).run(progress: context.progress(output))
    context.show(result, output)
    return result.worstFailure.map(ExitCode.init) ?? .ok
  }
}
