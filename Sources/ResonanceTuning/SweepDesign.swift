import ResonanceLinear
import ResonanceModel

/// The preference vectors a sweep evaluates (`docs/tuning.md`, "The design").
///
/// Every point keeps the five ranking weights on the simplex (they sum to 1, as the app's
/// defaults do) and gives each penalty strength a value in 0 … 0.5. The softmax's temperature
/// is fixed, so multiplying every weight by c would be the same as dividing the temperature by
/// c: a scaled point is a greedier or more random DJ, not a different taste. Fixing the
/// ranking weights' sum makes the design explore direction only.
package struct SweepDesign: Sendable, Equatable {
  package enum Kind: String, Sendable, Equatable, CaseIterable {
    /// A Sobol sequence (GSL's), mapped onto the simplex × the penalty square.
    case sobol
    /// Every ranking-weight vector on the simplex with the step, × every penalty pair on the
    /// same step from 0 to 0.5.
    case grid
    /// Points drawn uniformly on the simplex × the penalty square (seeded).
    case random
  }

  /// The largest penalty strength the design explores.
  package static let maximumPenalty = 0.5

  package var kind: Kind
  /// Points of a Sobol or random design.
  package var points: Int
  /// The grid's step (1/step a whole number).
  package var step: Double
  /// The random design's seed.
  package var seed: UInt64

  package init(kind: Kind, points: Int = 1024, step: Double = 0.1, seed: UInt64 = 1) {
    self.kind = kind
    self.points = points
    self.step = step
    self.seed = seed
  }

  /// How many points the design has.
  package var count: Int {
    switch kind {
    case .sobol, .random: return points
    case .grid:
      let n = Int((1 / step).rounded())
      let simplex = (n + 1) * (n + 2) * (n + 3) * (n + 4) / 24
      let penalties = Int((Self.maximumPenalty / step).rounded(.down)) + 1
      return simplex * penalties * penalties
    }
  }

  /// The design's weight vectors, in a fixed order (the same on every run).
  package func weights() -> [ScoringWeights] {
    switch kind {
    case .sobol: return sobol()
    case .random: return random()
    case .grid: return grid()
    }
  }

  /// A point of the unit cube [0, 1)⁶ as weights: the first four coordinates, sorted, cut
  /// the unit interval into the five ranking weights (uniform on the simplex when the
  /// coordinates are uniform); the last two scaled to the penalty range.
  package static func weights(unitCube u: [Double]) -> ScoringWeights {
    precondition(u.count == 6, "six coordinates")
    let cuts = u[0..<4].sorted()
    return ScoringWeights(
      bpm: cuts[0], energy: cuts[1] - cuts[0], familiarity: cuts[2] - cuts[1],
      historical: cuts[3] - cuts[2], context: 1 - cuts[3],
      recency: maximumPenalty * u[4], timeOfDay: maximumPenalty * u[5])
  }

  private func sobol() -> [ScoringWeights] {
    Sobol.points(points, dimensions: 6).map(Self.weights(unitCube:))
  }

  private func random() -> [ScoringWeights] {
    var rng = SplitMix64(seed: seed, stream: "sweep-design")
    return (0..<points).map { _ in Self.weights(unitCube: (0..<6).map { _ in rng.uniform() }) }
  }

  private func grid() -> [ScoringWeights] {
    let n = Int((1 / step).rounded())
    let penaltySteps = Int((Self.maximumPenalty / step).rounded(.down))
    var result: [ScoringWeights] = []
    result.reserveCapacity(count)
    for a in 0...n {
      for b in 0...(n - a) {
        for c in 0...(n - a - b) {
          for d in 0...(n - a - b - c) {
            let e = n - a - b - c - d
            for i in 0...penaltySteps {
              for j in 0...penaltySteps {
                result.append(
                  ScoringWeights(
                    bpm: Double(a) / Double(n), energy: Double(b) / Double(n),
                    familiarity: Double(c) / Double(n), historical: Double(d) / Double(n),
                    context: Double(e) / Double(n), recency: Double(i) * step,
                    timeOfDay: Double(j) * step))
              }
            }
          }
        }
      }
    }
    return result
  }
}
