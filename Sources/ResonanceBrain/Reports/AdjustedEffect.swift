import ResonanceLinear
import ResonanceModel

extension ReportStatistics {
  /// The coefficient of `treated` in y ~ 1 + treated + covariates by ordinary least squares
  /// (LAPACK), with its standard error and the Student-t quantile of a two-sided 90% interval
  /// on the residual degrees of freedom. A covariate that does not vary over the rows is left
  /// out; nil when the rows leave fewer than two residual degrees of freedom or the fit is
  /// singular.
  package static func adjustedEffect(
    _ rows: [(treated: Bool, covariates: [Double], y: Double)]
  ) -> (estimate: Double, se: Double, t90: Double)? {
    guard let width = rows.first?.covariates.count else { return nil }
    let kept = (0..<width).filter { k in Set(rows.map { $0.covariates[k] }).count > 1 }
    let parameters = kept.count + 2
    guard rows.count >= parameters + 2 else { return nil }
    let x = Matrix(rows.map { row in [row.treated ? 1 : 0] + kept.map { row.covariates[$0] } })
    guard let fit = try? RidgeRegression.fit(X: x, y: rows.map(\.y), lambda: 0),
      fit.standardErrors[1].isFinite
    else { return nil }
    let t90 = StudentDistribution.quantile(
      0.95, degreesOfFreedom: Double(rows.count - parameters))
    return (fit.coefficients[0], fit.standardErrors[1], t90)
  }
}
