#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A seeded generator for the tests (SplitMix64): the same seed gives the same numbers on
/// every machine, so every synthetic log is fixed.
struct TestRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// Uniform in [a, b).
  mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }

  /// `true` with probability `p`.
  mutating func chance(_ p: Double) -> Bool { uniform() < p }

  /// Uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// One element of a non-empty array, uniformly.
  mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

  /// Standard normal (Box–Muller).
  mutating func normal() -> Double {
    let u1 = max(uniform(), 1e-300)
    return sqrt(-2 * log(u1)) * cos(2 * Double.pi * uniform())
  }
}
