#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Power spectral density by Welch's method, defined as SciPy's `scipy.signal.welch` with
/// `window="hann"`, `detrend="constant"`, `scaling="density"`, one-sided: segments of
/// `segmentLength` samples overlapping by `overlap`, each with its mean removed, multiplied by
/// a periodic Hann window, zero-padded to `fftLength`; the periodograms are averaged.
package struct WelchSpectrum: Sendable, Equatable {
  /// Frequencies in Hz, 0 … fs/2 in steps of fs / fftLength.
  package var frequencies: [Double]
  /// Power spectral density in (input unit)² per Hz.
  package var density: [Double]
  /// How many segments were averaged.
  package var segments: Int

  /// - Returns: `nil` when the signal is shorter than one segment.
  package init?(
    _ x: [Double], sampleRate fs: Double, segmentLength n: Int, overlap: Int, fftLength: Int
  ) {
    precondition(n > 0 && overlap < n && fftLength >= n && fs > 0)
    guard x.count >= n else { return nil }
    let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
    let scale = 1 / (fs * window.reduce(0) { $0 + $1 * $1 })
    var sum = [Double](repeating: 0, count: fftLength / 2 + 1)
    var count = 0
    var start = 0
    while start + n <= x.count {
      let segment = Array(x[start..<(start + n)])
      let mean = segment.reduce(0, +) / Double(n)
      let tapered = zip(segment, window).map { ($0 - mean) * $1 }
      let power = FFT.powerSpectrum(tapered, length: fftLength)
      for k in power.indices { sum[k] += power[k] }
      count += 1
      start += n - overlap
    }
    let nyquist = fftLength % 2 == 0 ? fftLength / 2 : -1
    density = sum.enumerated().map { k, value in
      let oneSided = (k == 0 || k == nyquist) ? 1.0 : 2.0
      return value / Double(count) * scale * oneSided
    }
    frequencies = (0..<sum.count).map { Double($0) * fs / Double(fftLength) }
    segments = count
  }

  /// Power in [low, high) Hz by the trapezoid rule over the bins inside the band.
  package func power(from low: Double, to high: Double) -> Double {
    let inside = frequencies.indices.filter { frequencies[$0] >= low && frequencies[$0] < high }
    guard inside.count >= 2 else { return 0 }
    var total = 0.0
    for (a, b) in zip(inside, inside.dropFirst()) {
      total += (frequencies[b] - frequencies[a]) * (density[a] + density[b]) / 2
    }
    return total
  }
}

/// Resampling of unevenly sampled series.
package enum Resample {
  /// Linear interpolation of (times, values) at `rate` Hz from the first time to the last.
  ///
  /// - Precondition: times increase strictly and match values in count.
  package static func linear(times: [Double], values: [Double], rate: Double) -> [Double] {
    precondition(times.count == values.count)
    guard let first = times.first, let last = times.last, times.count >= 2 else { return values }
    let count = Int(((last - first) * rate).rounded(.down)) + 1
    var out: [Double] = []
    out.reserveCapacity(count)
    var j = 0
    for i in 0..<count {
      let t = first + Double(i) / rate
      while j < times.count - 2 && times[j + 1] < t { j += 1 }
      let span = times[j + 1] - times[j]
      let f = span > 0 ? (t - times[j]) / span : 0
      out.append(values[j] + (values[j + 1] - values[j]) * max(0, min(1, f)))
    }
    return out
  }
}
