/// A dense matrix of `Double`s, stored **row-major**: element (i, j) is
/// `elements[i * columns + j]`, so an array of rows reads the way it is written.
///
/// BLAS is told the layout (`CblasRowMajor`); LAPACK, which is column-major only, is handed
/// either symmetric matrices (the same in both layouts) or buffers laid out for it by
/// `RidgeRegression`.
package struct Matrix: Sendable, Equatable {
  package let rows: Int
  package let columns: Int
  /// Row-major; `rows * columns` of them.
  package private(set) var elements: [Double]

  /// - Precondition: `elements.count == rows * columns`, both dimensions ≥ 0.
  package init(rows: Int, columns: Int, elements: [Double]) {
    precondition(rows >= 0 && columns >= 0, "matrix dimensions must not be negative")
    precondition(
      elements.count == rows * columns,
      "a \(rows)×\(columns) matrix needs \(rows * columns) elements")
    self.rows = rows
    self.columns = columns
    self.elements = elements
  }

  /// A `rows`×`columns` matrix with every element `value`.
  package init(rows: Int, columns: Int, repeating value: Double = 0) {
    self.init(
      rows: rows, columns: columns, elements: .init(repeating: value, count: rows * columns))
  }

  /// A matrix from its rows, which must all have the same length.
  package init(_ rowArrays: [[Double]]) {
    let columns = rowArrays.first?.count ?? 0
    precondition(rowArrays.allSatisfy { $0.count == columns }, "rows of different lengths")
    self.init(rows: rowArrays.count, columns: columns, elements: rowArrays.flatMap { $0 })
  }

  /// The n×n identity.
  package static func identity(_ n: Int) -> Matrix {
    var m = Matrix(rows: n, columns: n)
    for i in 0..<n { m[i, i] = 1 }
    return m
  }

  /// `values` as an n×1 column.
  package static func column(_ values: [Double]) -> Matrix {
    Matrix(rows: values.count, columns: 1, elements: values)
  }

  package subscript(row: Int, column: Int) -> Double {
    get {
      precondition(row >= 0 && row < rows && column >= 0 && column < columns, "index out of range")
      return elements[row * columns + column]
    }
    set {
      precondition(row >= 0 && row < rows && column >= 0 && column < columns, "index out of range")
      elements[row * columns + column] = newValue
    }
  }

  /// Row `i` as an array.
  package func row(_ i: Int) -> [Double] {
    Array(elements[(i * columns)..<((i + 1) * columns)])
  }

  /// Column `j` as an array.
  package func column(_ j: Int) -> [Double] {
    (0..<rows).map { self[$0, j] }
  }

  /// The main diagonal, min(rows, columns) long.
  package var diagonal: [Double] {
    (0..<min(rows, columns)).map { self[$0, $0] }
  }

  package var transposed: Matrix {
    var t = Matrix(rows: columns, columns: rows)
    for i in 0..<rows {
      for j in 0..<columns { t[j, i] = self[i, j] }
    }
    return t
  }
}

extension Matrix {
  /// α·op(A)·op(B) through BLAS `dgemm`, where op(M) is M or Mᵀ.
  ///
  /// - Precondition: the inner dimensions agree.
  package static func gemm(
    _ a: Matrix, _ b: Matrix, transposeA: Bool = false, transposeB: Bool = false,
    alpha: Double = 1
  ) -> Matrix {
    let m = transposeA ? a.columns : a.rows
    let k = transposeA ? a.rows : a.columns
    let kB = transposeB ? b.columns : b.rows
    let n = transposeB ? b.rows : b.columns
    precondition(k == kB, "gemm: inner dimensions \(k) and \(kB) differ")
    var c = Matrix(rows: m, columns: n)
    guard m > 0, n > 0, k > 0 else { return c }
    BLAS.dgemm(
      a.elements, rows: a.rows, columns: a.columns, transposeA: transposeA,
      b.elements, rows: b.rows, columns: b.columns, transposeB: transposeB,
      m: m, n: n, k: k, alpha: alpha, into: &c.elements)
    return c
  }

  /// The product A·B (`gemm` without transposes).
  package static func * (a: Matrix, b: Matrix) -> Matrix {
    gemm(a, b)
  }
}

/// Matrix products over caller-owned memory, for kernels that reuse one buffer block after
/// block instead of allocating a `Matrix` each time.
package enum BlockProduct {
  /// C = A·B through BLAS `dgemm`: A is m×k row-major (leading dimension k), B is k×n
  /// row-major with leading dimension `ldb`, C is m×n row-major with leading dimension `ldc`.
  ///
  /// - Precondition: every dimension fits BLAS's 32-bit indices.
  package static func gemm(
    _ a: UnsafePointer<Double>, rows m: Int, inner k: Int, _ b: UnsafePointer<Double>,
    columns n: Int, ldb: Int, into c: UnsafeMutablePointer<Double>, ldc: Int
  ) {
    BLAS.dgemm(a, m: m, k: k, b, n: n, ldb: ldb, into: c, ldc: ldc)
  }
}
