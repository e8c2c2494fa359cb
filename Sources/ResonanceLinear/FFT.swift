internal import CFFT
import Synchronization

/// Real-to-complex discrete Fourier transforms through FFTW (double precision).
///
/// FFTW's planner is not thread-safe, so each transform is planned, run and freed under one
/// process-wide lock (the spectra here are a few thousand points; the lock costs nothing).
package enum FFT {
  private static let planner = Mutex(())

  /// The squared magnitudes |X_k|² of the DFT of `x` zero-padded to `length`, for
  /// k = 0 … length/2 (the non-negative frequencies).
  ///
  /// - Precondition: `length >= x.count` and `length > 0`.
  package static func powerSpectrum(_ x: [Double], length: Int) -> [Double] {
    precondition(length > 0 && length >= x.count, "FFT length must cover the input")
    return planner.withLock { _ in
      let bins = length / 2 + 1
      let input = fftw_alloc_real(length)!
      let output = fftw_alloc_complex(bins)!
      defer {
        fftw_free(input)
        fftw_free(output)
      }
      let plan = fftw_plan_dft_r2c_1d(Int32(length), input, output, UInt32(FFTW_ESTIMATE))
      defer { fftw_destroy_plan(plan) }
      // Planning may overwrite the arrays, so the input is filled after it.
      for i in 0..<length { input[i] = i < x.count ? x[i] : 0 }
      fftw_execute(plan)
      let complex = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Double.self)
      return (0..<bins).map { k in
        let re = complex[2 * k]
        let im = complex[2 * k + 1]
        return re * re + im * im
      }
    }
  }
}
