import Foundation
import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("random-effects meta-analysis")
struct RandomEffectsTests {
  /// The BCG vaccine trials (Colditz et al. 1994; metafor's `dat.bcg`): vaccinated with
  /// tuberculosis, vaccinated without, control with, control without.
  static let bcg: [(Double, Double, Double, Double)] = [
    (4, 119, 11, 128), (6, 300, 29, 274), (3, 228, 11, 209), (62, 13536, 248, 12619),
    (33, 5036, 47, 5761), (180, 1361, 372, 1079), (8, 2537, 10, 619), (505, 87886, 499, 87892),
    (29, 7470, 45, 7232), (17, 1699, 65, 1600), (186, 50448, 141, 27197), (5, 2493, 3, 2338),
    (27, 16886, 29, 17825),
  ]

  @Test("the BCG trials' log risk ratios give metafor's REML τ², μ and Cochran's Q")
  func bcgReference() throws {
    let estimates = Self.bcg.map { a, b, c, d in
      (
        estimate: log((a / (a + b)) / (c / (c + d))),
        se: (1 / a - 1 / (a + b) + 1 / c - 1 / (c + d)).squareRoot()
      )
    }
    let pooled = try #require(RandomEffects.pool(estimates))
    // rma(yi, vi, data = escalc("RR", …, data = dat.bcg)): tau^2 0.3132, estimate -0.7145,
    // Q(df = 12) = 152.2330.
    #expect(abs(pooled.tau2 - 0.3132) < 5e-5)
    #expect(abs(pooled.mu - -0.7145) < 5e-5)
    #expect(abs(pooled.q - 152.2330) < 5e-4)
    #expect(abs(pooled.i2 - (152.2330 - 12) / 152.2330) < 1e-5)
    #expect(pooled.persons == 13)
    #expect(pooled.lower < pooled.mu && pooled.mu < pooled.upper)
    let prediction = try #require(
      pooled.predictionLower.flatMap { l in pooled.predictionUpper.map { (l, $0) } })
    #expect(prediction.0 < pooled.lower && pooled.upper < prediction.1)
  }

  @Test(
    "over 1,000 simulated cohorts the 95% Hartung–Knapp interval covers μ 93–97% of the time",
    arguments: [
      (persons: 10, tau: 0.3), (persons: 20, tau: 0.5), (persons: 100, tau: 0.2),
      (persons: 20, tau: 0),
    ])
  func coverage(persons: Int, tau: Double) {
    var rng = SplitMix64(seed: 20_261_206, stream: "coverage-\(persons)-\(tau)")
    let mu = 0.8
    var covered = 0
    var predicted = 0
    let sets = 1_000
    for _ in 0..<sets {
      var estimates: [(estimate: Double, se: Double)] = []
      for _ in 0..<persons {
        let se = rng.uniform(0.1, 0.8)
        estimates.append((rng.normal(mu, tau) + rng.normal(0, se), se))
      }
      guard let pooled = RandomEffects.pool(estimates) else { continue }
      if pooled.lower <= mu && mu <= pooled.upper { covered += 1 }
      // A new person's true effect, within the prediction interval.
      let next = rng.normal(mu, tau)
      if let l = pooled.predictionLower, let u = pooled.predictionUpper, l <= next && next <= u {
        predicted += 1
      }
    }
    let share = Double(covered) / Double(sets)
    #expect(share >= 0.93 && share <= 0.97, "coverage \(share)")
    // Higgins' prediction interval is known to fall short of its level with few persons and
    // a small τ² (Partlett & Riley 2017); docs/cohort.md gives the measured shares.
    print(
      "coverage k=\(persons) tau=\(tau): mu \(share), prediction \(Double(predicted) / Double(sets))"
    )
    #expect(Double(predicted) / Double(sets) >= 0.80, "prediction coverage \(predicted)")
  }

  @Test("fewer than two usable persons pool to nothing; two pool without a prediction interval")
  func small() throws {
    #expect(RandomEffects.pool([]) == nil)
    #expect(RandomEffects.pool([(1, 0.5), (2, 0), (.nan, 1)]) == nil)
    let two = try #require(RandomEffects.pool([(1, 0.5), (2, 0.5)]))
    #expect(two.persons == 2 && two.predictionLower == nil)
    #expect(abs(two.mu - 1.5) < 1e-12)
  }
}
