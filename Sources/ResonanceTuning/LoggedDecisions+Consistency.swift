import ResonanceModel

extension LoggedDecisions {
  /// Checks that the log's arrays fit together and that every chosen row can be weighted:
  /// the row offsets start at 0 and give every decision at least one row; each per-row array
  /// has `rows` elements (`components` seven a row) and each per-decision array `count`; every
  /// chosen row is one of its decision's (`responseReward` is empty or one a decision);
  /// components, smoothness, propensities and familiarity
  /// boosts are finite, propensities ≥ 0, and the chosen row's propensity > 0.
  ///
  /// Offline evaluation runs this once before reading the log; the scoring functions then
  /// assume it (their preconditions are programmer errors, not input errors).
  ///
  /// - Complexity: O(rows).
  /// - Throws: `TuningError` of kind `inconsistentLog` for the first misfit found, or
  ///   `unusablePropensity` for the first decision whose chosen row has a propensity that is
  ///   not finite and positive.
  package func checkConsistency() throws(TuningError) {
    guard rowStart.first == 0 else {
      throw TuningError(.inconsistentLog, "row offsets must start at 0")
    }
    for d in 0..<count where rowStart[d + 1] <= rowStart[d] {
      throw TuningError(
        .inconsistentLog, decision: d, "a decision needs at least one candidate row")
    }
    let perRow: [(String, Int)] = [
      ("components", components.count / 7), ("smoothness", smoothness.count),
      ("propensity", propensity.count),
    ]
    guard components.count % 7 == 0 else {
      throw TuningError(.inconsistentLog, "components must hold seven values a row")
    }
    for (name, n) in perRow where n != rows {
      throw TuningError(.inconsistentLog, "\(rows) candidate rows but \(n) in \(name)")
    }
    let perDecision: [(String, Int)] = [
      ("blends", blends.count), ("familiarityBoost", familiarityBoost.count),
      ("chosen", chosen.count), ("time", time.count), ("context", context.count),
      ("need", need.count), ("kept", kept.count), ("listenShare", listenShare.count),
      ("response", response.count), ("sessionQuality", sessionQuality.count),
    ]
    for (name, n) in perDecision where n != count {
      throw TuningError(.inconsistentLog, "\(count) decisions but \(n) in \(name)")
    }
    guard responseReward.isEmpty || responseReward.count == count else {
      throw TuningError(
        .inconsistentLog, "\(count) decisions but \(responseReward.count) in responseReward")
    }
    guard components.allSatisfy(\.isFinite), smoothness.allSatisfy(\.isFinite) else {
      throw TuningError(.inconsistentLog, "components and smoothness must be finite")
    }
    guard propensity.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw TuningError(.inconsistentLog, "propensities must be finite and ≥ 0")
    }
    for d in 0..<count {
      guard familiarityBoost[d].isFinite else {
        throw TuningError(.inconsistentLog, decision: d, "the familiarity boost must be finite")
      }
      let rows = rows(of: d)
      guard chosen[d] >= 0, chosen[d] < rows.count else {
        throw TuningError(
          .inconsistentLog, decision: d,
          "chosen row \(chosen[d]) is not one of the decision's \(rows.count)")
      }
      let p = propensity[rows.lowerBound + chosen[d]]
      guard p > 0 else {
        throw TuningError(
          .unusablePropensity, decision: d, "the chosen row's propensity must be > 0, found \(p)")
      }
    }
  }
}
