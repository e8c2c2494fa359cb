import ResonanceModel
import Testing

@testable import ResonanceTuning

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Pairwise learning-to-rank on kept and skipped plays")
struct PairwiseRankerTests {
  /// Log-odds of keeping a song per unit of each component: the matches help, the two
  /// penalties hurt.
  static let planted = [2.0, 1.5, 0.5, 1.0, 1.0, -1.5, -1.0]

  /// Sessions of 12 plays with random components, each kept with probability σ(β·c + a
  /// session's own offset).
  static func plays(sessions: Int, seed: UInt64) -> PlayOutcomes {
    var random = TestRandom(seed: seed)
    var plays = PlayOutcomes()
    for _ in 0..<sessions {
      let offset = random.uniform(-4, -2)
      var components = [ScoringComponents]()
      var kept = [Bool]()
      for _ in 0..<12 {
        let c = (0..<7).map { _ in random.uniform() }
        let margin = offset + zip(planted, c).reduce(0) { $0 + $1.0 * $1.1 }
        components.append(ScoringComponents(vector: c))
        kept.append(random.chance(1 / (1 + exp(-margin))))
      }
      plays.append(session: components, kept: kept)
    }
    return plays
  }

  @Test("recovers the direction of a planted weight vector")
  func recoversPlantedWeights() throws {
    let plays = Self.plays(sessions: 600, seed: 17)
    let fit = try PairwiseRanker.fit(plays)
    #expect(fit.isConverged)
    for (estimated, planted) in zip(fit.coefficients, Self.planted) {
      #expect(estimated.sign == planted.sign)
    }
    let dot = zip(fit.coefficients, Self.planted).reduce(0) { $0 + $1.0 * $1.1 }
    let norms =
      (fit.coefficients.reduce(0) { $0 + $1 * $1 } * Self.planted.reduce(0) { $0 + $1 * $1 })
      .squareRoot()
    #expect(dot / norms > 0.95)
    // As scoring weights: penalties positive, the five matches summing to 1.
    #expect(fit.isNormalised)
    let w = fit.weights.vector
    #expect(abs(w[0..<5].reduce(0, +) - 1) < 1e-12)
    #expect(w.allSatisfy { $0 > 0 })
    #expect(w[0] > w[2] && w[5] > w[2])
    #expect(fit.pairwiseAccuracy > 0.6 && fit.auc >= fit.pairwiseAccuracy)
    #expect(fit.logLoss < log(2.0))
  }

  @Test("pairs are kept × skipped plays within each session, never across sessions")
  func pairCount() throws {
    var plays = PlayOutcomes()
    let c = ScoringComponents(vector: [0.5, 0.5, 0.5, 0.5, 0.5, 0, 0])
    plays.append(session: [c, c, c, c], kept: [true, false, true, false])  // 2 × 2
    plays.append(session: [c, c], kept: [true, true])  // no skipped play
    plays.append(session: [c, c, c], kept: [false, true, false])  // 1 × 2
    #expect(PairwiseRanker.pairDifferences(plays).rows == 6)
    let fit = try PairwiseRanker.fit(plays)
    #expect(fit.pairs == 6 && fit.sessions == 2)
  }

  @Test("perfectly separated plays still give finite weights")
  func separable() throws {
    var plays = PlayOutcomes()
    let good = ScoringComponents(vector: [1, 0.8, 0.5, 0.5, 0.5, 0, 0])
    let bad = ScoringComponents(vector: [0.2, 0.3, 0.5, 0.5, 0.5, 0, 0])
    for _ in 0..<50 { plays.append(session: [good, bad, good], kept: [true, false, true]) }
    let fit = try PairwiseRanker.fit(plays)
    #expect(fit.isConverged)
    #expect(fit.coefficients.allSatisfy { $0.isFinite })
    #expect(fit.pairwiseAccuracy == 1 && fit.auc == 1)
    #expect(fit.coefficients[0] > 0 && fit.coefficients[1] > 0)
  }

  @Test("sessions without both a kept and a skipped play give no pairs: an error")
  func noPairs() {
    var plays = PlayOutcomes()
    let c = ScoringComponents(vector: [0.5, 0.5, 0.5, 0.5, 0.5, 0, 0])
    plays.append(session: [c, c], kept: [true, true])
    do {
      _ = try PairwiseRanker.fit(plays)
      Issue.record("a fit without pairs was returned")
    } catch {
      #expect(error.kind == .noPairs)
    }
  }
}
