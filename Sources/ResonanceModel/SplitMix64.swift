#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A seeded pseudo-random generator (SplitMix64, Steele, Lea & Flood 2014): fast, and the
/// same seed gives the same numbers on every machine.
///
/// `resonance synth` gives each part of the simulation its own stream (`init(seed:stream:)`),
/// so adding a draw to one part never shifts the numbers another part sees; the tuning
/// stage's random designs and bootstraps draw from it too, so their results are the same on
/// every run.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  /// A generator for one named part of the simulation, derived from the run's seed.
  package init(seed: UInt64, stream: String) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over the stream name
    for byte in stream.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    state = seed ^ hash
    _ = next()
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  package mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// Uniform in [a, b).
  package mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }

  /// Uniform integer in `range`.
  package mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// Standard normal (Box–Muller).
  package mutating func normal() -> Double {
    let u1 = max(uniform(), 1e-300)
    let u2 = uniform()
    return sqrt(-2 * log(u1)) * cos(2 * Double.pi * u2)
  }

  /// Normal with the given mean and standard deviation.
  package mutating func normal(_ mean: Double, _ sd: Double) -> Double { mean + sd * normal() }

  /// Exponential with the given mean.
  package mutating func exponential(mean: Double) -> Double { -mean * log(1 - uniform()) }

  /// `true` with probability `p`.
  package mutating func chance(_ p: Double) -> Bool { uniform() < p }

  /// An index drawn with probability proportional to `weights`.
  package mutating func weightedIndex(_ weights: [Double]) -> Int {
    let total = weights.reduce(0, +)
    var u = uniform() * total
    for (i, w) in weights.enumerated() {
      u -= w
      if u < 0 { return i }
    }
    return weights.count - 1
  }

  /// One element of a non-empty array, uniformly.
  package mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
