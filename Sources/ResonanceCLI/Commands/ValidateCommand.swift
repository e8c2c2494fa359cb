import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceSynth

/// `resonance validate`: how well the analyses recover what `resonance synth` planted.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Compare the store's analyses with the truth a simulated person planted.",
    discussion: """
      Reads truth.json (written by resonance synth beside the files it made) and the store the \
      files were ingested into and analysed (resonance analyze), and reports how well the \
      analyses recover the truth, each figure beside its goal:

      breathing: Spearman's correlation of the Resonance Score and of the phase-locking value \
      with the planted adherence (goal ≥ 0.8), and for sessions that followed the pacer \
      throughout, the largest breathing-rate error (goal ≤ 0.5 breaths/min).

      sessions: the share of plays whose reconstructed session has the context they were lived \
      in.

      song effects on heart rate and HRV: how often the 90% intervals cover the planted effect \
      (goal 0.85–0.95), how many songs differ from the average song, and Spearman's \
      correlation with the planted effects over songs with at least 8 plays (goal ≥ 0.8 at \
      --effect-scale 3).

      song features: the error of the tempo, energy and valence estimates per source, and how \
      often the planted value lies within their intervals.

      A missed goal is marked 'goal NOT met' and makes the exit status 1, with --json too; \
      all goals met is exit 0. docs/validation.md holds its output for the sample and two \
      12-month sets.
      """,
    options: [Self.truth, Option.existingDB] + OutputOptions.options,
    examples: [
      Example(
        "resonance validate --truth Datasets/sample/truth.json --db Reports/demo.sqlite",
        "Validate the demo's store against the sample's truth.")
    ])

  static let truth = Option(
    "truth", placeholder: "FILE", help: "The truth.json of the simulated person. Required.",
    required: true, parser: .nonEmpty)

  var truthPath: String
  var store: StoreOptions
  var output: OutputOptions

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    truthPath = try parsed.required(Self.truth, for: Self.configuration.name)
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let opened = try store.openExisting(for: "validate")
    let truth = try readTruth()
    let report = truth.validate(try Self.inputs(from: opened))
    guard !report.isEmpty else {
      throw CommandError(
        .noInput,
        "\(store.path): nothing in the store matches \(truthPath) (ingest the person's files and run resonance analyze first)"
      )
    }
    if output.isJSON {
      context.console.out(report.json.text)
    } else if !output.isQuiet {
      context.console.out(report.lines(truthPath: truthPath).map { $0 + "\n" }.joined())
    }
    if let missed = report.missedGoalsLine {
      if !output.isQuiet { context.report(missed) }
      return .failure
    }
    return .ok
  }

  /// The simulated person's truth.json.
  func readTruth() throws -> SynthTruth { try Self.readTruth(truthPath) }

  /// The truth.json at `path`: exit 66 when it cannot be read, 65 when it is not one.
  static func readTruth(_ path: String) throws -> SynthTruth {
    let data = Data(try InputFile.open(path: path).readAll())
    guard let truth = try? SynthTruth(json: data) else {
      throw CommandError(.dataError, "\(path): expected a truth.json written by resonance synth")
    }
    return truth
  }

  /// What the store holds of the analyses validation judges; each breathing session is
  /// analysed afresh from its recording.
  static func inputs(from store: Store) throws -> ValidationInputs {
    ValidationInputs(
      breathing: try store.breathingRecordings().map {
        .init(session: $0.recording.session, result: BreathingAnalysis($0.recording).result)
      },
      effectEstimates: try store.effectEstimates(), catalogIDs: try store.songCatalogIDs(),
      plays: try store.playsInSessions(), features: try store.songFeatures(),
      heartRate: try store.signal(.heartRate), hrv: try store.signal(.hrv))
  }
}
