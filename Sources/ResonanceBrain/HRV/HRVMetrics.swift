import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Time-domain and Poincaré HRV metrics of an RR series, with NeuroKit2's definitions
/// (`neurokit2/hrv/hrv_time.py`, `hrv_nonlinear.py`, version 0.3), so that figures compare
/// with the field's most used open library:
///
/// | metric | definition (N intervals, d = successive differences) |
/// |---|---|
/// | MeanNN | mean(RR) |
/// | SDNN | std(RR), ddof = 1 |
/// | RMSSD | √mean(d²) |
/// | SDSD | std(d), ddof = 1 |
/// | pNN50, pNN20 | 100 · #(\|d\| > 50 ms or 20 ms) / **N** (NeuroKit2 divides by N, not N − 1) |
/// | SD1, SD2 | std((RRₙ − RRₙ₊₁)/√2) and std((RRₙ + RRₙ₊₁)/√2), ddof = 1 |
/// | mean HR | 60000 / MeanNN |
///
/// A metric the series is too short for is `nil`: MeanNN and mean HR need one interval, SDNN
/// two, RMSSD, pNN50 and pNN20 two (one difference), SDSD, SD1 and SD2 three.
extension HRVMetrics {
  /// The metrics of `rr`, intervals in milliseconds, in order. Values that are not finite
  /// (NaN, infinity) are left out before anything is computed.
  package init(rr: [Double]) {
    let rr = rr.filter(\.isFinite)
    guard !rr.isEmpty else {
      self.init(count: 0)
      return
    }
    let mean = HRVMetrics.mean(rr)
    let meanHR = mean > 0 ? 60_000 / mean : nil
    let sdnn = HRVMetrics.standardDeviation(rr)
    guard rr.count >= 2 else {
      self.init(count: rr.count, meanNN: mean, sdnn: sdnn, meanHR: meanHR)
      return
    }
    let d = zip(rr.dropFirst(), rr).map { $0 - $1 }
    let root2 = 2.0.squareRoot()
    self.init(
      count: rr.count, meanNN: mean, sdnn: sdnn,
      rmssd: sqrt(d.reduce(0) { $0 + $1 * $1 } / Double(d.count)),
      sdsd: HRVMetrics.standardDeviation(d),
      pnn50: 100 * Double(d.filter { abs($0) > 50 }.count) / Double(rr.count),
      pnn20: 100 * Double(d.filter { abs($0) > 20 }.count) / Double(rr.count),
      sd1: HRVMetrics.standardDeviation(zip(rr, rr.dropFirst()).map { ($0 - $1) / root2 }),
      sd2: HRVMetrics.standardDeviation(zip(rr, rr.dropFirst()).map { ($0 + $1) / root2 }),
      meanHR: meanHR)
  }

  static func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }

  /// Sample standard deviation (ddof = 1); `nil` for fewer than two values.
  static func standardDeviation(_ x: [Double]) -> Double? {
    guard x.count >= 2 else { return nil }
    let m = mean(x)
    return sqrt(x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1))
  }

  /// Each metric's mean over the series that have it (nil where none has); `count` is the
  /// intervals summed.
  package static func mean(of all: [HRVMetrics]) -> HRVMetrics {
    func m(_ values: [Double?]) -> Double? {
      let present = values.compactMap { $0 }
      return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
    return HRVMetrics(
      count: all.reduce(0) { $0 + $1.count }, meanNN: m(all.map(\.meanNN)),
      sdnn: m(all.map(\.sdnn)), rmssd: m(all.map(\.rmssd)), sdsd: m(all.map(\.sdsd)),
      pnn50: m(all.map(\.pnn50)), pnn20: m(all.map(\.pnn20)), sd1: m(all.map(\.sd1)),
      sd2: m(all.map(\.sd2)), meanHR: m(all.map(\.meanHR)))
  }
}
