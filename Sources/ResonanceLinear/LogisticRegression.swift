import Foundation

/// A penalised logistic regression's answer: the coefficients on the log-odds scale.
package struct LogisticFit: Sendable, Equatable {
  /// The unpenalised intercept.
  package var intercept: Double
  /// One per column of X, in X's column order.
  package var coefficients: [Double]
  /// Newton steps taken before the coefficients settled.
  package var iterations: Int

  /// The fitted log-odds for one row of predictors.
  package func logOdds(_ x: [Double]) -> Double {
    precondition(x.count == coefficients.count, "one value per coefficient")
    var eta = intercept
    for (a, b) in zip(x, coefficients) { eta += a * b }
    return eta
  }

  /// The fitted probability for one row of predictors, 1 / (1 + e^(−logOdds)).
  package func probability(_ x: [Double]) -> Double { 1 / (1 + exp(-logOdds(x))) }
}

/// Logistic regression with a ridge penalty, fitted by iteratively reweighted least squares.
///
/// Maximises Σᵢ [yᵢ·ηᵢ − log(1 + e^ηᵢ)] − ½·λ·Σⱼ βⱼ², with ηᵢ = b₀ + xᵢ·β, y ∈ {0, 1} and the
/// intercept b₀ never penalised. Each Newton step is the weighted ridge regression
/// (`RidgeRegression`) of the working response zᵢ = ηᵢ + (yᵢ − μᵢ)/wᵢ on X with weights
/// wᵢ = μᵢ(1 − μᵢ), μᵢ = 1/(1 + e^−ηᵢ) — the penalised Fisher scoring update, exact for the
/// logistic link. The penalty keeps the fit finite when a class is separated (a column that
/// predicts y perfectly, or a y that is all 0 or all 1), where the unpenalised maximum lies
/// at infinity; y of one class alone has no finite intercept and is refused.
package enum LogisticRegression {
  /// Newton steps at most; the fits here settle in well under ten.
  package static let maximumIterations = 50
  /// The fit has settled when no parameter moves by more than this between steps.
  package static let tolerance = 1e-10
  /// Working weights are kept at or above this, so that a row the fit predicts with
  /// certainty still enters the least-squares step.
  private static let minimumWeight = 1e-10

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The fit of `y` (each 0 or 1) on the columns of X with penalty `lambda` on every
  /// coefficient (the label keeps the design matrix's conventional capital).
  ///
  /// - Complexity: O(iterations·n·p²).
  /// - Throws: `LinearAlgebraError` for sizes that do not fit, a y other than 0 or 1 or of
  ///   one class only, or a Newton system singular to working precision (possible only with
  ///   λ = 0).
  package static func fit(X x: Matrix, y: [Double], lambda: Double) throws(LinearAlgebraError)
    -> LogisticFit
  {
    guard y.count == x.rows else {
      throw .dimensionMismatch("X has \(x.rows) rows but y has \(y.count)")
    }
    guard y.allSatisfy({ $0 == 0 || $0 == 1 }) else {
      throw .invalidInput("a logistic regression's y is 0 or 1")
    }
    guard y.contains(0), y.contains(1) else {
      throw .invalidInput("a logistic regression needs both a 0 and a 1 (the intercept is free)")
    }
    let n = x.rows
    let p = x.columns
    var intercept = 0.0
    var beta = [Double](repeating: 0, count: p)
    var iterations = 0
    while iterations < maximumIterations {
      iterations += 1
      var z = [Double](repeating: 0, count: n)
      var w = [Double](repeating: 0, count: n)
      for i in 0..<n {
        var eta = intercept
        for j in 0..<p { eta += x[i, j] * beta[j] }
        let mu = 1 / (1 + exp(-eta))
        w[i] = max(mu * (1 - mu), minimumWeight)
        z[i] = eta + (y[i] - mu) / w[i]
      }
      let step = try RidgeRegression.fit(X: x, y: z, lambda: lambda, weights: w, noiseVariance: 1)
      let next = step.intercept ?? 0
      let moved = zip(step.coefficients, beta).reduce(abs(next - intercept)) {
        max($0, abs($1.0 - $1.1))
      }
      intercept = next
      beta = step.coefficients
      if moved <= tolerance { break }
    }
    return LogisticFit(intercept: intercept, coefficients: beta, iterations: iterations)
  }
}
