import Dispatch
import Foundation
import ResonanceBrain
import ResonanceLinear
import ResonanceModel
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The decision log laid out for evaluating many preference vectors at once
/// (`SweepKernel`): each row's components with the score's signs, the decision's familiarity
/// boost and the transition blend folded in, so that a row's final score under weights w is
/// one dot product plus an offset:
///
///     final[r] = Σₖ folded[r, k]·wₖ + offset[r]
///     folded[r, k] = sₖ·c[r, k]·(k = familiarity ? boost[d] : 1)·(blends[d] ? 0.7 : 1)
///     offset[r] = blends[d] ? 0.3·smoothness[r] : 0
///
/// with sₖ = +1 for the five matches and −1 for the two penalties (`SongScorer.baseScore`,
/// `TransitionController.finalScore`).
package struct SweepInput: Sendable {
  package let decisions: LoggedDecisions
  package let folded: [Double]
  package let offset: [Double]
  /// Per decision: the chosen row (absolute) and its logged propensity.
  package let chosenRow: [Int]
  package let loggedPropensity: [Double]
  /// Per decision: its group (a month, a context), 0 ..< `groups`.
  package let group: [Int]
  package let groups: Int
  /// Per reward: the value per decision (NaN where not measured) and the reward model's
  /// prediction per row.
  package let rewards: [[Double]]
  package let predictions: [[Double]]

  /// Lays out `decisions` (which must pass `checkConsistency()`) with the rewards and models
  /// to estimate and each decision's group.
  package init(
    _ decisions: LoggedDecisions, rewards: [[Double?]], predictions: [[Double]], group: [Int],
    groups: Int
  ) {
    precondition(rewards.count == predictions.count, "one model per reward")
    precondition(group.count == decisions.count, "one group per decision")
    self.decisions = decisions
    let signs: [Double] = [1, 1, 1, 1, 1, -1, -1]
    var folded = [Double](repeating: 0, count: decisions.rows * 7)
    var offset = [Double](repeating: 0, count: decisions.rows)
    var chosenRow = [Int](repeating: 0, count: decisions.count)
    var logged = [Double](repeating: 0, count: decisions.count)
    let share = TransitionController.baseShare
    for d in 0..<decisions.count {
      let blend = decisions.blends[d]
      for r in decisions.rows(of: d) {
        for k in 0..<7 {
          var value = signs[k] * decisions.components[7 * r + k]
          if k == 2 { value *= decisions.familiarityBoost[d] }
          folded[7 * r + k] = blend ? share * value : value
        }
        offset[r] = blend ? (1 - share) * decisions.smoothness[r] : 0
      }
      chosenRow[d] = decisions.rowStart[d] + decisions.chosen[d]
      logged[d] = decisions.propensity[chosenRow[d]]
    }
    self.folded = folded
    self.offset = offset
    self.chosenRow = chosenRow
    self.loggedPropensity = logged
    self.group = group
    self.groups = groups
    self.rewards = rewards.map { $0.map { $0 ?? .nan } }
    self.predictions = predictions
  }
}

/// Per preference vector and group, the sums every estimate and diagnostic is a ratio of
/// (`SweepTotals.estimate`).
package struct SweepTotals: Sendable {
  /// Sums per (point, group): Σw, Σw², max w, agreements, decisions; then per reward k:
  /// measured decisions, Σw·R, Σw over measured, Σ DM, Σ DR terms.
  package static let commonFields = 5
  package static let perReward = 5

  package let points: Int
  package let groups: Int
  package let rewards: Int
  package var values: [Double]

  package var fields: Int { Self.commonFields + Self.perReward * rewards }

  package init(points: Int, groups: Int, rewards: Int) {
    self.points = points
    self.groups = groups
    self.rewards = rewards
    values = [Double](
      repeating: 0, count: points * groups * (Self.commonFields + Self.perReward * rewards))
  }

  /// The sums of `point` over `groups`, field by field (max w is a maximum).
  package func sums(point: Int, groups chosen: some Sequence<Int>) -> [Double] {
    var result = [Double](repeating: 0, count: fields)
    for g in chosen {
      let base = (point * groups + g) * fields
      for f in 0..<fields {
        result[f] = f == 2 ? max(result[f], values[base + f]) : result[f] + values[base + f]
      }
    }
    return result
  }

  /// One point's estimate over `groups` (every group when nil).
  package func estimate(
    point: Int, reward k: Int, estimator: Estimator, groups chosen: [Int]? = nil
  ) -> SweepEstimate {
    let s = sums(point: point, groups: chosen ?? Array(0..<groups))
    let base = Self.commonFields + Self.perReward * k
    let measured = s[base]
    let value: Double? =
      switch estimator {
      case .ips: measured > 0 ? s[base + 1] / measured : nil
      case .snips: s[base + 2] > 0 ? s[base + 1] / s[base + 2] : nil
      case .dm: measured > 0 ? s[base + 3] / measured : nil
      case .dr: measured > 0 ? s[base + 4] / measured : nil
      }
    return SweepEstimate(
      value: value, decisions: Int(s[4]), measured: Int(measured),
      effectiveSampleSize: s[1] > 0 ? s[0] * s[0] / s[1] : 0, largestWeight: s[2],
      agreementShare: s[4] > 0 ? s[3] / s[4] : 0)
  }
}

/// One preference vector's estimate from the kernel's sums.
package struct SweepEstimate: Sendable, Equatable {
  package var value: Double?
  package var decisions: Int
  package var measured: Int
  package var effectiveSampleSize: Double
  package var largestWeight: Double
  package var agreementShare: Double
}

/// Evaluates many preference vectors over a decision log in one fused pass
/// (`docs/performance.md`, "The sweep kernel"). Per block of decisions and block of vectors it
/// computes the final scores (a small matrix product), each decision's softmax over its
/// candidates, the target's probability of the logged choice, the direct method's sum over
/// candidates and the doubly robust term, and adds them to the vector's sums — the score
/// matrix of all vectors over all rows never exists, only one block of it per thread. Vectors
/// are split between threads (one per core); each vector's sums are added in decision order
/// by one thread, so results do not depend on the thread count.
package enum SweepKernel {
  /// How a block's scores are computed: BLAS `dgemm`, or a loop of seven multiply-adds per
  /// score that the compiler vectorises across vectors. `docs/performance.md` has both.
  package enum Product: String, Sendable, CaseIterable {
    case blas
    case simd
  }

  /// Vectors per block (the inner loops run across them) and rows per block.
  package static let vectorBlock = 64
  package static let rowBlock = 2048

  /// The sums of every vector of `weights` on `input`.
  ///
  /// - Complexity: O(rows × vectors) time, O(threads × rowBlock × vectorBlock) extra memory.
  package static func evaluate(
    _ input: SweepInput, weights: [ScoringWeights], product: Product = .simd,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> SweepTotals {
    var totals = SweepTotals(
      points: weights.count, groups: input.groups, rewards: input.rewards.count)
    guard !weights.isEmpty, input.decisions.count > 0 else { return totals }
    // Each vector as seven numbers in the folded order; blocks of vectors go to threads.
    let blocks = stride(from: 0, to: weights.count, by: vectorBlock).map {
      $0..<min(weights.count, $0 + vectorBlock)
    }
    let fields = totals.fields
    totals.values.withUnsafeMutableBufferPointer { buffer in
      let output = SharedOutput(buffer.baseAddress!)
      let next = BlockCounter()
      DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
        var scratch = Scratch(rewards: input.rewards.count)
        while let b = next.take(below: blocks.count) {
          run(
            input, weights: weights, points: blocks[b], product: product, fields: fields,
            scratch: &scratch, output: output)
        }
      }
    }
    return totals
  }

  /// Per-thread buffers, allocated once.
  private struct Scratch {
    var scores = [Double](repeating: 0, count: rowBlock * vectorBlock)
    var w = [Double](repeating: 0, count: 7 * vectorBlock)
    var maximum = [Double](repeating: 0, count: vectorBlock)
    var argmax = [Int](repeating: 0, count: vectorBlock)
    var total = [Double](repeating: 0, count: vectorBlock)
    var chosen = [Double](repeating: 0, count: vectorBlock)
    var direct: [Double]

    init(rewards: Int) {
      direct = [Double](repeating: 0, count: max(1, rewards) * vectorBlock)
    }
  }

  private static func run(
    _ input: SweepInput, weights: [ScoringWeights], points: Range<Int>, product: Product,
    fields: Int, scratch: inout Scratch, output: SharedOutput
  ) {
    let n = points.count
    let log = input.decisions
    let rewardCount = input.rewards.count
    let policy = log.policy
    let inverseTemperature = 1 / policy.temperature
    for (j, p) in points.enumerated() {
      let v = weights[p].vector
      for k in 0..<7 { scratch.w[k * n + j] = v[k] }
    }
    var d0 = 0
    while d0 < log.count {
      // A block of whole decisions of at most rowBlock rows (one longer decision alone).
      var d1 = d0 + 1
      while d1 < log.count, log.rowStart[d1 + 1] - log.rowStart[d0] <= rowBlock { d1 += 1 }
      let r0 = log.rowStart[d0]
      let rows = log.rowStart[d1] - r0
      if rows > scratch.scores.count / n {
        scratch.scores = [Double](repeating: 0, count: rows * n)
      }
      computeScores(input, rows: r0..<(r0 + rows), vectors: n, product: product, scratch: &scratch)
      for d in d0..<d1 {
        accumulate(
          input, decision: d, blockStart: r0, vectors: n, firstPoint: points.lowerBound,
          fields: fields, rewardCount: rewardCount, policy: policy,
          inverseTemperature: inverseTemperature, scratch: &scratch, output: output)
      }
      d0 = d1
    }
  }

  /// scores[r − first, j] = folded[r]·w[:, j] + offset[r] for the block's rows.
  private static func computeScores(
    _ input: SweepInput, rows: Range<Int>, vectors n: Int, product: Product,
    scratch: inout Scratch
  ) {
    input.folded.withUnsafeBufferPointer { folded in
      scratch.w.withUnsafeBufferPointer { w in
        scratch.scores.withUnsafeMutableBufferPointer { scores in
          let a = folded.baseAddress! + 7 * rows.lowerBound
          switch product {
          case .blas:
            BlockProduct.gemm(
              a, rows: rows.count, inner: 7, w.baseAddress!, columns: n, ldb: n,
              into: scores.baseAddress!, ldc: n)
            for (i, r) in rows.enumerated() {
              let o = input.offset[r]
              for j in 0..<n { scores[i * n + j] += o }
            }
          case .simd:
            for (i, r) in rows.enumerated() {
              let c = a + 7 * i
              let (c0, c1, c2, c3, c4, c5, c6) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6])
              let o = input.offset[r]
              let out = scores.baseAddress! + i * n
              for j in 0..<n {
                var s = o + c0 * w[j]
                s += c1 * w[n + j]
                s += c2 * w[2 * n + j]
                s += c3 * w[3 * n + j]
                s += c4 * w[4 * n + j]
                s += c5 * w[5 * n + j]
                s += c6 * w[6 * n + j]
                out[j] = s
              }
            }
          }
        }
      }
    }
  }

  /// The softmax (or greedy) over decision d's candidates for every vector of the block, and
  /// the sums it adds to.
  private static func accumulate(
    _ input: SweepInput, decision d: Int, blockStart: Int, vectors n: Int, firstPoint: Int,
    fields: Int, rewardCount: Int, policy: LoggingPolicy, inverseTemperature: Double,
    scratch: inout Scratch, output: SharedOutput
  ) {
    let log = input.decisions
    let rows = log.rows(of: d)
    let chosenRow = input.chosenRow[d]
    let chosenIndex = chosenRow - rows.lowerBound
    scratch.scores.withUnsafeBufferPointer { scores in
      let first = scores.baseAddress! + (rows.lowerBound - blockStart) * n
      for j in 0..<n {
        scratch.maximum[j] = first[j]
        scratch.argmax[j] = 0
      }
      for (i, _) in rows.enumerated().dropFirst() {
        let s = first + i * n
        for j in 0..<n where s[j] > scratch.maximum[j] {
          scratch.maximum[j] = s[j]
          scratch.argmax[j] = i
        }
      }
      for j in 0..<n {
        scratch.total[j] = 0
        scratch.chosen[j] = 0
      }
      for k in 0..<(rewardCount * n) { scratch.direct[k] = 0 }
      switch policy.kind {
      case .softmax:
        for (i, r) in rows.enumerated() {
          let s = first + i * n
          for j in 0..<n {
            let e = exp((s[j] - scratch.maximum[j]) * inverseTemperature)
            scratch.total[j] += e
            if i == chosenIndex { scratch.chosen[j] = e }
            for k in 0..<rewardCount { scratch.direct[k * n + j] += e * input.predictions[k][r] }
          }
        }
      case .greedy, .epsilonGreedy:
        // Probability 1 − ε (1 for greedy) on the first maximum, ε spread evenly.
        let epsilon = policy.kind == .greedy ? 0 : policy.epsilon
        let share = epsilon / Double(rows.count)
        for (i, r) in rows.enumerated() {
          for j in 0..<n {
            let e = (scratch.argmax[j] == i ? 1 - epsilon : 0) + share
            scratch.total[j] += e
            if i == chosenIndex { scratch.chosen[j] = e }
            for k in 0..<rewardCount { scratch.direct[k * n + j] += e * input.predictions[k][r] }
          }
        }
      }
    }
    let g = input.group[d]
    let logged = input.loggedPropensity[d]
    for j in 0..<n {
      let w = scratch.chosen[j] / scratch.total[j] / logged
      let base = ((firstPoint + j) * input.groups + g) * fields
      output.add(w, at: base)
      output.add(w * w, at: base + 1)
      output.maximize(w, at: base + 2)
      output.add(scratch.argmax[j] == chosenIndex ? 1 : 0, at: base + 3)
      output.add(1, at: base + 4)
      for k in 0..<rewardCount {
        let reward = input.rewards[k][d]
        guard !reward.isNaN else { continue }
        let direct = scratch.direct[k * n + j] / scratch.total[j]
        let at = base + SweepTotals.commonFields + SweepTotals.perReward * k
        output.add(1, at: at)
        output.add(w * reward, at: at + 1)
        output.add(w, at: at + 2)
        output.add(direct, at: at + 3)
        output.add(direct + w * (reward - input.predictions[k][chosenRow]), at: at + 4)
      }
    }
  }
}

/// The sums' memory, written by several threads at once, each to its own vectors' slots only.
private final class SharedOutput: @unchecked Sendable {
  let base: UnsafeMutablePointer<Double>
  init(_ base: UnsafeMutablePointer<Double>) { self.base = base }
  func add(_ value: Double, at i: Int) { base[i] += value }
  func maximize(_ value: Double, at i: Int) { base[i] = max(base[i], value) }
}

/// Hands out block numbers to the threads, each once.
private final class BlockCounter: Sendable {
  private let next = Atomic<Int>(0)
  func take(below count: Int) -> Int? {
    let taken = next.add(1, ordering: .relaxed).oldValue
    return taken < count ? taken : nil
  }
}

/// How widely final scores spread among a decision's candidates, as a function of the weights
/// (`docs/tuning.md`, "Why scale matters under a softmax"). With a fixed temperature, a wider
/// spread is a greedier policy; `SweepDesign`'s points are rescaled to spread as much as the
/// logging preferences' scores do, so that a sweep compares tastes at the same greediness.
///
/// With rows a (the folded components) and offsets o, centred within each decision, the
/// pooled within-decision variance of w·a + o is wᵀΣw + 2wᵀσ + v, with Σ the covariance of a,
/// σ that of a with o and v the variance of o.
package struct ScoreSpread: Sendable {
  package let covariance: [Double]
  package let crossCovariance: [Double]
  package let offsetVariance: Double

  /// The spread over `decisions` (indices into the input's log; every decision when nil).
  package init(_ input: SweepInput, decisions: [Int]? = nil) {
    let log = input.decisions
    var sigma = [Double](repeating: 0, count: 49)
    var cross = [Double](repeating: 0, count: 7)
    var v = 0.0
    var rows = 0
    for d in decisions ?? Array(0..<log.count) {
      let range = log.rows(of: d)
      guard range.count > 1 else { continue }
      var mean = [Double](repeating: 0, count: 7)
      var meanOffset = 0.0
      for r in range {
        for k in 0..<7 { mean[k] += input.folded[7 * r + k] }
        meanOffset += input.offset[r]
      }
      let n = Double(range.count)
      for k in 0..<7 { mean[k] /= n }
      meanOffset /= n
      for r in range {
        let o = input.offset[r] - meanOffset
        for i in 0..<7 {
          let ai = input.folded[7 * r + i] - mean[i]
          cross[i] += ai * o
          for j in 0..<7 { sigma[7 * i + j] += ai * (input.folded[7 * r + j] - mean[j]) }
        }
        v += o * o
      }
      rows += range.count
    }
    let scale = 1 / Double(max(1, rows))
    covariance = sigma.map { $0 * scale }
    crossCovariance = cross.map { $0 * scale }
    offsetVariance = v * scale
  }

  /// The pooled within-decision variance of the final scores under `w`.
  package func variance(_ w: ScoringWeights) -> Double {
    let (quadratic, linear) = forms(w)
    return quadratic + 2 * linear + offsetVariance
  }

  /// wᵀΣw and wᵀσ.
  private func forms(_ w: ScoringWeights) -> (quadratic: Double, linear: Double) {
    let x = w.vector
    var quadratic = 0.0
    var linear = 0.0
    for i in 0..<7 {
      linear += x[i] * crossCovariance[i]
      for j in 0..<7 { quadratic += x[i] * covariance[7 * i + j] * x[j] }
    }
    return (quadratic, linear)
  }

  /// `w` scaled by the s > 0 that gives its scores the variance `target`:
  /// s²·wᵀΣw + 2s·wᵀσ + v = target; `w` unchanged when no such s exists.
  package func matched(_ w: ScoringWeights, to target: Double) -> ScoringWeights {
    let (a, linear) = forms(w)
    let b = 2 * linear
    let c = offsetVariance - target
    guard a > 0 else { return w }
    let discriminant = b * b - 4 * a * c
    guard discriminant >= 0 else { return w }
    let s = (-b + discriminant.squareRoot()) / (2 * a)
    guard s > 0, s.isFinite else { return w }
    return ScoringWeights(vector: w.vector.map { $0 * s })
  }
}
