internal import CBLAS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Cholesky factor L (A = L·Lᵀ) of a symmetric positive definite matrix, by LAPACK
/// `dpotrf`, kept to solve with (`dpotrs`), to invert, and for log |A| — what a Gaussian model's
/// posterior and marginal likelihood need from one factorisation.
package struct Cholesky: Sendable {
  /// n: A is n×n.
  package let order: Int
  /// L in LAPACK's column-major lower triangle (the upper part holds A's leftovers).
  private let factor: [Double]

  /// Factors `matrix`, which must be square and symmetric (only its lower triangle is read).
  ///
  /// - Throws: `LinearAlgebraError.singular` when it is not positive definite.
  package init(_ matrix: Matrix) throws(LinearAlgebraError) {
    guard matrix.rows == matrix.columns, matrix.rows > 0 else {
      throw .dimensionMismatch("Cholesky needs a non-empty square matrix")
    }
    _ = BLAS.singleThreaded
    let n = matrix.rows
    precondition(n <= Int(Int32.max))
    // Row-major and column-major coincide for a symmetric matrix.
    var a = matrix.elements
    var order = Int32(n)
    var info: Int32 = 0
    var uplo = CChar(UInt8(ascii: "L"))
    dpotrf_(&uplo, &order, &a, &order, &info, 1)
    guard info == 0 else {
      if info < 0 { preconditionFailure("dpotrf_: argument \(-info) is invalid") }
      throw .singular(reciprocalCondition: 0)
    }
    self.order = n
    self.factor = a
  }

  /// log |A| = 2·Σ log Lᵢᵢ.
  package var logDeterminant: Double {
    (0..<order).reduce(0.0) { $0 + 2 * log(factor[$1 * order + $1]) }
  }

  /// X with A·X = B, for B column-major n×`columns` (a vector when `columns` is 1).
  package func solve(_ b: [Double], columns: Int = 1) -> [Double] {
    precondition(b.count == order * columns && columns > 0)
    var solution = b
    var n = Int32(order)
    var nrhs = Int32(columns)
    var info: Int32 = 0
    var uplo = CChar(UInt8(ascii: "L"))
    dpotrs_(&uplo, &n, &nrhs, factor, &n, &solution, &n, &info, 1)
    precondition(info == 0, "dpotrs_: argument \(-info) is invalid")
    return solution
  }

  /// L⁻¹·B for B column-major n×`columns`, by a triangular solve (BLAS `dtrsm`): with A a
  /// covariance, the columns come out whitened — uncorrelated, with unit variance.
  package func whiten(_ b: [Double], columns: Int = 1) -> [Double] {
    precondition(b.count == order * columns && columns > 0)
    var solution = b
    let n = Int32(order)
    cblas_dtrsm(
      CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, Int32(columns), 1,
      factor, n, &solution, n)
    return solution
  }

  /// A⁻¹, symmetrised against round-off.
  package func inverse() -> Matrix {
    var identity = [Double](repeating: 0, count: order * order)
    for i in 0..<order { identity[i * order + i] = 1 }
    let x = solve(identity, columns: order)
    var result = Matrix(rows: order, columns: order)
    for i in 0..<order {
      for j in 0..<order {
        result[i, j] = (x[j * order + i] + x[i * order + j]) / 2
      }
    }
    return result
  }
}
