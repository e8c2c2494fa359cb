import ResonanceModel

extension LoggedDecisions {
  /// The decisions at `indices` (in that order), with their rows, as a log of their own.
  ///
  /// - Complexity: O(rows of the decisions taken).
  package func subset(_ indices: [Int]) -> LoggedDecisions {
    var result = LoggedDecisions(policy: policy)
    for d in indices {
      let rows = rows(of: d)
      result.components += components[(7 * rows.lowerBound)..<(7 * rows.upperBound)]
      result.smoothness += smoothness[rows]
      result.propensity += propensity[rows]
      result.rowStart.append(result.propensity.count)
      result.blends.append(blends[d])
      result.familiarityBoost.append(familiarityBoost[d])
      result.chosen.append(chosen[d])
      result.time.append(time[d])
      result.context.append(context[d])
      result.need.append(need[d])
      result.kept.append(kept[d])
      result.listenShare.append(listenShare[d])
      result.response.append(response[d])
      result.sessionQuality.append(sessionQuality[d])
      if !responseReward.isEmpty { result.responseReward.append(responseReward[d]) }
    }
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
      result.components += components[(7 * r)..<(7 * r + 7)]
      result.smoothness.append(smoothness[r])
      result.propensity.append(propensity[r])
      result.rowStart.append(result.propensity.count)
      result.blends.append(blends[d])
      result.familiarityBoost.append(familiarityBoost[d])
      result.chosen.append(0)
      result.time.append(time[d])
      result.context.append(context[d])
      result.need.append(need[d])
      result.kept.append(kept[d])
      result.listenShare.append(listenShare[d])
      result.response.append(response[d])
      result.sessionQuality.append(sessionQuality[d])
      if !responseReward.isEmpty { result.responseReward.append(responseReward[d]) }
    }
    return result
  }
}
