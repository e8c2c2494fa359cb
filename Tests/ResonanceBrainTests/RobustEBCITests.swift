import Foundation
import Testing

@testable import ResonanceBrain

@Suite("Robust empirical Bayes intervals (Armstrong, Kolesár & Plagborg-Møller 2022)")
struct RobustEBCITests {
  @Test("no bias: the normal 90% value; a large one: about √(t/α), growing with t")
  func limits() {
    #expect(abs(RobustEBCI.criticalValue(t: 0) - 1.6448536) < 1e-6)
    // Values from a brute-force search over two-point bias distributions (SciPy, 200,000
    // mixing weights): 2.0253 at t = 0.5, 2.4034 at 1, 5.4880 at 5, 29.266 at 100 — with t = 100
    // about a tenth of the songs may carry bias near √1000.
    for (t, expected) in [(0.5, 2.0253), (1, 2.4034), (5, 5.4880), (100, 29.266)] {
      let value = RobustEBCI.criticalValue(t: t)
      #expect(abs(value - expected) < 2e-3, "t \(t): \(value)")
    }
    let values = [0.1, 0.5, 1, 2, 5].map { RobustEBCI.criticalValue(t: $0) }
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    #expect(values.allSatisfy { $0 > 1.6448 })
  }

  @Test("no distribution of the bias with E[b²] = t does worse than α at cva(t)")
  func worstCase() {
    for t in [0.05, 0.3, 1, 3, 10] {
      let chi = RobustEBCI.criticalValue(t: t)
      // Two-point distributions: b = 0 with probability 1 − p, b = √(t/p) with probability p.
      for p in stride(from: 0.01, through: 1, by: 0.01) {
        let b = (t / p).squareRoot()
        let nonCoverage =
          (1 - p) * RobustEBCI.nonCoverage(bias: 0, chi) + p * RobustEBCI.nonCoverage(bias: b, chi)
        #expect(nonCoverage <= 0.1 + 1e-6, "t \(t), p \(p): \(nonCoverage)")
      }
      // And some two-point distribution comes close: the bound is tight.
      let worst = stride(from: 0.01, through: 1, by: 0.001).map { p -> Double in
        let b = (t / p).squareRoot()
        return (1 - p) * RobustEBCI.nonCoverage(bias: 0, chi) + p
          * RobustEBCI.nonCoverage(bias: b, chi)
      }.max()!
      #expect(worst > 0.099, "t \(t): \(worst)")
    }
  }
}
