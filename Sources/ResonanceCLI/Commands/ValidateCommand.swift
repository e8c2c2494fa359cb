import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceStore

/// `resonance validate`: how well the analyses recover what `resonance synth` planted.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Compare the store's analyses with the truth a simulated person planted.",
    discussion: """
      Reads truth.json (written by resonance synth beside the files it made) and the store the \
      files were ingested into, and reports how well the analyses recover the truth. Today it \
      validates the breathing analysis: Spearman's correlation of the Resonance Score and of \
      the phase-locking value with the planted adherence (goal ≥ 0.8), and for sessions that \
      followed the pacer throughout, the largest breathing-rate error (goal ≤ 0.5 \
      breaths/min). docs/validation.md holds its output.
      """,
    options: [
      OptionDefinition(
        "truth", .value(placeholder: "FILE"),
        help: "The truth.json of the simulated person. Required."),
      CommonOptions.db, CommonOptions.json,
    ],
    examples: [
      Example(
        "resonance validate --truth Datasets/sample/truth.json --db Reports/demo.sqlite",
        "Validate the demo's store against the sample's truth.")
    ])

  var truthPath: String
  var storePath: String
  var isJSON: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    guard let truth = parsed.value("truth") else {
      throw UsageError(
        "missing '--truth FILE' for 'validate'",
        hint: "write 'resonance validate --truth truth.json'")
    }
    truthPath = truth
    storePath = CommonOptions.storePath(parsed, environment)
    isJSON = parsed.flag("json")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    var data = Data()
    try InputFile(path: truthPath).forEachChunk { data.append(contentsOf: $0) }
    guard let truth = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let planted = truth["breathing"] as? [[String: Any]]
    else {
      throw CommandError(
        .dataError, "\(truthPath): expected a truth.json written by resonance synth")
    }
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    var bySession: [Int: [String: Any]] = [:]
    for entry in planted {
      if let session = entry["session"] as? Int { bySession[session] = entry }
    }
    var adherence: [Double] = []
    var scores: [Double] = []
    var locking: [Double] = []
    var followedErrors: [Double] = []
    for (_, _, recording) in try store.breathingRecordings() {
      guard let entry = bySession[recording.session], let a = entry["adherence"] as? Double else {
        continue
      }
      let analysis = BreathingAnalysis(recording)
      adherence.append(a)
      scores.append(analysis.score.score ?? -1)
      locking.append(analysis.phaseLocking ?? -1)
      if a >= 0.999, let rate = analysis.breathsPerMinute,
        let planted = entry["true_rate_bpm"] as? Double
      {
        followedErrors.append(abs(rate - planted))
      }
    }
    guard !adherence.isEmpty else {
      throw CommandError(
        .noInput,
        "\(storePath): no breathing session matches \(truthPath) (ingest the person's recordings first)"
      )
    }
    let spearmanScore = Statistics.spearman(scores, adherence)
    let spearmanPLV = Statistics.spearman(locking, adherence)
    let maxError = followedErrors.max()
    let met =
      (spearmanScore ?? 0) >= 0.8 && (spearmanPLV ?? 0) >= 0.8 && (maxError ?? 0) <= 0.5
    if isJSON {
      let object: [String: Any] = [
        "breathing": [
          "sessions": adherence.count,
          "spearman_score_adherence": spearmanScore.map { $0 as Any } ?? NSNull(),
          "spearman_plv_adherence": spearmanPLV.map { $0 as Any } ?? NSNull(),
          "followed_sessions": followedErrors.count,
          "max_rate_error_followed": maxError.map { $0 as Any } ?? NSNull(), "goals_met": met,
        ]
      ]
      let json = try JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      context.console.out(String(decoding: json, as: UTF8.self) + "\n")
    } else {
      func f(_ x: Double?) -> String { x.map { ProgressReporter.fixed($0, 3) } ?? "–" }
      context.console.out(
        """
        breathing: \(adherence.count) sessions matched to \(truthPath)
          Spearman(Resonance Score, planted adherence)  \(f(spearmanScore))   goal ≥ 0.8
          Spearman(phase locking, planted adherence)    \(f(spearmanPLV))   goal ≥ 0.8
          sessions that followed the pacer throughout   \(followedErrors.count)
          largest breathing-rate error among them       \(f(maxError)) breaths/min   goal ≤ 0.5
          goals \(met ? "met" : "NOT met")

        """)
    }
    return .ok
  }
}
