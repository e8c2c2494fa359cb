internal import CGSL

/// Sobol's quasi-random sequence, from GSL (`gsl_qrng_sobol`, Bratley and Fox's direction
/// numbers): points of the unit cube that fill it more evenly than random ones.
package enum Sobol {
  /// The first `count` points in `dimensions` dimensions (1 … 40), from the sequence's first
  /// point, the centre (½, …, ½); so 2^m points are a balanced set. Empty when GSL cannot
  /// make the generator.
  package static func points(_ count: Int, dimensions: Int) -> [[Double]] {
    guard count > 0, (1...40).contains(dimensions),
      let generator = gsl_qrng_alloc(resonance_qrng_sobol(), UInt32(dimensions))
    else { return [] }
    defer { gsl_qrng_free(generator) }
    var u = [Double](repeating: 0, count: dimensions)
    return (0..<count).map { _ in
      _ = gsl_qrng_get(generator, &u)
      return u
    }
  }
}
