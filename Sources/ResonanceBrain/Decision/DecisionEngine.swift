import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One candidate after the guard filters and the scorer: its components, scores, and the
/// probability the policy gives it.
package struct ScoredCandidate: Sendable, Equatable {
  /// Index into the candidate list the engine was given.
  package var index: Int
  package var components: ScoringComponents
  package var baseScore: Double
  /// After the transition blend.
  package var finalScore: Double
  /// Probability of being chosen under the logging policy; sums to 1 over the admitted.
  package var propensity: Double
}

/// How a choice is made from the scored candidates, with the randomisation logged so that
/// offline evaluation has support for alternatives.
package enum SelectionPolicy: Sendable, Equatable {
  /// Greedy: the highest score, the first of equals.
  case greedy
  /// Probability ∝ exp(score / temperature).
  case softmax(temperature: Double)
  /// The best with probability 1 − ε, otherwise uniformly any admitted candidate.
  case epsilonGreedy(epsilon: Double)

  /// The choice probabilities for `scores`, in the same order.
  package func propensities(_ scores: [Double]) -> [Double] {
    guard !scores.isEmpty else { return [] }
    let best = SelectionPolicy.argmax(scores)
    switch self {
    case .greedy:
      return scores.indices.map { $0 == best ? 1 : 0 }
    case .softmax(let temperature):
      let top = scores[best]
      let weights = scores.map { exp(($0 - top) / temperature) }
      let total = weights.reduce(0, +)
      return weights.map { $0 / total }
    case .epsilonGreedy(let epsilon):
      let share = epsilon / Double(scores.count)
      return scores.indices.map { $0 == best ? 1 - epsilon + share : share }
    }
  }

  /// Index of the first maximum: the app's tie-break.
  package static func argmax(_ scores: [Double]) -> Int {
    var best = 0
    for i in scores.indices where scores[i] > scores[best] { best = i }
    return best
  }
}

/// The seed app's decision engine: guard filters, the seven-component scorer, the transition
/// blend, and a logged selection policy.
package enum DecisionEngine {
  /// Scores every candidate that passes the guard filters under the app's settings
  /// (`preferences`) and the adjuster's state. When the filters reject every candidate, all
  /// are scored (the app would rather repeat itself than fall silent).
  ///
  /// - Returns: the admitted candidates with components, scores and propensities, in the
  ///   order given.
  package static func score(
    _ candidates: [Candidate], at moment: DecisionMoment, preferences: UserPreferences,
    adjuster: AdjusterState = AdjusterState()
  ) -> [ScoredCandidate] {
    score(
      candidates, at: moment, preferences: preferences, adjuster: adjuster,
      weights: SongScorer.weights(preferences, adjuster: adjuster),
      policy: SelectionPolicy(preferences.policy))
  }

  /// Scores with the default rules and settings except the given weights and policy (how the
  /// simulated person chooses by their own taste).
  package static func score(
    _ candidates: [Candidate], at moment: DecisionMoment, weights: ScoringWeights,
    policy: SelectionPolicy
  ) -> [ScoredCandidate] {
    score(
      candidates, at: moment, preferences: .appDefault, adjuster: AdjusterState(),
      weights: weights, policy: policy)
  }

  private static func score(
    _ candidates: [Candidate], at moment: DecisionMoment, preferences: UserPreferences,
    adjuster: AdjusterState, weights: ScoringWeights, policy: SelectionPolicy
  ) -> [ScoredCandidate] {
    var admitted = candidates.indices.filter {
      GuardFilters.rejection(
        of: candidates[$0], at: moment, preferences: preferences, adjuster: adjuster) == nil
    }
    if admitted.isEmpty { admitted = Array(candidates.indices) }
    var scored = admitted.map { index -> ScoredCandidate in
      let candidate = candidates[index]
      let components = SongScorer.components(
        for: candidate, at: moment, preferences: preferences)
      let base = SongScorer.baseScore(components, weights: weights)
      let final = TransitionController.finalScore(
        base: base, next: candidate.features, previous: moment.previous)
      return ScoredCandidate(
        index: index, components: components, baseScore: base, finalScore: final, propensity: 0)
    }
    let propensities = policy.propensities(scored.map(\.finalScore))
    for i in scored.indices { scored[i].propensity = propensities[i] }
    return scored
  }

  /// Picks one of `scored` by its propensities, given a uniform draw `u` in [0, 1).
  package static func choose(_ scored: [ScoredCandidate], uniform u: Double) -> Int {
    var cumulative = 0.0
    for (i, candidate) in scored.enumerated() {
      cumulative += candidate.propensity
      if u < cumulative { return i }
    }
    return scored.count - 1
  }
}

extension SelectionPolicy {
  /// The policy a `LoggingPolicy` (the settings' form) names.
  package init(_ policy: LoggingPolicy) {
    switch policy.kind {
    case .greedy: self = .greedy
    case .softmax: self = .softmax(temperature: policy.temperature)
    case .epsilonGreedy: self = .epsilonGreedy(epsilon: policy.epsilon)
    }
  }
}
