import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceSynth
import ResonanceTuning

/// `resonance validate`: how well the store's analyses recover what a simulated person
/// planted.
package struct ValidateStage: Stage {
  package let request: ValidateRequest

  package init(_ request: ValidateRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when the store is missing or nothing in it matches
  ///   the truth; the truth file's errors (`readTruth(_:)`).
  package func run(progress: any StageProgress) throws -> ValidateResult {
    let store = try request.store.reading(for: "validate")
    let truth = try Self.readTruth(request.truthPath)
    var report = truth.validate(try ValidationInputs.load(from: store))
    if let path = request.preferencesPath {
      report.tuning = try Self.oneStep(
        of: try PreferenceFile.read(at: path), path: path, store: store, days: request.days,
        truthPath: (request.truthPath as NSString).deletingLastPathComponent + "/"
          + SynthWriter.decisionTruth, bestPoint: request.bestPoint)
    }
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

extension ValidateStage {
  /// The one-step truth of `file` on the store's logged decisions in `days` (`OneStepTruth`), for the
  /// file's reward, with `truthPath`'s planted expectations; a decision uses its context's
  /// preferences where the file has them.
  ///
  /// - Throws: `StageError`: `missingInput` without the truth file or without a decision
  ///   the truth knows; `badData` for a truth file that does not parse, a logged decision
  ///   whose candidates differ from the truth's, or a file tuned for `session-quality` (a
  ///   session's, not a decision's, outcome).
  static func oneStep(
    of file: PreferenceFile, path: String, store: Store, days: DayRange, truthPath: String,
    bestPoint: Bool = false
  ) throws -> OneStepTruth {
    let reward = file.evidence?.reward ?? .composite
    guard reward != .sessionQuality else {
      throw StageError(
        .badData,
        "\(path): tuned for session-quality, which depends on the session's other choices; "
          + "the one-step truth covers keep, listen-share, response and composite")
    }
    let truths: [Int: DecisionTruthFile.Decision]
    do {
      truths = try DecisionTruthFile.read(path: truthPath)
    } catch let error as IOError {
      throw StageError(
        error.kind == .missing ? .missingInput : .io,
        "\(truthPath): \(error) (resonance synth writes it beside truth.json)")
    } catch {
      throw StageError(.badData, "\(error)")
    }
    let history = try store.decisionHistory(in: days)
    let assembled: DecisionLogAssembler.Assembled
    do {
      assembled = try DecisionLogAssembler.assemble(history)
    } catch {
      throw StageError(.badData, "\(store.path): \(error.detail)")
    }
    var used: [Int] = []
    var values: [Double] = []
    for (i, index) in assembled.recordIndex.enumerated() {
      let record = history.records[index]
      guard let truth = truths[record.decision] else { continue }
      guard truth.timeMs == record.time.millisecondsSinceEpoch,
        truth.songs == record.candidates.map(\.song)
      else {
        throw StageError(
          .badData,
          "\(truthPath): decision \(record.decision) differs from the store's (another person's "
            + "truth, or a store holding two histories)")
      }
      used.append(i)
      for c in truth.candidates {
        values.append(
          OneStepValue.expected(reward, skip: c.skip, share: c.share, response: c.response) ?? 0)
      }
    }
    let decisions = assembled.decisions.subset(used)
    guard decisions.count > 0 else {
      throw StageError(
        .missingInput,
        "\(store.path): no logged decision the truth at \(truthPath) knows (ingest the person's "
          + "files first)")
    }
    var probabilities = TargetPolicy.evaluate(decisions, file.preferences).probabilities
    for (context, preferences) in file.contexts ?? [:] {
      let own = TargetPolicy.evaluate(decisions, preferences).probabilities
      for d in 0..<decisions.count where decisions.context[d].rawValue == context {
        for r in decisions.rows(of: d) { probabilities[r] = own[r] }
      }
    }
    return OneStepTruth(
      reward: reward, decisions: decisions.count,
      inForce: OneStepValue.mean(decisions, probabilities: decisions.propensity, values: values),
      preferences: OneStepValue.mean(decisions, probabilities: probabilities, values: values),
      estimatedGains: try Self.estimatedGains(
        decisions, probabilities: probabilities, reward: reward),
      bestPoint: bestPoint
        ? Self.bestPoint(
          decisions, values: values, inForce: assembled.inForce.last ?? .appDefault) : nil)
  }

  /// The point of tune's default design (`TuningSettings`) with the greatest one-step value
  /// on `decisions`, each point first made as greedy as `inForce` on them (`Greediness`), as
  /// `resonance tune` compares points: the best that tune's search could find.
  static func bestPoint(
    _ decisions: LoggedDecisions, values: [Double], inForce: UserPreferences
  ) -> OneStepTruth.BestPoint {
    // The sweep kernel's direct-method sum with the planted expectations as the "model" is
    // Σ_d Σ_r π(r) · E[reward | r]: the one-step value of every point in one pass.
    let input = SweepInput(
      decisions, rewards: [.init(repeating: 0, count: decisions.count)], predictions: [values],
      group: .init(repeating: 0, count: decisions.count), groups: 1)
    let design = TuningSettings().design
    let points = Greediness(input).matched(design.weights(), to: inForce.weights)
    let totals = SweepKernel.evaluate(input, weights: points)
    var best = OneStepTruth.BestPoint(weights: inForce.weights, value: -.infinity, points: 0)
    for (p, point) in points.enumerated() {
      let value = totals.estimate(point: p, reward: 0, form: EstimatorForm(.dm)).value ?? -.infinity
      if value > best.value { best = .init(weights: point, value: value, points: 0) }
    }
    best.points = points.count
    return best
  }

  /// Every estimator's estimate of the gain of the target `probabilities` over the logging
  /// policy on `decisions`, with reward models cross-fitted by month over them; Switch-DR's
  /// and DRos's parameter is SLOPE's for the target, used for both.
  static func estimatedGains(
    _ decisions: LoggedDecisions, probabilities: [Double], reward: Reward
  ) throws -> [Estimator: Double] {
    func likeliest(_ p: [Double]) -> [Int] {
      (0..<decisions.count).map { d in
        let rows = decisions.rows(of: d)
        return rows.max { p[$0] < p[$1] || (p[$0] == p[$1] && $0 > $1) }! - rows.lowerBound
      }
    }
    let evaluator: OffPolicyEvaluator
    do {
      evaluator = try OffPolicyEvaluator(decisions, reward: reward)
    } catch {
      throw StageError(.badData, "the decisions' reward model: \(error)")
    }
    let target = TargetProbabilities(
      probabilities: probabilities, likeliest: likeliest(probabilities))
    let logging = TargetProbabilities(
      probabilities: decisions.propensity, likeliest: likeliest(decisions.propensity))
    var gains: [Estimator: Double] = [:]
    for estimator in Estimator.allCases {
      let estimate = evaluator.estimate(target, estimator: estimator)
      let parameter = estimate.form.parameter.flatMap {
        EstimatorSums.parameters(estimator).firstIndex(of: $0)
      }
      let base = evaluator.estimate(logging, estimator: estimator, parameter: parameter)
      if let a = estimate.value, let b = base.value { gains[estimator] = a - b }
    }
    return gains
  }
}

extension ValidationInputs {
  /// What the store holds of the analyses validation judges; each breathing session is
  /// analysed afresh from its recording.
  static func load(from store: Store) throws -> ValidationInputs {
    let sources = ReportSources(store: store, days: DayRange(), truth: nil)
    var inputs = ValidationInputs(
      breathing: try store.breathingRecordings().map {
        .init(session: $0.recording.session, result: BreathingAnalysis($0.recording).result)
      },
      effectEstimates: try store.effectEstimates(), catalogIDs: try store.songCatalogIDs(),
      plays: try store.playsInSessions(), features: try store.songFeatures(),
      heartRate: try sources.heartRate(), hrv: try sources.hrv())
    inputs.practice = try sources.practice()
    inputs.baselines = try sources.baselines()
    return inputs
  }
}

extension ValidateResult: ConsolePresentable {
  package var text: String { report.lines(truthPath: truthPath).map { $0 + "\n" }.joined() }
  package var json: String { report.json.text }

  /// The line naming every missed goal (for standard error), or nil when all are met.
  package var missedGoalsLine: String? { report.missedGoalsLine }
}
