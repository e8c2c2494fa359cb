/// Why a linear-algebra routine could not give an answer.
package enum LinearAlgebraError: Error, Equatable, Sendable {
  /// Inputs whose sizes do not fit together (the message says which).
  case dimensionMismatch(String)
  /// A value outside what the routine accepts: not finite, a negative penalty or weight.
  case invalidInput(String)
  /// The system is singular to working precision: not positive definite, or its reciprocal
  /// condition number (LAPACK's `dpocon` estimate, 1-norm) is at or below
  /// `RidgeRegression.minimumReciprocalCondition`.
  case singular(reciprocalCondition: Double)
  /// σ² was to be estimated from the residuals, but the fit uses up every observation
  /// (n − effective parameters ≤ 0).
  case noResidualDegreesOfFreedom
}

/// A ridge regression's answer: the coefficients, their covariance, and the fit's bookkeeping.
package struct RidgeFit: Sendable, Equatable {
  /// The unpenalised intercept; `nil` when the fit had none.
  package var intercept: Double?
  /// One per column of X, in X's column order.
  package var coefficients: [Double]
  /// σ²·(DᵀWD + Λ)⁻¹ over `parameters` (the intercept first, when fitted): the posterior
  /// covariance of the parameters under the Gaussian prior the penalty stands for.
  package var covariance: Matrix
  /// The σ² in `covariance`: the one given, or the residual estimate Σwᵢrᵢ² / (n − df).
  package var noiseVariance: Double
  /// df = tr(H), the hat matrix's trace: the parameter count when nothing is penalised, falling
  /// towards the unpenalised count as the penalty grows.
  package var effectiveParameters: Double
  /// Σ wᵢ (yᵢ − ŷᵢ)².
  package var residualSumOfSquares: Double
  /// Observations with a positive weight.
  package var observations: Int

  /// The intercept (when fitted) followed by the coefficients: `covariance`'s order.
  package var parameters: [Double] {
    (intercept.map { [$0] } ?? []) + coefficients
  }

  /// √diag(covariance), in `parameters`' order.
  package var standardErrors: [Double] {
    covariance.diagonal.map { $0.squareRoot() }
  }

  /// The fitted value for one row of predictors.
  package func predict(_ x: [Double]) -> Double {
    precondition(x.count == coefficients.count, "predict needs one value per coefficient")
    return zip(x, coefficients).reduce(intercept ?? 0) { $0 + $1.0 * $1.1 }
  }
}

/// Ridge (Tikhonov) regression, solved through LAPACK.
///
/// Minimises Σᵢ wᵢ (yᵢ − b₀ − xᵢ·β)² + Σⱼ λⱼ (βⱼ − tⱼ)², where
/// - `b₀` is the **intercept, never penalised** (fitted when `intercept` is true by adding a
///   column of ones to X with penalty 0; nothing is centred or scaled, so the coefficients are
///   in X's own units and the penalty acts on them as given);
/// - `λⱼ` is the penalty of column j (one λ for all, or one per column);
/// - `tⱼ` is the shrinkage target (0 unless given): a huge λ returns the target, λ = 0 is
///   (weighted) ordinary least squares;
/// - `wᵢ` are precision weights (observation i has variance σ²/wᵢ), 1 unless given.
///
/// With D = [1 | X] (or X), W = diag(w), Λ = diag(0, λ…) the normal equations are
/// (DᵀWD + Λ) b = DᵀWy + Λt, solved by Cholesky (`dpotrf`, `dpotrs`) after a condition check
/// (`dpocon`); DᵀWD comes from BLAS `dgemm`. The same factorisation gives (DᵀWD + Λ)⁻¹, and the
/// covariance σ²·(DᵀWD + Λ)⁻¹ is the posterior covariance of b when the penalty is read as the
/// prior βⱼ ~ N(tⱼ, σ²/λⱼ) — how callers turn a fit into an uncertainty. σ² is the caller's
/// (`noiseVariance`) or estimated as Σwᵢrᵢ² / (n − df), df = tr(H) = q − Σⱼ λⱼ·[(DᵀWD + Λ)⁻¹]ⱼⱼ.
package enum RidgeRegression {
  /// Below this reciprocal condition number of DᵀWD + Λ the system counts as singular: ten
  /// units of round-off, where MATLAB starts warning at one.
  package static let minimumReciprocalCondition = 10 * Double.ulpOfOne

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The fit with one penalty `lambda` for every column of X (the label keeps the design
  /// matrix's conventional capital).
  package static func fit(
    X x: Matrix, y: [Double], lambda: Double, weights: [Double]? = nil,
    intercept: Bool = true, target: [Double]? = nil, noiseVariance: Double? = nil
  ) throws(LinearAlgebraError) -> RidgeFit {
    guard lambda.isFinite, lambda >= 0 else {
      throw .invalidInput("lambda must be finite and ≥ 0, not \(lambda)")
    }
    return try fit(
      X: x, y: y, penalties: .init(repeating: lambda, count: x.columns), weights: weights,
      intercept: intercept, target: target, noiseVariance: noiseVariance)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The fit with penalty `penalties[j]` on column j of X.
  package static func fit(
    X x: Matrix, y: [Double], penalties: [Double], weights: [Double]? = nil,
    intercept: Bool = true, target: [Double]? = nil, noiseVariance: Double? = nil
  ) throws(LinearAlgebraError) -> RidgeFit {
    let n = x.rows
    let p = x.columns
    let q = p + (intercept ? 1 : 0)
    let w = weights ?? .init(repeating: 1, count: n)
    let t = target ?? .init(repeating: 0, count: p)
    guard y.count == n else { throw .dimensionMismatch("X has \(n) rows but y has \(y.count)") }
    guard w.count == n else {
      throw .dimensionMismatch("X has \(n) rows but there are \(w.count) weights")
    }
    guard penalties.count == p else {
      throw .dimensionMismatch("X has \(p) columns but there are \(penalties.count) penalties")
    }
    guard t.count == p else {
      throw .dimensionMismatch("X has \(p) columns but the target has \(t.count) values")
    }
    guard q > 0 else { throw .dimensionMismatch("nothing to fit: no columns and no intercept") }
    guard x.elements.allSatisfy(\.isFinite), y.allSatisfy(\.isFinite), t.allSatisfy(\.isFinite)
    else { throw .invalidInput("X, y and the target must be finite") }
    guard w.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw .invalidInput("weights must be finite and ≥ 0")
    }
    guard penalties.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw .invalidInput("penalties must be finite and ≥ 0")
    }
    if let s2 = noiseVariance, !(s2.isFinite && s2 >= 0) {
      throw .invalidInput("noiseVariance must be finite and ≥ 0, not \(s2)")
    }

    // D = [1 | X] and its rows scaled by √wᵢ, so that DwᵀDw = DᵀWD and Dwᵀyw = DᵀWy.
    var design = Matrix(rows: n, columns: q)
    var weighted = Matrix(rows: n, columns: q)
    var yWeighted = [Double](repeating: 0, count: n)
    for i in 0..<n {
      let root = w[i].squareRoot()
      for j in 0..<q {
        let value = intercept ? (j == 0 ? 1 : x[i, j - 1]) : x[i, j]
        design[i, j] = value
        weighted[i, j] = value * root
      }
      yWeighted[i] = y[i] * root
    }
    let lambdas = (intercept ? [0] : []) + penalties
    let targets = (intercept ? [0] : []) + t

    let gram = Matrix.gemm(weighted, weighted, transposeA: true)
    let moment = Matrix.gemm(weighted, .column(yWeighted), transposeA: true)
    return try solve(
      gram: gram, moment: moment.elements, lambdas: lambdas, targets: targets,
      intercept: intercept, noiseVariance: noiseVariance,
      observations: w.filter { $0 > 0 }.count
    ) { b in
      let fitted = Matrix.gemm(design, .column(b))
      var rss = 0.0
      for i in 0..<n {
        let r = y[i] - fitted[i, 0]
        rss += w[i] * r * r
      }
      return rss
    }
  }

  /// The fit from the normal equations' sums alone, for fits of many unions of the same
  /// blocks of observations (a model per month, fitted on the others): `gram` DᵀWD and
  /// `moment` DᵀWy of D = [1 | X] (X alone without the intercept), `squares` yᵀWy and the
  /// observations with a positive weight, each block's added up. The same fit as
  /// `fit(X:y:lambda:)` on the observations themselves, up to the rounding of the sums; the
  /// residual sum of squares, yᵀWy − 2b·DᵀWy + bᵀDᵀWDb, loses digits when the fit is close.
  package static func fit(
    gram: Matrix, moment: [Double], squares: Double, observations: Int, lambda: Double,
    intercept: Bool = true, noiseVariance: Double? = nil
  ) throws(LinearAlgebraError) -> RidgeFit {
    let q = gram.rows
    guard gram.columns == q, moment.count == q else {
      throw .dimensionMismatch(
        "the Gram matrix is \(gram.rows)×\(gram.columns), the moment \(moment.count)")
    }
    guard lambda.isFinite, lambda >= 0 else {
      throw .invalidInput("lambda must be finite and ≥ 0, not \(lambda)")
    }
    guard gram.elements.allSatisfy(\.isFinite), moment.allSatisfy(\.isFinite), squares.isFinite
    else { throw .invalidInput("the sums must be finite") }
    let lambdas =
      (intercept ? [0] : []) + [Double](repeating: lambda, count: q - (intercept ? 1 : 0))
    return try solve(
      gram: gram, moment: moment, lambdas: lambdas, targets: .init(repeating: 0, count: q),
      intercept: intercept, noiseVariance: noiseVariance, observations: observations
    ) { b in
      var quadratic = 0.0
      for i in 0..<q {
        var row = 0.0
        for j in 0..<q { row += gram[i, j] * b[j] }
        quadratic += b[i] * row
      }
      return max(0, squares - 2 * zip(b, moment).reduce(0) { $0 + $1.0 * $1.1 } + quadratic)
    }
  }

  /// Solves (G + Λ) b = m + Λt for the coefficients and the inverse, and makes the fit, with
  /// `residuals(b)` the weighted residual sum of squares of coefficients b.
  private static func solve(
    gram: Matrix, moment: [Double], lambdas: [Double], targets: [Double], intercept: Bool,
    noiseVariance: Double?, observations: Int, residuals: ([Double]) -> Double
  ) throws(LinearAlgebraError) -> RidgeFit {
    let q = gram.rows
    var gram = gram
    for j in 0..<q { gram[j, j] += lambdas[j] }

    // Right-hand sides, column-major q×(1+q): [DᵀWy + Λt | I], so one solve gives b and the
    // inverse.
    var rhs = [Double](repeating: 0, count: q * (1 + q))
    for j in 0..<q {
      rhs[j] = moment[j] + lambdas[j] * targets[j]
      rhs[(1 + j) * q + j] = 1
    }
    let solution = try LAPACK.solvePositiveDefinite(
      gram.elements, n: q, rhs, nrhs: 1 + q,
      minimumReciprocalCondition: minimumReciprocalCondition)
    let b = Array(solution[0..<q])
    var inverse = Matrix(rows: q, columns: q)
    for i in 0..<q {
      for j in 0..<q {
        // Symmetric in exact arithmetic; averaging removes round-off asymmetry.
        inverse[i, j] = (solution[(1 + j) * q + i] + solution[(1 + i) * q + j]) / 2
      }
    }

    let rss = residuals(b)
    let df = Double(q) - (0..<q).reduce(0.0) { $0 + lambdas[$1] * inverse[$1, $1] }

    let sigma2: Double
    if let given = noiseVariance {
      sigma2 = given
    } else {
      let residualDF = Double(observations) - df
      guard residualDF > 1e-9 else { throw .noResidualDegreesOfFreedom }
      sigma2 = rss / residualDF
    }
    let covariance = Matrix(rows: q, columns: q, elements: inverse.elements.map { $0 * sigma2 })

    return RidgeFit(
      intercept: intercept ? b[0] : nil, coefficients: Array(b[(intercept ? 1 : 0)...]),
      covariance: covariance, noiseVariance: sigma2, effectiveParameters: df,
      residualSumOfSquares: rss, observations: observations)
  }
}
