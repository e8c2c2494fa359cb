import Foundation
import ResonanceModel

/// How greedy the app's policy is under a weight vector, and the rescaling that makes a design
/// point exactly as greedy as the preferences in force (`docs/tuning.md`, "Why scale matters
/// under a softmax").
///
/// Under a softmax, greediness is measured by the policy's **mean entropy** over a log's
/// decisions: a vector w becomes s·w with the s > 0 at which the softmax of s·(w·a) + o (a the
/// folded components, o the transition term, at the log's temperature) has the mean entropy
/// of the preferences in force. Entropy, not the scores' spread, because of the Gibbs
/// variational principle: of all policies with a given total entropy over the decisions, the
/// one with the largest expected utility is the softmax of that utility at a common
/// temperature. So for a person whose taste is the app's scoring, the app's own policy is the
/// best there is at its entropy, and a design point can look better only by chance; at an
/// equal score variance it can be genuinely better by spreading its scores differently (heavier
/// tails, a sharper top), which is a change of greediness, not of taste.
///
/// The entropy is computed on at most `sampleLimit` decisions, evenly spaced through the ones
/// given (both sides of the match use the same ones). Greedy and ε-greedy policies have no
/// temperature to trade against; for them, and for any point whose entropy cannot be matched,
/// the scores' pooled within-decision variance is matched instead (`ScoreSpread`).
package struct Greediness: Sendable {
  package let policy: LoggingPolicy
  private let spread: ScoreSpread
  private let sample: Sample

  /// The decisions' rows, copied together: a decision's candidates are
  /// `rowStart[i] ..< rowStart[i + 1]`, with seven folded components and an offset each.
  private struct Sample: Sendable {
    var folded: [Double] = []
    var offset: [Double] = []
    var rowStart: [Int] = [0]
    var longest = 0
    var count: Int { rowStart.count - 1 }
  }

  /// The decisions entropy is averaged over, at most: enough that the mean is steady to a few
  /// parts in a thousand, few enough that matching 10⁴ points costs about as much as
  /// evaluating them.
  package static let sampleLimit = 2_000

  /// Greediness over `decisions` (indices into the input's log; every decision when nil).
  package init(_ input: SweepInput, decisions: [Int]? = nil, sampleLimit: Int = Self.sampleLimit) {
    let log = input.decisions
    policy = log.policy
    let chosen = decisions ?? Array(0..<input.count)
    spread = ScoreSpread(input, decisions: chosen)
    // Decisions with one candidate have entropy 0 under any weights: they do not take part.
    let eligible = chosen.filter { log.rows(of: $0).count > 1 }
    let picked =
      eligible.count <= sampleLimit
      ? eligible
      : (0..<sampleLimit).map { eligible[$0 * eligible.count / sampleLimit] }
    var sample = Sample()
    for d in picked {
      let rows = log.rows(of: d)
      for r in rows {
        for k in 0..<7 { sample.folded.append(input.folded(row: r, component: k, decision: d)) }
        sample.offset.append(input.offset(row: r, decision: d))
      }
      sample.rowStart.append(sample.rowStart.last! + rows.count)
      sample.longest = max(sample.longest, rows.count)
    }
    self.sample = sample
  }

  /// The softmax policy's mean entropy (in nats) over the sampled decisions under `w`; 0 for
  /// the greedy policies and for a log without a decision of two candidates.
  package func meanEntropy(_ w: ScoringWeights) -> Double {
    guard policy.kind == .softmax, sample.count > 0 else { return 0 }
    let lanes = LaneWeights([w], from: 0)
    return withScratch { entropy(lanes, scale: Lanes(repeating: 1), scratch: $0).value[0] }
  }

  /// Every vector of `points` rescaled to the greediness of `reference`: the same mean entropy
  /// under a softmax (to 1e-9 nats), the same score variance otherwise.
  ///
  /// - Complexity: O(points × sampled rows × iterations); Newton's method from the
  ///   variance-matched scale takes three to six.
  package func matched(
    _ points: [ScoringWeights], to reference: ScoringWeights,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> [ScoringWeights] {
    let variance = spread.variance(reference)
    let start = points.map { spread.matched($0, to: variance) }
    guard policy.kind == .softmax, sample.count > 0, !points.isEmpty else { return start }
    let target = meanEntropy(reference)
    let blocks = (start.count + 7) / 8
    var scales = [Double](repeating: 1, count: blocks * 8)
    let threadCount = max(1, min(threads, blocks))
    scales.withUnsafeMutableBufferPointer { buffer in
      let output = ScaleOutput(buffer.baseAddress!)
      DispatchQueue.concurrentPerform(iterations: threadCount) { t in
        withScratch { scratch in
          for block in stride(from: t, to: blocks, by: threadCount) {
            let found = solve(LaneWeights(start, from: 8 * block), target: target, scratch: scratch)
            for lane in 0..<8 { output.base[8 * block + lane] = found[lane] }
          }
        }
      }
    }
    return start.indices.map { j in
      scales[j] == 1 ? start[j] : ScoringWeights(vector: start[j].vector.map { $0 * scales[j] })
    }
  }

  // MARK: - Newton's method, eight vectors at a time

  private typealias Lanes = SIMD8<Double>

  /// The seven weights of eight vectors, a register per component.
  private struct LaneWeights {
    var k: [Lanes]

    /// The vectors from `first` on; a short last block repeats its last vector.
    init(_ points: [ScoringWeights], from first: Int) {
      k = [Lanes](repeating: Lanes(), count: 7)
      for lane in 0..<8 {
        let v = points[min(first + lane, points.count - 1)].vector
        for c in 0..<7 { k[c][lane] = v[c] }
      }
    }
  }

  /// Per lane, the factor that gives the vector the target entropy; 1 where none is found
  /// (the variance-matched vector stands).
  private func solve(_ w: LaneWeights, target: Double, scratch: Scratch) -> [Double] {
    var s = [Double](repeating: 1, count: 8)
    var low = [Double](repeating: 0, count: 8)
    var high = [Double](repeating: .infinity, count: 8)
    var done = [Bool](repeating: false, count: 8)
    var found = [Double](repeating: 1, count: 8)
    let tolerance = 1e-9
    for _ in 0..<60 {
      let (value, slope) = entropy(w, scale: Lanes(s), scratch: scratch)
      for lane in 0..<8 where !done[lane] {
        let f = value[lane] - target
        if abs(f) <= tolerance {
          found[lane] = s[lane]
          done[lane] = true
          continue
        }
        // Entropy falls as the scores are stretched: above the target, s must grow.
        if f > 0 { low[lane] = s[lane] } else { high[lane] = s[lane] }
        let newton = s[lane] - f / slope[lane]
        if slope[lane] < 0, newton > low[lane], newton < high[lane] {
          // Newton's method converges quadratically: after a step this small, what is left
          // is of the order of its square — far inside the tolerance — and another pass over
          // the decisions to confirm it would change nothing.
          if abs(newton - s[lane]) <= 1e-7 * s[lane] {
            found[lane] = newton
            done[lane] = true
            continue
          }
          s[lane] = newton
        } else if high[lane].isFinite {
          s[lane] = low[lane] > 0 ? (low[lane] * high[lane]).squareRoot() : high[lane] / 2
        } else {
          s[lane] *= 2
        }
        if !(1e-6...1e6).contains(s[lane]) { done[lane] = true }  // not reachable: keep 1
      }
      if done.allSatisfy({ $0 }) { break }
    }
    return found
  }

  /// Per lane: the mean entropy of the softmax of s·(w·a) + o over the sampled decisions, and
  /// its derivative in s, −(s·Var π(w·a) + Cov π(w·a, o)) / T², averaged likewise.
  private func entropy(_ w: LaneWeights, scale s: Lanes, scratch: Scratch) -> (
    value: Lanes, slope: Lanes
  ) {
    let inverseTemperature = 1 / policy.temperature
    let t = Lanes(repeating: inverseTemperature)
    var value = Lanes()
    var slope = Lanes()
    sample.folded.withUnsafeBufferPointer { folded in
      sample.offset.withUnsafeBufferPointer { offset in
        for d in 0..<sample.count {
          let r0 = sample.rowStart[d]
          let n = sample.rowStart[d + 1] - r0
          var top = Lanes(repeating: -.infinity)
          for i in 0..<n {
            let c = folded.baseAddress! + 7 * (r0 + i)
            var a = w.k[0] * c[0]
            for k in 1..<7 { a = a.plusProduct(w.k[k], Lanes(repeating: c[k])) }
            let z = (s * a + offset[r0 + i]) * t
            scratch.a[i] = a
            scratch.z[i] = z
            top.replace(with: z, where: z .> top)
          }
          var total = Lanes()
          var weighted = (z: Lanes(), a: Lanes(), aa: Lanes(), ao: Lanes(), o: Lanes())
          for i in 0..<n {
            let shifted = scratch.z[i] - top
            let e = VectorExp.exp(shifted)
            let a = scratch.a[i]
            let o = Lanes(repeating: offset[r0 + i])
            total += e
            weighted.z = weighted.z.plusProduct(e, shifted)
            weighted.a += e * a
            weighted.aa += e * a * a
            weighted.ao += e * a * o
            weighted.o += e * o
          }
          var logTotal = Lanes()
          for lane in 0..<8 { logTotal[lane] = Foundation.log(total[lane]) }
          value += logTotal - weighted.z / total
          let meanA = weighted.a / total
          let varianceA = weighted.aa / total - meanA * meanA
          let covariance = weighted.ao / total - meanA * (weighted.o / total)
          slope -= (s * varianceA + covariance) * (t * t)
        }
      }
    }
    let count = Lanes(repeating: Double(sample.count))
    return (value / count, slope / count)
  }

  /// Room for one decision's per-candidate scores, eight lanes each.
  private struct Scratch {
    let a: UnsafeMutablePointer<Lanes>
    let z: UnsafeMutablePointer<Lanes>
  }

  private func withScratch<R>(_ body: (Scratch) -> R) -> R {
    let size = max(1, sample.longest)
    let a = UnsafeMutablePointer<Lanes>.allocate(capacity: size)
    let z = UnsafeMutablePointer<Lanes>.allocate(capacity: size)
    defer {
      a.deallocate()
      z.deallocate()
    }
    return body(Scratch(a: a, z: z))
  }
}

/// The scales' memory, written by several threads at once, each to its own blocks' slots.
private final class ScaleOutput: @unchecked Sendable {
  let base: UnsafeMutablePointer<Double>
  init(_ base: UnsafeMutablePointer<Double>) { self.base = base }
}
