import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceSynth

/// `resonance validate`: how well the store's analyses recover what a simulated person
/// planted.
package struct ValidateStage: Stage {
  package let request: ValidateRequest

  package init(_ request: ValidateRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when the store is missing or nothing in it matches
  ///   the truth; the truth file's errors (`readTruth(_:)`).
  package func run(progress: any StageProgress) throws -> ValidateResult {
    let store = try request.store.existing(for: "validate")
    let truth = try Self.readTruth(request.truthPath)
    let report = truth.validate(try ValidationInputs.load(from: store))
    guard !report.isEmpty else {
      throw StageError(
        .missingInput,
        "\(request.store.path): nothing in the store matches \(request.truthPath) (ingest the "
          + "person's files and run resonance analyze first)")
    }
    return ValidateResult(report: report, truthPath: request.truthPath)
  }

  /// The simulated person's truth.json at `path`.
  ///
  /// - Throws: `IOError` when it cannot be read (missing: exit 66), `StageError.badData` when
  ///   it is not a truth file.
  static func readTruth(_ path: String) throws -> SynthTruth {
    let data = Data(try InputFile.open(path: path).readAll())
    guard let truth = try? SynthTruth(json: data) else {
      throw StageError(.badData, "\(path): expected a truth.json written by resonance synth")
    }
    return truth
  }
}

extension ValidationInputs {
  /// What the store holds of the analyses validation judges; each breathing session is
  /// analysed afresh from its recording.
  static func load(from store: Store) throws -> ValidationInputs {
    ValidationInputs(
      breathing: try store.breathingRecordings().map {
        .init(session: $0.recording.session, result: BreathingAnalysis($0.recording).result)
      },
      effectEstimates: try store.effectEstimates(), catalogIDs: try store.songCatalogIDs(),
      plays: try store.playsInSessions(), features: try store.songFeatures(),
      heartRate: try store.signal(.heartRate), hrv: try store.signal(.hrv))
  }
}

extension ValidateResult: ConsolePresentable {
  package var text: String { report.lines(truthPath: truthPath).map { $0 + "\n" }.joined() }
  package var json: String { report.json.text }

  /// The line naming every missed goal (for standard error), or nil when all are met.
  package var missedGoalsLine: String? { report.missedGoalsLine }
}
