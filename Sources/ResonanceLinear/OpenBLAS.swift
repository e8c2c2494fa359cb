internal import CBLAS

/// The one place OpenBLAS is called from: CBLAS `dgemm` and the LAPACK Cholesky routines.
/// Nothing here appears in a signature outside ResonanceLinear.
///
/// Threads: Debian's default OpenBLAS is the pthreads build, which sizes its pool from
/// `OPENBLAS_NUM_THREADS` (or the core count) when the library loads. The matrices here are
/// small (tens of columns), where threading only adds overhead, and the pipeline runs its own
/// parallel stages; so before the first call the library is set to one thread, and every result
/// is the same whatever `OPENBLAS_NUM_THREADS` says (one thread also fixes the summation order).
enum BLAS {
  /// Runs once, the first time any wrapper here is entered (Swift's lazy static initialiser is
  /// thread-safe).
  static let singleThreaded: Void = { openblas_set_num_threads(1) }()

  /// How many threads OpenBLAS will use for the next call (1 once any wrapper has run).
  static var threadCount: Int {
    _ = singleThreaded
    return Int(openblas_get_num_threads())
  }

  /// C = α·op(A)·op(B) into `c` (m×n, row-major). `a` and `b` are row-major with the stored
  /// shapes given; `m`, `n`, `k` are op(A)'s rows, op(B)'s columns and the inner dimension.
  static func dgemm(
    _ a: [Double], rows aRows: Int, columns aColumns: Int, transposeA: Bool,
    _ b: [Double], rows bRows: Int, columns bColumns: Int, transposeB: Bool,
    m: Int, n: Int, k: Int, alpha: Double, into c: inout [Double]
  ) {
    _ = singleThreaded
    precondition(
      [aRows, aColumns, bRows, bColumns, m, n, k].allSatisfy { $0 <= Int(Int32.max) },
      "matrix too large for 32-bit BLAS indices")
    cblas_dgemm(
      CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans,
      transposeB ? CblasTrans : CblasNoTrans,
      Int32(m), Int32(n), Int32(k), alpha, a, Int32(max(1, aColumns)), b,
      Int32(max(1, bColumns)), 0, &c, Int32(max(1, n)))
  }
}

extension BLAS {
  /// C = A·B over raw row-major memory (A m×k, B k×n with leading dimension `ldb`, C with
  /// `ldc`); one thread, like every call here.
  static func dgemm(
    _ a: UnsafePointer<Double>, m: Int, k: Int, _ b: UnsafePointer<Double>, n: Int, ldb: Int,
    into c: UnsafeMutablePointer<Double>, ldc: Int
  ) {
    _ = singleThreaded
    precondition(
      [m, n, k, ldb, ldc].allSatisfy { $0 <= Int(Int32.max) },
      "matrix too large for 32-bit BLAS indices")
    cblas_dgemm(
      CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k), 1, a,
      Int32(max(1, k)), b, Int32(max(1, ldb)), 0, c, Int32(max(1, ldc)))
  }
}

enum LAPACK {
  /// Solves A·X = B for a symmetric positive definite n×n `a` (a symmetric matrix reads the same
  /// in either layout) and a **column-major** n×nrhs `b`, by Cholesky (`dpotrf_`, `dpotrs_`),
  /// after estimating A's reciprocal condition number (`dpocon_`).
  ///
  /// - Returns: X, column-major n×nrhs.
  /// - Throws: `LinearAlgebraError.singular` when A is not positive definite, or when its
  ///   reciprocal condition number is at or below `minimumReciprocalCondition`.
  static func solvePositiveDefinite(
    _ a: [Double], n: Int, _ b: [Double], nrhs: Int, minimumReciprocalCondition: Double
  ) throws(LinearAlgebraError) -> [Double] {
    _ = BLAS.singleThreaded
    precondition(a.count == n * n && b.count == n * nrhs && n > 0 && nrhs > 0)
    precondition(n <= Int(Int32.max) && nrhs <= Int(Int32.max))
    // ‖A‖₁: the largest absolute column sum.
    var anorm = 0.0
    for j in 0..<n {
      var sum = 0.0
      for i in 0..<n { sum += abs(a[i * n + j]) }
      anorm = max(anorm, sum)
    }
    var factor = a
    var solution = b
    var order = Int32(n)
    var columns = Int32(nrhs)
    var info: Int32 = 0
    var uplo = CChar(UInt8(ascii: "L"))

    dpotrf_(&uplo, &order, &factor, &order, &info, 1)
    guard info == 0 else {
      if info < 0 { preconditionFailure("dpotrf_: argument \(-info) is invalid") }
      throw .singular(reciprocalCondition: 0)
    }

    var rcond = 0.0
    var work = [Double](repeating: 0, count: 3 * n)
    var iwork = [Int32](repeating: 0, count: n)
    dpocon_(&uplo, &order, factor, &order, &anorm, &rcond, &work, &iwork, &info, 1)
    precondition(info == 0, "dpocon_: argument \(-info) is invalid")
    guard rcond > minimumReciprocalCondition else {
      throw .singular(reciprocalCondition: rcond)
    }

    dpotrs_(&uplo, &order, &columns, factor, &order, &solution, &order, &info, 1)
    precondition(info == 0, "dpotrs_: argument \(-info) is invalid")
    return solution
  }
}
