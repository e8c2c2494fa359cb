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
package struct HRVMetrics: Sendable, Equatable, Codable {
  package var count: Int
  package var meanNN: Double?
  package var sdnn: Double?
  package var rmssd: Double?
  package var sdsd: Double?
  package var pnn50: Double?
  package var pnn20: Double?
  package var sd1: Double?
  package var sd2: Double?
  package var meanHR: Double?

  /// The metrics of `rr`, intervals in milliseconds, in order. Values that are not finite
  /// (NaN, infinity) are left out before anything is computed.
  package init(rr: [Double]) {
    let rr = rr.filter(\.isFinite)
    count = rr.count
    guard !rr.isEmpty else { return }
    let mean = HRVMetrics.mean(rr)
    meanNN = mean
    meanHR = mean > 0 ? 60_000 / mean : nil
    sdnn = HRVMetrics.standardDeviation(rr)
    guard rr.count >= 2 else { return }
    let d = zip(rr.dropFirst(), rr).map { $0 - $1 }
    rmssd = sqrt(d.reduce(0) { $0 + $1 * $1 } / Double(d.count))
    sdsd = HRVMetrics.standardDeviation(d)
    pnn50 = 100 * Double(d.filter { abs($0) > 50 }.count) / Double(rr.count)
    pnn20 = 100 * Double(d.filter { abs($0) > 20 }.count) / Double(rr.count)
    let root2 = 2.0.squareRoot()
    sd1 = HRVMetrics.standardDeviation(zip(rr, rr.dropFirst()).map { ($0 - $1) / root2 })
    sd2 = HRVMetrics.standardDeviation(zip(rr, rr.dropFirst()).map { ($0 + $1) / root2 })
  }

  static func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }

  /// Sample standard deviation (ddof = 1); `nil` for fewer than two values.
  static func standardDeviation(_ x: [Double]) -> Double? {
    guard x.count >= 2 else { return nil }
    let m = mean(x)
    return sqrt(x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1))
  }
}
