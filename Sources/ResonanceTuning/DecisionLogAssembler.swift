import ResonanceBrain
import ResonanceModel

/// Turns the stored decision history into the arrays offline evaluation reads
/// (`LoggedDecisions`), with each decision's outcomes: kept, share heard, the physiological
/// response toward its need, and its session's quality.
///
/// A decision is used when it can be replayed (`DecisionReplay`), was logged under the policy
/// the evaluation uses (the one in force at the last decision: its kind, temperature and ε),
/// says what became of its chosen song, every candidate's propensity is a probability, and the
/// chosen song is one of its admitted candidates with a positive propensity (one below
/// `LoggedCandidate.propensityFloor` is read as the floor, and counted). Every other decision
/// is counted by why it was left out.
package enum DecisionLogAssembler {
  /// Why a decision was left out of evaluation.
  package enum Exclusion: String, Sendable, Equatable, CaseIterable {
    case notReplayable = "cannot be replayed"
    case otherPolicy = "logged under another policy"
    case noOutcome = "no outcome"
    case chosenNotAdmitted = "chosen song not among the admitted"
    case zeroPropensity = "chosen with propensity 0"
    case impossiblePropensity = "a propensity outside [0, 1]"
  }

  /// The evaluation's input and what was left out.
  package struct Assembled: Sendable {
    package var decisions: LoggedDecisions
    /// For each used decision, its index in the history.
    package var recordIndex: [Int]
    /// The preferences in force at each used decision.
    package var inForce: [UserPreferences]
    /// Decisions left out, by why.
    package var excluded: [Exclusion: Int]
    /// Decisions used whose chosen song's propensity was below `propensityFloor`, read as it.
    package var clippedPropensities: Int
  }

  /// The physiological response toward a need, in the signal's units, signed so that larger
  /// is better: HRV (SDNN, ms) up for calm and focus, heart rate (bpm) up for energy and mood
  /// lift. Nil when either reading is missing.
  package static func response(toward need: Need, _ followUp: PlayFollowUp?) -> Double? {
    guard let followUp else { return nil }
    switch need {
    case .calm, .focus:
      guard let before = followUp.hrvBefore, let during = followUp.hrvDuring else { return nil }
      return during - before
    case .energy, .moodLift:
      guard let before = followUp.heartRateBefore, let during = followUp.heartRateDuring else {
        return nil
      }
      return during - before
    }
  }

  /// Assembles the decisions of `history` that evaluation can use, with the response reward
  /// of each where some responses were not measured (`MissingResponses`).
  ///
  /// - Complexity: O(candidates), plus the missing-response model's fits.
  /// - Throws: `TuningError` of kind `fitFailed` when the missing-response model cannot be
  ///   fitted.
  package static func assemble(_ history: DecisionHistory) throws(TuningError) -> Assembled {
    let inForce = DecisionReplay.preferencesInForce(history.records)
    var builder = Builder(policy: (inForce.last.flatMap { $0 } ?? .appDefault).policy)
    builder.add(history, inForce: inForce)
    return try builder.finish()
  }

  /// Assembles a history a stretch at a time, in order: the stretches added one after another
  /// give what `assemble(_:)` gives for the whole history, and only the assembled arrays are
  /// kept.
  package struct Builder: Sendable {
    private var assembled: Assembled
    /// Records added so far, over every stretch.
    package private(set) var records = 0

    /// - Parameter policy: the policy evaluation uses, the one in force at the history's last
    ///   decision (the app's when none was stated); a decision logged under another is left
    ///   out.
    package init(policy: LoggingPolicy) {
      assembled = Assembled(
        decisions: LoggedDecisions(policy: policy), recordIndex: [], inForce: [], excluded: [:],
        clippedPropensities: 0)
    }

    /// Adds the next stretch of the history, with the preferences in force at each of its
    /// decisions.
    ///
    /// - Complexity: O(candidates of the stretch).
    package mutating func add(_ history: DecisionHistory, inForce: [UserPreferences?]) {
      precondition(inForce.count == history.records.count, "one preference slot per decision")
      defer { records += history.records.count }
      let policy = assembled.decisions.policy
      for (i, record) in history.records.enumerated() {
        guard let preferences = inForce[i], let moment = DecisionReplay.moment(record),
          !record.candidates.isEmpty
        else {
          assembled.excluded[.notReplayable, default: 0] += 1
          continue
        }
        guard preferences.policy == policy else {
          assembled.excluded[.otherPolicy, default: 0] += 1
          continue
        }
        guard let outcome = record.outcome else {
          assembled.excluded[.noOutcome, default: 0] += 1
          continue
        }
        guard let chosen = record.candidates.firstIndex(where: { $0.song == record.chosen })
        else {
          assembled.excluded[.chosenNotAdmitted, default: 0] += 1
          continue
        }
        guard record.candidates.allSatisfy(\.hasProbability) else {
          assembled.excluded[.impossiblePropensity, default: 0] += 1
          continue
        }
        guard record.candidates[chosen].propensity > 0 else {
          assembled.excluded[.zeroPropensity, default: 0] += 1
          continue
        }
        let floor = LoggedCandidate.propensityFloor
        if record.candidates[chosen].propensity < floor { assembled.clippedPropensities += 1 }
        for (row, c) in record.candidates.enumerated() {
          assembled.decisions.components.append(contentsOf: c.components.vector)
          assembled.decisions.smoothness.append(
            moment.previous.map {
              TransitionController.smoothness(from: $0, to: c.inputs.features)
            } ?? 0)
          assembled.decisions.propensity.append(
            row == chosen ? max(c.propensity, floor) : c.propensity)
        }
        assembled.decisions.rowStart.append(assembled.decisions.components.count / 7)
        assembled.decisions.blends.append(moment.previous != nil)
        assembled.decisions.familiarityBoost.append(record.adjuster?.familiarityBoost ?? 1)
        assembled.decisions.chosen.append(chosen)
        assembled.decisions.time.append(record.time)
        assembled.decisions.context.append(moment.context)
        assembled.decisions.need.append(moment.need)
        assembled.decisions.kept.append(!outcome.skipped)
        assembled.decisions.listenShare.append(
          outcome.durationMs.map { $0 > 0 ? Double(outcome.listenedMs) / Double($0) : .nan }
            ?? .nan)
        assembled.decisions.response.append(response(toward: moment.need, history.followUps[i]))
        assembled.decisions.sessionQuality.append(history.followUps[i]?.sessionQuality)
        assembled.recordIndex.append(records + i)
        assembled.inForce.append(preferences)
      }
    }

    /// The assembled log, with the missing-response model's rewards.
    ///
    /// - Throws: `TuningError` of kind `fitFailed` when the missing-response model cannot be
    ///   fitted.
    package consuming func finish() throws(TuningError) -> Assembled {
      var result = assembled
      result.decisions.responseReward = try MissingResponses.fill(result.decisions)
      return result
    }
  }
}
