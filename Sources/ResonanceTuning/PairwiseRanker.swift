import ResonanceLinear
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What pairwise learning-to-rank found: the weights under which kept songs outrank the
/// skipped songs of their session, and how well they do so on the pairs they were fitted to.
package struct PairwiseFit: Sendable, Equatable {
  /// β: the logistic coefficient of each component difference (kept − skipped), in
  /// `ScoringWeights`' order; log-odds per unit of the component.
  package var coefficients: [Double]
  /// β as scoring weights: the two penalties (recency, time of day) sign-flipped, since the
  /// scorer subtracts them, and all seven divided by the sum of the first five when that sum
  /// is positive (`isNormalised`), so they read on the app's scale (the five sum to 1).
  package var weights: ScoringWeights
  /// Whether `weights` were divided by the first five's sum (false when it is ≤ 0, and then
  /// `weights` are the sign-flipped coefficients as they are).
  package var isNormalised: Bool
  /// Kept-over-skipped pairs fitted.
  package var pairs: Int
  /// Sessions with at least one pair.
  package var sessions: Int
  /// Share of the pairs, 0 … 1, where the kept song scores strictly higher under β.
  package var pairwiseAccuracy: Double
  /// The pairs' AUC, 0 … 1: ties count a half (within a session, the probability that a kept
  /// play outscores a skipped one).
  package var auc: Double
  /// The mean pairwise log-loss, −mean log σ(β·Δ), in nats (log 2 ≈ 0.693 at β = 0).
  package var logLoss: Double
  /// Newton steps taken.
  package var iterations: Int
  /// Whether the Newton decrement fell below the tolerance within the step limit.
  package var isConverged: Bool

  /// A fit from its parts, as described on each property.
  package init(
    coefficients: [Double], weights: ScoringWeights, isNormalised: Bool, pairs: Int,
    sessions: Int, pairwiseAccuracy: Double, auc: Double, logLoss: Double, iterations: Int,
    isConverged: Bool
  ) {
    self.coefficients = coefficients
    self.weights = weights
    self.isNormalised = isNormalised
    self.pairs = pairs
    self.sessions = sessions
    self.pairwiseAccuracy = pairwiseAccuracy
    self.auc = auc
    self.logLoss = logLoss
    self.iterations = iterations
    self.isConverged = isConverged
  }
}

/// Pairwise learning-to-rank for plays without a decision log (RankNet's loss with a linear
/// scorer; Burges et al. 2005): within each session every kept play is paired with every
/// skipped play, and a logistic regression without intercept on the component differences
/// Δ = c_kept − c_skipped finds β maximising Σ log σ(β·Δ) − ½λ‖β‖².
///
/// The penalty λ (`defaultPenalty`, 1) keeps β finite when the kept and skipped plays separate
/// perfectly, and is small against thousands of pairs. The fit is Newton's method with a
/// backtracking line search: the Hessian ΔᵀSΔ + λI (S = diag σ(1 − σ)) and the gradient come
/// from BLAS `dgemm` (`Matrix.gemm`), the step from a Cholesky solve; it stops when the
/// Newton decrement gᵀH⁻¹g/2 falls below 1e−12 per pair (convex, so a handful of steps).
///
/// Pairs only compare songs heard in the same session, so what differs between sessions
/// (context, mood, time of day) cancels; what does not cancel is the DJ's own choice of what
/// to play, which decided which songs have outcomes at all (the support problem of
/// `../shared/notes/weight-sweeps.md` §3).
package enum PairwiseRanker {
  /// The L2 penalty λ on β when none is given.
  package static let defaultPenalty = 1.0
  /// The most Newton steps taken.
  package static let maximumIterations = 100

  /// The pairs' differences: one row per kept-over-skipped pair, Δ = c_kept − c_skipped (7
  /// columns), sessions in order, and within a session kept plays in order, each against the
  /// skipped plays in order.
  ///
  /// - Complexity: O(Σ kept·skipped) over the sessions.
  package static func pairDifferences(_ plays: PlayOutcomes) -> Matrix {
    var elements = [Double]()
    for s in 0..<plays.count {
      let range = plays.plays(of: s)
      let kept = range.filter { plays.kept[$0] }
      let skipped = range.filter { !plays.kept[$0] }
      for i in kept {
        for j in skipped {
          for k in 0..<7 {
            elements.append(plays.components[7 * i + k] - plays.components[7 * j + k])
          }
        }
      }
    }
    return Matrix(rows: elements.count / 7, columns: 7, elements: elements)
  }

  /// Fits β on every kept-over-skipped pair of `plays`.
  ///
  /// - Complexity: O(iterations · P · 7²) for P pairs.
  /// - Parameters:
  ///   - plays: the sessions' plays; component values must be finite.
  ///   - penalty: λ > 0, the L2 penalty on β.
  /// - Returns: β, the weights it implies, and its fit on the pairs.
  /// - Throws: `TuningError` of kind `noPairs` when no session has both a kept and a skipped
  ///   play, `inconsistentLog` when a component is not finite, `fitFailed` when the Hessian
  ///   cannot be factored.
  package static func fit(_ plays: PlayOutcomes, penalty: Double = defaultPenalty)
    throws(TuningError) -> PairwiseFit
  {
    precondition(penalty > 0 && penalty.isFinite, "the penalty must be finite and > 0")
    guard plays.components.allSatisfy(\.isFinite) else {
      throw TuningError(.inconsistentLog, "play components must be finite")
    }
    let x = pairDifferences(plays)
    let n = x.rows
    guard n > 0 else {
      throw TuningError(.noPairs, "no session has both a kept and a skipped play")
    }
    let sessions = (0..<plays.count).filter { s in
      let range = plays.plays(of: s)
      return range.contains { plays.kept[$0] } && range.contains { !plays.kept[$0] }
    }.count

    var beta = [Double](repeating: 0, count: 7)
    var margins = [Double](repeating: 0, count: n)
    var objective = lossSum(margins)  // β = 0: no penalty yet
    var iterations = 0
    var isConverged = false
    while iterations < maximumIterations {
      // Gradient of the loss to minimise: −Δᵀ(1 − σ) + λβ; Hessian ΔᵀSΔ + λI.
      let residual = margins.map { 1 - sigmoid($0) }
      let scaled = Matrix(
        rows: n, columns: 7,
        elements: (0..<n).flatMap { i -> [Double] in
          let p = sigmoid(margins[i])
          let root = (p * (1 - p)).squareRoot()
          return x.row(i).map { $0 * root }
        })
      var hessian = Matrix.gemm(scaled, scaled, transposeA: true)
      for j in 0..<7 { hessian[j, j] += penalty }
      let xtr = Matrix.gemm(x, .column(residual), transposeA: true)
      let gradient = (0..<7).map { penalty * beta[$0] - xtr[$0, 0] }
      let factor: Cholesky
      do {
        factor = try Cholesky(hessian)
      } catch {
        throw TuningError(.fitFailed, "pairwise Hessian: \(error)")
      }
      let step = factor.solve(gradient)
      let decrement = zip(gradient, step).reduce(0) { $0 + $1.0 * $1.1 } / 2
      if decrement < 1e-12 * Double(n) {
        isConverged = true
        break
      }
      iterations += 1
      // Backtracking (Armijo) on the penalised loss.
      var t = 1.0
      var candidate = beta
      var candidateMargins = margins
      var candidateObjective = objective
      for _ in 0..<60 {
        candidate = (0..<7).map { beta[$0] - t * step[$0] }
        candidateMargins = Matrix.gemm(x, .column(candidate)).elements
        candidateObjective =
          lossSum(candidateMargins) + 0.5 * penalty * candidate.reduce(0) { $0 + $1 * $1 }
        if candidateObjective <= objective - 0.5 * t * decrement { break }
        t /= 2
      }
      beta = candidate
      margins = candidateMargins
      objective = candidateObjective
    }

    let wins = margins.filter { $0 > 0 }.count
    let ties = margins.filter { $0 == 0 }.count
    var vector = beta
    vector[5] = -vector[5]
    vector[6] = -vector[6]
    let matchSum = vector[0..<5].reduce(0, +)
    let isNormalised = matchSum > 0
    if isNormalised { vector = vector.map { $0 / matchSum } }
    return PairwiseFit(
      coefficients: beta, weights: ScoringWeights(vector: vector), isNormalised: isNormalised,
      pairs: n, sessions: sessions, pairwiseAccuracy: Double(wins) / Double(n),
      auc: (Double(wins) + 0.5 * Double(ties)) / Double(n),
      logLoss: lossSum(margins) / Double(n), iterations: iterations, isConverged: isConverged)
  }

  /// σ(m) = 1 / (1 + e^−m), computed without overflow.
  private static func sigmoid(_ m: Double) -> Double {
    m >= 0 ? 1 / (1 + exp(-m)) : exp(m) / (1 + exp(m))
  }

  /// Σ −log σ(mᵢ) = Σ log(1 + e^−mᵢ), computed without overflow.
  private static func lossSum(_ margins: [Double]) -> Double {
    margins.reduce(0) { $0 + ($1 >= 0 ? log1p(exp(-$1)) : -$1 + log1p(exp($1))) }
  }
}
