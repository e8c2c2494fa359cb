import Testing

@testable import ResonanceLinear

// The data every numpy reference below was computed from (numpy 2.4.6, /tmp/np venv):
//   X = np.array([[1,2],[2,1],[3,4],[4,3],[5,6],[6,5],[7,9],[8,7]], float)
//   y = np.array([3.1, 3.9, 7.2, 7.8, 11.1, 12.2, 15.8, 16.1])
//   w = np.array([1, 2, 1, 0.5, 1, 1.5, 1, 2], float)
//   D = np.column_stack([np.ones(8), X])
private let x = Matrix([[1, 2], [2, 1], [3, 4], [4, 3], [5, 6], [6, 5], [7, 9], [8, 7]])
private let y = [3.1, 3.9, 7.2, 7.8, 11.1, 12.2, 15.8, 16.1]
private let w = [1, 2, 1, 0.5, 1, 1.5, 1, 2]

/// Whether `body` throws `LinearAlgebraError.singular`.
private func throwsSingular(_ body: () throws(LinearAlgebraError) -> RidgeFit) -> Bool {
  do {
    _ = try body()
    return false
  } catch {
    if case .singular = error { return true }
    return false
  }
}

private func close(_ a: [Double], _ b: [Double], tolerance: Double = 1e-12) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
}

@Suite("Matrix and gemm (OpenBLAS)")
struct MatrixTests {
  @Test("row-major storage, transpose and identity")
  func layout() {
    let m = Matrix([[1, 2, 3], [4, 5, 6]])
    #expect(m.elements == [1, 2, 3, 4, 5, 6])
    #expect(m[1, 0] == 4 && m.row(1) == [4, 5, 6] && m.column(2) == [3, 6])
    #expect(m.transposed == Matrix([[1, 4], [2, 5], [3, 6]]))
    #expect(Matrix.identity(2) == Matrix([[1, 0], [0, 1]]))
  }

  @Test("gemm multiplies, with and without transposes")
  func gemm() {
    let a = Matrix([[1, 2, 3], [4, 5, 6]])
    let b = Matrix([[7, 8], [9, 10], [11, 12]])
    #expect(a * b == Matrix([[58, 64], [139, 154]]))
    #expect(
      Matrix.gemm(a, a, transposeA: true) == Matrix([[17, 22, 27], [22, 29, 36], [27, 36, 45]]))
    #expect(Matrix.gemm(a, a, transposeB: true, alpha: 2) == Matrix([[28, 64], [64, 154]]))
    #expect(Matrix.gemm(b, a, transposeA: true, transposeB: true) == (a * b).transposed)
    #expect(
      Matrix.gemm(Matrix(rows: 2, columns: 0), Matrix(rows: 0, columns: 3))
        == Matrix(rows: 2, columns: 3))
  }

  @Test("OpenBLAS runs single-threaded whatever OPENBLAS_NUM_THREADS says")
  func singleThreaded() {
    _ = Matrix.identity(3) * Matrix.identity(3)
    #expect(BLAS.threadCount == 1)
  }
}

@Suite("Ridge regression (LAPACK Cholesky)")
struct RidgeTests {
  @Test("weighted ridge with an unpenalised intercept matches numpy")
  func numpyWeighted() throws {
    // L = np.diag([0, 0.5, 0.5]); A = D.T @ (w[:, None] * D) + L
    // b = np.linalg.solve(A, D.T @ (w * y)); inv = np.linalg.inv(A)
    // rss = np.sum(w * (y - D @ b)**2); df = 3 - np.trace(L @ inv); s2 = rss / (8 - df)
    // cov = s2 * inv
    let fit = try RidgeRegression.fit(X: x, y: y, lambda: 0.5, weights: w)
    #expect(close(fit.parameters, [0.4996970776906563, 1.415597529104301, 0.6058683772867672]))
    #expect(
      close(
        fit.covariance.elements,
        [
          0.00786751620164991, -0.00107899101857668, -0.00023707408295487,
          -0.00107899101857667, 0.00137584019082359, -0.00117118649528135,
          -0.00023707408295488, -0.00117118649528135, 0.00124818491538635,
        ], tolerance: 1e-10))
    #expect(abs(fit.effectiveParameters - 2.9230814920408648) < 1e-12)
    #expect(abs(fit.noiseVariance - 0.017057176327471228) < 1e-12)
    #expect(abs(fit.residualSumOfSquares - 0.0865978941904611) < 1e-12)
    #expect(fit.observations == 8)
    #expect(close(fit.standardErrors, fit.covariance.diagonal.map { $0.squareRoot() }))
  }

  @Test("per-column penalties, a target and a given σ² match numpy")
  func numpyTarget() throws {
    // L = np.diag([0.5, 2.0]); t = np.array([1.0, 1.0]); A = X.T @ X + L
    // b = np.linalg.solve(A, X.T @ y + L @ t); cov = 4 * np.linalg.inv(A)
    let fit = try RidgeRegression.fit(
      X: x, y: y, penalties: [0.5, 2], intercept: false, target: [1, 1], noiseVariance: 4)
    #expect(fit.intercept == nil)
    #expect(close(fit.coefficients, [1.4214194953712058, 0.6841532038482533]))
    #expect(
      close(
        fit.covariance.elements,
        [0.3238337266291525, -0.3005990197858052, -0.3005990197858052, 0.2969685968415322],
        tolerance: 1e-10))
    #expect(fit.noiseVariance == 4)
  }

  @Test("λ = 0 is ordinary least squares")
  func ordinaryLeastSquares() throws {
    // np.linalg.lstsq(D, y, rcond=None)[0]
    let fit = try RidgeRegression.fit(X: x, y: y, lambda: 0)
    #expect(
      close(
        fit.parameters, [0.43910891089108484, 1.4424092409240923, 0.5881188118811882],
        tolerance: 1e-11))
    #expect(abs(fit.effectiveParameters - 3) < 1e-12)
  }

  @Test("a huge λ returns the target; the intercept stays free")
  func hugeLambda() throws {
    let fit = try RidgeRegression.fit(X: x, y: y, lambda: 1e12, target: [2, -1])
    #expect(close(fit.coefficients, [2, -1], tolerance: 1e-9))
    // With β pinned to the target the intercept is the mean of y − X·t.
    let shifted = (0..<x.rows).map { y[$0] - 2 * x[$0, 0] + x[$0, 1] }
    #expect(abs(fit.intercept! - shifted.reduce(0, +) / Double(shifted.count)) < 1e-6)
    #expect(abs(fit.effectiveParameters - 1) < 1e-9)
  }

  @Test("singular systems throw")
  func singular() {
    let duplicated = Matrix((0..<x.rows).map { [x[$0, 0], x[$0, 0]] })
    #expect(
      throwsSingular { () throws(LinearAlgebraError) in
        try RidgeRegression.fit(X: duplicated, y: y, lambda: 0)
      })
    // A constant column is the intercept again.
    let constant = Matrix((0..<x.rows).map { [x[$0, 0], 1] })
    #expect(
      throwsSingular { () throws(LinearAlgebraError) in
        try RidgeRegression.fit(X: constant, y: y, lambda: 0)
      })
    // No observation at all leaves the unpenalised intercept undetermined.
    #expect(
      throwsSingular { () throws(LinearAlgebraError) in
        try RidgeRegression.fit(X: x, y: y, lambda: 1, weights: .init(repeating: 0, count: 8))
      })
    // Any positive penalty makes the duplicated columns solvable.
    #expect((try? RidgeRegression.fit(X: duplicated, y: y, lambda: 0.1)) != nil)
  }

  @Test("bad inputs throw, and an exact fit has no residual degrees of freedom")
  func badInputs() {
    #expect(throws: LinearAlgebraError.dimensionMismatch("X has 8 rows but y has 2")) {
      try RidgeRegression.fit(X: x, y: [1, 2], lambda: 1)
    }
    #expect(throws: LinearAlgebraError.self) {
      try RidgeRegression.fit(X: x, y: y, lambda: -1)
    }
    #expect(throws: LinearAlgebraError.self) {
      try RidgeRegression.fit(X: x, y: y.map { $0 * .nan }, lambda: 1)
    }
    let square = Matrix([[1, 0], [0, 1]])
    #expect(throws: LinearAlgebraError.noResidualDegreesOfFreedom) {
      try RidgeRegression.fit(X: square, y: [1, 2], lambda: 0, intercept: false)
    }
  }
}
