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
    let records = history.records
    let inForce = DecisionReplay.preferencesInForce(records)
    let policy = inForce.last.flatMap { $0 }?.policy ?? UserPreferences.appDefault.policy
    var decisions = LoggedDecisions(policy: policy)
    var used: [Int] = []
    var usedPreferences: [UserPreferences] = []
    var excluded: [Exclusion: Int] = [:]
    var clipped = 0
    for (i, record) in records.enumerated() {
      guard let preferences = inForce[i], let moment = DecisionReplay.moment(record),
        !record.candidates.isEmpty
      else {
        excluded[.notReplayable, default: 0] += 1
        continue
      }
      guard preferences.policy == policy else {
        excluded[.otherPolicy, default: 0] += 1
        continue
      }
      guard let outcome = record.outcome else {
        excluded[.noOutcome, default: 0] += 1
        continue
      }
      guard let chosen = record.candidates.firstIndex(where: { $0.song == record.chosen }) else {
        excluded[.chosenNotAdmitted, default: 0] += 1
        continue
      }
      guard record.candidates.allSatisfy(\.hasProbability) else {
        excluded[.impossiblePropensity, default: 0] += 1
        continue
      }
      guard record.candidates[chosen].propensity > 0 else {
        excluded[.zeroPropensity, default: 0] += 1
        continue
      }
      let floor = LoggedCandidate.propensityFloor
      if record.candidates[chosen].propensity < floor { clipped += 1 }
      for (row, c) in record.candidates.enumerated() {
        decisions.components.append(contentsOf: c.components.vector)
        decisions.smoothness.append(
          moment.previous.map {
            TransitionController.smoothness(from: $0, to: c.inputs.features)
          } ?? 0)
        decisions.propensity.append(row == chosen ? max(c.propensity, floor) : c.propensity)
      }
      decisions.rowStart.append(decisions.components.count / 7)
      decisions.blends.append(moment.previous != nil)
      decisions.familiarityBoost.append(record.adjuster?.familiarityBoost ?? 1)
      decisions.chosen.append(chosen)
      decisions.time.append(record.time)
      decisions.context.append(moment.context)
      decisions.need.append(moment.need)
      decisions.kept.append(!outcome.skipped)
      decisions.listenShare.append(
        outcome.durationMs.map { $0 > 0 ? Double(outcome.listenedMs) / Double($0) : .nan }
          ?? .nan)
      decisions.response.append(response(toward: moment.need, history.followUps[i]))
      decisions.sessionQuality.append(history.followUps[i]?.sessionQuality)
      used.append(i)
      usedPreferences.append(preferences)
    }
    decisions.responseReward = try MissingResponses.fill(decisions)
    return Assembled(
      decisions: decisions, recordIndex: used, inForce: usedPreferences, excluded: excluded,
      clippedPropensities: clipped)
  }
}
