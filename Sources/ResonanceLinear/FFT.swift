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

extension FFT {
  /// `x` band-passed to [low, high] Hz in the frequency domain: the DFT with every bin outside
  /// the band set to zero, transformed back. Zero-phase: nothing is shifted in time.
  package static func bandPass(_ x: [Double], sampleRate: Double, low: Double, high: Double)
    -> [Double]
  {
    let n = x.count
    guard n > 1 else { return x }
    return planner.withLock { _ in
      let bins = n / 2 + 1
      let input = fftw_alloc_real(n)!
      let spectrum = fftw_alloc_complex(bins)!
      defer {
        fftw_free(input)
        fftw_free(spectrum)
      }
      let forward = fftw_plan_dft_r2c_1d(Int32(n), input, spectrum, UInt32(FFTW_ESTIMATE))
      let backward = fftw_plan_dft_c2r_1d(Int32(n), spectrum, input, UInt32(FFTW_ESTIMATE))
      defer {
        fftw_destroy_plan(forward)
        fftw_destroy_plan(backward)
      }
      for i in 0..<n { input[i] = x[i] }
      fftw_execute(forward)
      let c = UnsafeMutableRawPointer(spectrum).assumingMemoryBound(to: Double.self)
      for k in 0..<bins {
        let f = Double(k) * sampleRate / Double(n)
        if f < low || f > high {
          c[2 * k] = 0
          c[2 * k + 1] = 0
        }
      }
      fftw_execute(backward)
      return (0..<n).map { input[$0] / Double(n) }
    }
  }

  /// The instantaneous phase (radians, −π … π) of `x`'s analytic signal (the Hilbert
  /// transform's): positive frequencies doubled, negative ones removed.
  package static func analyticPhase(_ x: [Double]) -> [Double] {
    let n = x.count
    guard n > 1 else { return x.map { _ in 0 } }
    return planner.withLock { _ in
      let signal = fftw_alloc_complex(n)!
      defer { fftw_free(signal) }
      let forward = fftw_plan_dft_1d(Int32(n), signal, signal, FFTW_FORWARD, UInt32(FFTW_ESTIMATE))
      let backward = fftw_plan_dft_1d(
        Int32(n), signal, signal, FFTW_BACKWARD, UInt32(FFTW_ESTIMATE))
      defer {
        fftw_destroy_plan(forward)
        fftw_destroy_plan(backward)
      }
      let c = UnsafeMutableRawPointer(signal).assumingMemoryBound(to: Double.self)
      for i in 0..<n {
        c[2 * i] = x[i]
        c[2 * i + 1] = 0
      }
      fftw_execute(forward)
      for k in 1..<n {
        let factor: Double = (n % 2 == 0 && k == n / 2) ? 1 : (k < (n + 1) / 2 ? 2 : 0)
        c[2 * k] *= factor
        c[2 * k + 1] *= factor
      }
      fftw_execute(backward)
      return (0..<n).map { atan2(c[2 * $0 + 1], c[2 * $0]) }
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
