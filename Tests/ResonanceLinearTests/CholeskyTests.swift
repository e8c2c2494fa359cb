import Foundation
import Testing

@testable import ResonanceLinear

@Suite("Cholesky (LAPACK dpotrf, BLAS dtrsm)")
struct CholeskyTests {
  // A = [[4, 2], [2, 5]] = L·Lᵀ with L = [[2, 0], [1, 2]]: worked by hand.
  let a = Matrix([[4, 2], [2, 5]])

  @Test("solve, log-determinant and inverse of a 2×2 worked by hand")
  func solve() throws {
    let factor = try Cholesky(a)
    // A·x = (8, 9): x = (1.375, 1.25).
    let x = factor.solve([8, 9])
    #expect(abs(x[0] - 1.375) < 1e-12 && abs(x[1] - 1.25) < 1e-12)
    // |A| = 16.
    #expect(abs(factor.logDeterminant - log(16)) < 1e-12)
    let inverse = factor.inverse()
    #expect(abs(inverse[0, 0] - 5.0 / 16) < 1e-12 && abs(inverse[0, 1] + 2.0 / 16) < 1e-12)
  }

  @Test("whiten is L⁻¹·B: uncorrelated columns, and Bᵀ A⁻¹ B from them")
  func whiten() throws {
    let factor = try Cholesky(a)
    // L⁻¹·(2, 3) = (1, 1): 2 = 2·1, 3 = 1·1 + 2·1.
    let white = factor.whiten([2, 3])
    #expect(abs(white[0] - 1) < 1e-12 && abs(white[1] - 1) < 1e-12)
    // Two columns at once (column-major): (4, 2) → (2, 0); (0, 2) → (0, 1).
    let both = factor.whiten([4, 2, 0, 2], columns: 2)
    #expect(zip(both, [2.0, 0, 0, 1]).allSatisfy { abs($0 - $1) < 1e-12 })
    // (L⁻¹b)ᵀ(L⁻¹b) = bᵀA⁻¹b: for b = (8, 9), bᵀx = 8·1.375 + 9·1.25.
    let w = factor.whiten([8, 9])
    #expect(abs(w[0] * w[0] + w[1] * w[1] - (8 * 1.375 + 9 * 1.25)) < 1e-12)
  }

  @Test("a matrix that is not positive definite is refused")
  func singular() {
    #expect(throws: LinearAlgebraError.self) { try Cholesky(Matrix([[1, 2], [2, 1]])) }
  }
}
