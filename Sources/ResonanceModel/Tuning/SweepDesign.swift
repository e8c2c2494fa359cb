/// The preference vectors a sweep evaluates (`docs/tuning.md`, "The design"): a kind and the
/// parameters that size it. ResonanceTuning generates the points.
///
/// Every point keeps the five ranking weights on the simplex (they sum to 1, as the app's
/// defaults do) and gives each penalty strength a value in 0 … 0.5. The softmax's temperature
/// is fixed, so multiplying every weight by c would be the same as dividing the temperature by
/// c: a scaled point is a greedier or more random DJ, not a different taste. Fixing the
/// ranking weights' sum makes the design explore direction only.
///
/// A kind reads only its own parameters: Sobol `points`, random `points` and `seed`, the grid
/// `step`.
package struct SweepDesign: Sendable, Equatable {
  /// How the points are laid out; the raw values are the spellings of `--design`.
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

  /// How the points are laid out.
  package var kind: Kind
  /// Points of a Sobol or random design.
  package var points: Int
  /// The grid's step (1/step a whole number).
  package var step: Double
  /// The random design's seed.
  package var seed: UInt64

  /// A design of `kind`; the parameters the kind does not read keep their defaults.
  package init(kind: Kind, points: Int = 1024, step: Double = 0.1, seed: UInt64 = 1) {
    self.kind = kind
    self.points = points
    self.step = step
    self.seed = seed
  }

  /// How many points the design has: `points`, or for the grid
  /// C(1/step + 4, 4) × (⌊0.5/step⌋ + 1)².
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
}
