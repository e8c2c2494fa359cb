/// How the sweep kernel computes a block's scores: BLAS `dgemm` into a scratch, or seven
/// fused multiply-adds per score in registers. Both give the same results;
/// `docs/performance.md` times them. The raw values are the spellings of `--product` and of
/// `sweep_runs.product`.
package enum SweepProduct: String, Sendable, CaseIterable, Codable {
  /// One BLAS `dgemm` per block of decisions.
  case blas
  /// Eight-lane SIMD fused multiply-adds, two registers a row (the default).
  case simd
}
