import Foundation
import Testing

@testable import ResonanceBrain

@Suite("Shrunken song effects with 90% intervals")
struct ShrunkenEffectsTests {
  /// A small deterministic generator (SplitMix64) and Box–Muller normals, for planted data.
  struct Random {
    var state: UInt64
    mutating func next() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return (Double(z >> 11) + 0.5) / 9_007_199_254_740_992
    }
    mutating func normal(_ mean: Double, _ sd: Double) -> Double {
      mean + sd * (-2 * log(next())).squareRoot() * cos(2 * Double.pi * next())
    }
  }

  @Test("planted effects: the 90% intervals cover the truth 85–95% of the time")
  func coverage() {
    var random = Random(state: 42)
    var observations: [ShrunkenEffects.Observation] = []
    var truth: [Int64: Double] = [:]
    for song in 0..<600 {
      let genre = ["Pop", "Rock", "Ambient"][song % 3]
      let effect = random.normal(genre == "Ambient" ? -3 : 1, 2)
      truth[Int64(song)] = effect
      for _ in 0..<(1 + song % 12) {
        observations.append(
          .init(songID: Int64(song), group: genre, value: random.normal(effect, 5)))
      }
    }
    let estimates = ShrunkenEffects.estimate(observations)
    #expect(estimates.count == 600)
    let covered = estimates.filter {
      $0.low90 <= truth[$0.songID]! && truth[$0.songID]! <= $0.high90
    }
    let share = Double(covered.count) / Double(estimates.count)
    #expect(share > 0.85 && share < 0.95, "coverage \(share)")
    // Shrinkage: a one-play song sits nearer its genre than its single value.
    let single = estimates.first { $0.plays == 1 }!
    #expect(abs(single.estimate - single.priorMean) < abs(single.rawMean - single.priorMean))
    // More plays, narrower intervals.
    let many = estimates.first { $0.plays == 12 }!
    #expect(many.sd < single.sd)
  }

  @Test("too little data gives no estimate; NaN is left out")
  func edges() {
    #expect(ShrunkenEffects.estimate([]).isEmpty)
    #expect(
      ShrunkenEffects.estimate([
        .init(songID: 1, group: "", value: 3), .init(songID: 1, group: "", value: 4),
      ])
      .isEmpty)
    let constant = (0..<5).map {
      ShrunkenEffects.Observation(songID: Int64($0), group: "", value: 2)
    }
    #expect(ShrunkenEffects.estimate(constant).isEmpty, "no spread, no interval")
    let withNaN = [
      ShrunkenEffects.Observation(songID: 1, group: "g", value: 1),
      .init(songID: 1, group: "g", value: 3), .init(songID: 2, group: "g", value: .nan),
      .init(songID: 2, group: "g", value: 5), .init(songID: 2, group: "g", value: 7),
    ]
    let estimates = ShrunkenEffects.estimate(withNaN)
    #expect(estimates.map(\.plays) == [2, 2])
    #expect(estimates.allSatisfy { $0.low90 < $0.estimate && $0.estimate < $0.high90 })
  }
}
