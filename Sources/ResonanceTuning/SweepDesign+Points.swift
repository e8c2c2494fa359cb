import ResonanceLinear
import ResonanceModel

/// The points of a design (`docs/tuning.md`, "The design"): GSL's Sobol sequence (through
/// ResonanceLinear), seeded uniform draws or the grid, each mapped onto the simplex of the
/// five ranking weights × the square of the two penalties.
extension SweepDesign {
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
