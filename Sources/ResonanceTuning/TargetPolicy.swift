import ResonanceBrain
import ResonanceModel

/// What a target policy does on a logged decision log: the probability it gives every
/// candidate row, and for every decision the row it likes best. Offline evaluation reads only
/// this, so a faster kernel that produces it can stand in for `TargetPolicy.evaluate`.
package struct TargetProbabilities: Sendable, Equatable {
  /// Per row, in the log's row order: the target's probability of choosing it, 0 … 1; a
  /// decision's sum to 1.
  package var probabilities: [Double]
  /// Per decision: the row with the highest final score (the first of equals, the app's
  /// tie-break), counted from the decision's first row like `LoggedDecisions.chosen`.
  package var likeliest: [Int]

  /// Probabilities per row and the likeliest row per decision, as described above.
  package init(probabilities: [Double], likeliest: [Int]) {
    self.probabilities = probabilities
    self.likeliest = likeliest
  }
}

/// The app's own policy under other preferences, replayed on the logged candidates: the
/// target policy of offline evaluation.
///
/// For decision d and its row r with components c (seven, in `ScoringWeights`' order):
/// - base = `SongScorer.baseScore(c, weights: w)`, with w the preferences' seven weights and
///   the familiarity weight multiplied by `familiarityBoost[d]` (what the real-time adjuster
///   put on it when the decision was made);
/// - final = 0.7·base + 0.3·smoothness[r] when `blends[d]` (`TransitionController.baseShare`),
///   else base;
/// - probabilities = `SelectionPolicy(decisions.policy).propensities(final scores)`: the
///   logging policy's kind, temperature and ε, never the preferences' own `policy`, so that
///   only the weights differ between the logging and the target policy.
///
/// Only the seven weights are replayed. The components were computed under the rules in
/// force when the decision was made (recency window, time-of-day caps), and the log holds only
/// the candidates the guard filters admitted; preferences that change those rules cannot be
/// evaluated from the log, and their rule fields are ignored here.
package enum TargetPolicy {
  /// The seven weights decision d scores with: the preferences' weights with the familiarity
  /// weight multiplied by `familiarityBoost` (1 … 1.5 in the app; 1 is none).
  package static func weights(_ preferences: UserPreferences, familiarityBoost: Double)
    -> ScoringWeights
  {
    SongScorer.weights(preferences, adjuster: AdjusterState(familiarityBoost: familiarityBoost))
  }

  /// Every row's final score under `preferences`, in the log's row order.
  ///
  /// - Complexity: O(rows).
  /// - Precondition: the log passes `LoggedDecisions.checkConsistency()`.
  package static func finalScores(_ decisions: LoggedDecisions, _ preferences: UserPreferences)
    -> [Double]
  {
    var scores = [Double](repeating: 0, count: decisions.rows)
    for d in 0..<decisions.count {
      let w = weights(preferences, familiarityBoost: decisions.familiarityBoost[d])
      let blends = decisions.blends[d]
      for r in decisions.rows(of: d) {
        let c = ScoringComponents(vector: Array(decisions.components[(7 * r)..<(7 * r + 7)]))
        let base = SongScorer.baseScore(c, weights: w)
        scores[r] =
          blends
          ? TransitionController.finalScore(base: base, smoothness: decisions.smoothness[r])
          : base
      }
    }
    return scores
  }

  /// The target's probabilities and likeliest rows under `preferences`, with the log's
  /// softmax temperature times `temperatureFactor` (the temperature as its own dimension:
  /// `Tuner`'s greediness; unused by the greedy policies).
  ///
  /// - Complexity: O(rows).
  /// - Precondition: the log passes `LoggedDecisions.checkConsistency()`.
  package static func evaluate(
    _ decisions: LoggedDecisions, _ preferences: UserPreferences, temperatureFactor: Double = 1
  ) -> TargetProbabilities {
    let scores = finalScores(decisions, preferences)
    var logging = decisions.policy
    logging.temperature *= temperatureFactor
    let policy = SelectionPolicy(logging)
    var probabilities = [Double](repeating: 0, count: decisions.rows)
    var likeliest = [Int](repeating: 0, count: decisions.count)
    for d in 0..<decisions.count {
      let rows = decisions.rows(of: d)
      let decisionScores = Array(scores[rows])
      let p = policy.propensities(decisionScores)
      probabilities.replaceSubrange(rows, with: p)
      likeliest[d] = SelectionPolicy.argmax(decisionScores)
    }
    return TargetProbabilities(probabilities: probabilities, likeliest: likeliest)
  }

  /// The target's probability of every row under `preferences`, in the log's row order.
  ///
  /// - Complexity: O(rows).
  /// - Precondition: the log passes `LoggedDecisions.checkConsistency()`.
  package static func probabilities(_ decisions: LoggedDecisions, _ preferences: UserPreferences)
    -> [Double]
  {
    evaluate(decisions, preferences).probabilities
  }

  /// Per decision, the row the target likes best under `preferences` (the first highest
  /// final score), counted from the decision's first row.
  ///
  /// - Complexity: O(rows).
  /// - Precondition: the log passes `LoggedDecisions.checkConsistency()`.
  package static func likeliest(_ decisions: LoggedDecisions, _ preferences: UserPreferences)
    -> [Int]
  {
    let scores = finalScores(decisions, preferences)
    return (0..<decisions.count).map {
      SelectionPolicy.argmax(Array(scores[decisions.rows(of: $0)]))
    }
  }
}
