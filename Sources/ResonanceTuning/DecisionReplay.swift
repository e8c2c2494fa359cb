import ResonanceBrain
import ResonanceModel

/// Runs the decision engine again on every logged decision, from the line's own inputs and the
/// preferences in force, and compares what it computes with what the app logged
/// (`docs/tuning.md`, "The replay check"). Offline evaluation is only as good as the log: a
/// decision the engine cannot reproduce was not made by the engine this build knows, and
/// `resonance tune` refuses such a log, naming the first decision that differs.
///
/// Tolerances are the log's precision. Version 2 writes every number exactly, so components,
/// scores and propensities must agree to 1e-9. Version 1 wrote components and scores to six
/// decimals (±5e-7) and propensities to eight, so a propensity must agree within 1e-4 of
/// itself or half a unit of the eighth decimal, whichever is larger.
package enum DecisionReplay {
  /// The largest difference a component, base or final score may show, by log version.
  package static func scoreTolerance(version: Int) -> Double { version >= 2 ? 1e-9 : 5e-7 }

  /// Whether a replayed propensity agrees with the logged one, by log version.
  package static func propensityAgrees(logged: Double, replayed: Double, version: Int) -> Bool {
    let difference = abs(logged - replayed)
    return version >= 2 ? difference <= 1e-9 : difference <= max(1e-4 * abs(logged), 5e-9)
  }

  /// The preferences in force at each decision: the last stated at or before it (a log's
  /// header, given to its first decision, or a line's own); nil before any was stated.
  package static func preferencesInForce(_ records: [DecisionRecord]) -> [UserPreferences?] {
    var current: UserPreferences?
    return records.map { record in
      if let stated = record.preferences { current = stated }
      return current
    }
  }

  /// The moment a decision was scored at, from its line; nil when the line lacks what the
  /// scorer reads (a need or context this build does not know, the hour, stress or play
  /// count scale).
  package static func moment(_ record: DecisionRecord) -> DecisionMoment? {
    guard let need = record.need.flatMap(Need.init(rawValue:)),
      let context = record.context.flatMap(ActivityContext.init(rawValue:)),
      let hour = record.localHour, let stress = record.stress,
      let maxPlayCount = record.maxPlayCount
    else { return nil }
    return DecisionMoment(
      need: need, context: context, nowMs: record.time.millisecondsSinceEpoch,
      localHour: hour, stress: stress, previous: record.previous,
      recentArtists: record.recentArtists, maxPlayCount: maxPlayCount)
  }

  /// A logged candidate as the engine takes it.
  package static func candidate(song: String, _ inputs: CandidateInputs) -> Candidate {
    Candidate(
      songID: song.isEmpty ? nil : song, artist: inputs.artist, features: inputs.features,
      playCount: inputs.plays, learnedEffect: inputs.learned, lastPlayedAtMs: inputs.lastPlayedMs)
  }

  /// Replays every decision that can be replayed and compares.
  ///
  /// - Complexity: O(candidates).
  package static func check(_ records: [DecisionRecord]) -> ReplayCheck {
    var check = ReplayCheck()
    Self.check(records, inForce: preferencesInForce(records), into: &check)
    return check
  }

  /// Replays `records`, a stretch of the history with the preferences in force at each,
  /// adding what it finds to `check`: the stretches of a history checked one after another
  /// find what the whole history checked at once does.
  ///
  /// - Complexity: O(candidates).
  package static func check(
    _ records: [DecisionRecord], inForce: [UserPreferences?], into check: inout ReplayCheck
  ) {
    for (i, record) in records.enumerated() {
      guard let preferences = inForce[i] else {
        check.notReplayable[.noPreferences, default: 0] += 1
        continue
      }
      guard let moment = moment(record) else {
        check.notReplayable[.incompleteLine, default: 0] += 1
        continue
      }
      guard !record.candidates.isEmpty else {
        check.notReplayable[.noCandidates, default: 0] += 1
        continue
      }
      guard record.candidates.allSatisfy(\.hasProbability) else {
        check.notReplayable[.impossiblePropensity, default: 0] += 1
        continue
      }
      check.replayed += 1
      check.byVersion[record.version, default: 0] += 1
      if let mismatch = compare(record, at: moment, preferences: preferences, into: &check),
        check.firstMismatch == nil
      {
        check.firstMismatch = mismatch
      }
    }
  }

  /// Replays one decision; the first difference beyond tolerance, or nil.
  private static func compare(
    _ record: DecisionRecord, at moment: DecisionMoment, preferences: UserPreferences,
    into check: inout ReplayCheck
  ) -> ReplayMismatch? {
    func mismatch(_ detail: String) -> ReplayMismatch {
      ReplayMismatch(
        decision: record.decision, time: record.time, version: record.version, detail: detail)
    }
    let adjuster = record.adjuster ?? AdjusterState()
    var found: ReplayMismatch?
    // Version 2 gives the rejected candidates' inputs: the guard filters must say the same.
    for rejected in record.rejected {
      guard let inputs = rejected.inputs else { continue }
      let reason = GuardFilters.rejection(
        of: candidate(song: rejected.song, inputs), at: moment, preferences: preferences,
        adjuster: adjuster)
      if reason?.rawValue != rejected.reason, found == nil {
        found = mismatch(
          "song \(rejected.song) was rejected as \(rejected.reason) in the log, "
            + "\(reason.map { "as \($0.rawValue)" } ?? "not at all") on replay")
      }
    }
    let admitted = record.candidates.map { candidate(song: $0.song, $0.inputs) }
    let scored = DecisionEngine.score(
      admitted, at: moment, preferences: preferences, adjuster: adjuster)
    guard scored.count == admitted.count else {
      return found
        ?? mismatch(
          "the log admitted \(admitted.count) candidates, the guard filters admit "
            + "\(scored.count) on replay")
    }
    let tolerance = scoreTolerance(version: record.version)
    for (again, logged) in zip(scored, record.candidates) {
      var differences = zip(again.components.vector, logged.components.vector).map {
        abs($0 - $1)
      }
      differences.append(abs(again.baseScore - logged.baseScore))
      differences.append(abs(again.finalScore - logged.finalScore))
      let largest = differences.max() ?? 0
      check.largestScoreDifference = max(check.largestScoreDifference, largest)
      let relative = abs(again.propensity - logged.propensity) / max(logged.propensity, 1e-300)
      check.largestPropensityRelativeDifference = max(
        check.largestPropensityRelativeDifference, relative)
      guard found == nil else { continue }
      if !(largest <= tolerance) {
        found = mismatch(
          "song \(logged.song): logged score \(logged.finalScore) (base \(logged.baseScore)), "
            + "replayed \(again.finalScore) (base \(again.baseScore)); a component or score "
            + "differs by \(largest), more than the \(tolerance) version \(record.version) allows")
      } else if !propensityAgrees(
        logged: logged.propensity, replayed: again.propensity, version: record.version)
      {
        found = mismatch(
          "song \(logged.song): logged propensity \(logged.propensity), replayed "
            + "\(again.propensity)")
      }
    }
    return found
  }
}

/// What the replay check found.
package struct ReplayCheck: Sendable, Equatable {
  /// Why a decision could not be replayed.
  package enum Gap: String, Sendable, Equatable, CaseIterable {
    /// No preferences had been stated by then (a log without its header).
    case noPreferences = "no preferences in force"
    /// The line lacks the need, context, hour, stress or play-count scale, or names a need
    /// or context this build does not know.
    case incompleteLine = "incomplete line"
    /// The line lists no admitted candidate.
    case noCandidates = "no candidates"
    /// A candidate's logged propensity is no probability (outside [0, 1]): the line was not
    /// written by the engine as logged, and evaluation leaves it out.
    case impossiblePropensity = "a propensity outside [0, 1]"
  }

  /// Decisions replayed, in all and by log version.
  package var replayed = 0
  package var byVersion: [Int: Int] = [:]
  /// Decisions that could not be replayed, by why.
  package var notReplayable: [Gap: Int] = [:]
  /// The largest difference between a logged and a replayed component, base or final score.
  package var largestScoreDifference = 0.0
  /// The largest relative difference between a logged and a replayed propensity.
  package var largestPropensityRelativeDifference = 0.0
  /// The first decision whose replay differs beyond its version's tolerance.
  package var firstMismatch: ReplayMismatch?

  package init() {}

  /// Whether every replayed decision agreed.
  package var passed: Bool { firstMismatch == nil }
}

/// A decision whose replay differs from its log.
package struct ReplayMismatch: Sendable, Equatable {
  /// The decision's number in its log, and when it was made.
  package var decision: Int
  package var time: Timestamp
  package var version: Int
  /// What differs, with both values.
  package var detail: String

  package init(decision: Int, time: Timestamp, version: Int, detail: String) {
    self.decision = decision
    self.time = time
    self.version = version
    self.detail = detail
  }
}
