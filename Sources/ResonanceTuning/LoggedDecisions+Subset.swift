import ResonanceModel

extension LoggedDecisions {
  /// The decisions at `indices` (in that order), with their rows, as a log of their own.
  ///
  /// - Complexity: O(rows of the decisions taken).
  package func subset(_ indices: [Int]) -> LoggedDecisions {
    var result = LoggedDecisions(policy: policy)
    for d in indices { result.append(d, of: self, rows: rows(of: d), chosen: chosen[d]) }
    return result
  }

  /// The decisions at `indices` with only their chosen rows: what a reward model is fitted
  /// on (`RewardModel.fit(_:reward:penalty:predicts:)` without predictions reads a decision's
  /// chosen row and its outcomes, nothing else), at a row a decision instead of hundreds.
  ///
  /// - Complexity: O(decisions taken).
  package func chosenRows(_ indices: [Int]) -> LoggedDecisions {
    var result = LoggedDecisions(policy: policy)
    result.reserve(decisions: indices.count, rows: indices.count)
    for d in indices {
      let r = rowStart[d] + chosen[d]
      result.append(d, of: self, rows: r..<(r + 1), chosen: 0)
    }
    return result
  }

  /// Appends decision `d` of `log` with its rows `rows` only, `chosen` counted from the first
  /// of them.
  private mutating func append(
    _ d: Int, of log: LoggedDecisions, rows: Range<Int>, chosen: Int
  ) {
    components += log.components[(7 * rows.lowerBound)..<(7 * rows.upperBound)]
    smoothness += log.smoothness[rows]
    propensity += log.propensity[rows]
    rowStart.append(propensity.count)
    blends.append(log.blends[d])
    familiarityBoost.append(log.familiarityBoost[d])
    self.chosen.append(chosen)
    time.append(log.time[d])
    context.append(log.context[d])
    need.append(log.need[d])
    kept.append(log.kept[d])
    listenShare.append(log.listenShare[d])
    response.append(log.response[d])
    sessionQuality.append(log.sessionQuality[d])
    if !log.responseReward.isEmpty { responseReward.append(log.responseReward[d]) }
  }
}
