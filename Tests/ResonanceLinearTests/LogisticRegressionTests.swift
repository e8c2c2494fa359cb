import Foundation
import Testing

@testable import ResonanceLinear

@Suite("Logistic regression (IRLS over the ridge solver)")
struct LogisticRegressionTests {
  private static func logit(_ p: Double) -> Double { log(p / (1 - p)) }

  @Test("unpenalised with one binary column: the intercept is each group's log-odds")
  func groupLogOdds() throws {
    // Group 0: 3 of 10 are 1 (p = 0.3); group 1: 6 of 8 (p = 0.75). The maximum-likelihood
    // fit reproduces each group's share: b0 = logit(0.3), b1 = logit(0.75) − logit(0.3).
    let column = [Double](repeating: 0, count: 10) + [Double](repeating: 1, count: 8)
    let y: [Double] = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0] + [1, 1, 1, 1, 1, 1, 0, 0]
    let fit = try LogisticRegression.fit(
      X: Matrix(rows: 18, columns: 1, elements: column), y: y, lambda: 0)
    #expect(abs(fit.intercept - Self.logit(0.3)) < 1e-9)
    #expect(abs(fit.coefficients[0] - (Self.logit(0.75) - Self.logit(0.3))) < 1e-9)
    #expect(abs(fit.probability([1]) - 0.75) < 1e-9)
    #expect(fit.iterations < LogisticRegression.maximumIterations)
  }

  @Test("penalised: the score equations of ½λΣβ² hold at the fit, the intercept free")
  func penalisedScore() throws {
    let rows: [[Double]] = [
      [0.1, 2], [0.5, 1], [0.9, 0], [1.3, 1], [1.7, 3], [2.1, 0], [2.5, 2], [2.9, 1],
      [3.3, 0], [3.7, 2],
    ]
    let y: [Double] = [0, 0, 1, 0, 1, 0, 1, 1, 0, 1]
    let lambda = 0.7
    let x = Matrix(rows)
    let fit = try LogisticRegression.fit(X: x, y: y, lambda: lambda)
    // ∂/∂b0: Σ (y − μ) = 0; ∂/∂βj: Σ x_ij (y − μ) − λ βj = 0.
    let residuals = rows.indices.map { y[$0] - fit.probability(rows[$0]) }
    #expect(abs(residuals.reduce(0, +)) < 1e-9)
    for j in 0..<2 {
      let score = rows.indices.reduce(0.0) { $0 + rows[$1][j] * residuals[$1] }
      #expect(abs(score - lambda * fit.coefficients[j]) < 1e-9)
    }
  }

  @Test("a column that separates the classes stays finite under a penalty")
  func separation() throws {
    // x = 1 is always 1: unpenalised, its coefficient runs to infinity; the penalty keeps it
    // finite, and the score equation of the free intercept still holds.
    let x = Matrix(rows: 8, columns: 1, elements: [0, 0, 0, 0, 1, 1, 1, 1])
    let fit = try LogisticRegression.fit(X: x, y: [0, 1, 0, 0, 1, 1, 1, 1], lambda: 1)

    #expect(fit.intercept.isFinite && fit.coefficients[0].isFinite)
    #expect(fit.coefficients[0] > 0)
    let y: [Double] = [0, 1, 0, 0, 1, 1, 1, 1]
    let residual = (0..<8).reduce(0.0) { $0 + y[$1] - fit.probability([x[$1, 0]]) }
    #expect(abs(residual) < 1e-9)
    #expect(fit.iterations < LogisticRegression.maximumIterations)
  }

  @Test("a y other than 0 or 1, or of one class only, is refused")
  func refusesOtherLabels() {
    #expect(throws: LinearAlgebraError.self) {
      try LogisticRegression.fit(X: Matrix([[1], [2]]), y: [0, 0.5], lambda: 1)
    }
    // The intercept is not penalised, so one class alone has no finite fit.
    #expect(throws: LinearAlgebraError.self) {
      try LogisticRegression.fit(X: Matrix([[1], [2]]), y: [1, 1], lambda: 1)
    }
  }
}
