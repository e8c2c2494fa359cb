import Dispatch
import Foundation
import ResonanceBrain
import ResonanceLinear
import ResonanceModel

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
/// (`docs/performance.md`, "The sweep kernel").
///
/// Vectors go in blocks of 16, two `SIMD8<Double>` registers wide, and threads (one per core)
/// take every T-th block. A thread walks the log a block of decisions at a time, and for each
/// of its vector blocks and each decision: computes the candidates' final scores for the 16
/// vectors at once (seven fused multiply-adds per row, or one BLAS `dgemm` per block of
/// decisions), keeps them in a scratch the size of the decision, takes the maximum, the softmax
/// through a vectorised exp (`VectorExp`), the direct method's sum over candidates and the
/// logged choice's probability, and adds the decision's terms to the block's sums for the
/// decision's group. The score matrix of all vectors over all rows never exists. Each vector's
/// sums are added in decision order by one thread, so the results do not depend on the thread
/// count.
package enum SweepKernel {
  /// How a block's scores are computed: BLAS `dgemm` into the scratch, or seven fused
  /// multiply-adds per score in registers. `docs/performance.md` has both.
  package enum Product: String, Sendable, CaseIterable {
    case blas
    case simd
  }

  /// Vectors evaluated together: two registers of eight.
  package static let vectorBlock = 16
  /// Rows per block of decisions (one longer decision makes a block of its own).
  package static let rowBlock = 2048

  /// The sums of every vector of `weights` on `input`.
  ///
  /// - Complexity: O(rows × vectors) time; O(vectors × groups × fields) extra memory for the
  ///   sums, and O(threads × rowBlock × 16) for the scores' scratch.
  package static func evaluate(
    _ input: SweepInput, weights: [ScoringWeights], product: Product = .simd,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> SweepTotals {
    var totals = SweepTotals(
      points: weights.count, groups: input.groups, rewards: input.rewards.count)
    guard !weights.isEmpty, input.decisions.count > 0 else { return totals }
    let blocks = (weights.count + vectorBlock - 1) / vectorBlock
    let columns = blocks * vectorBlock
    // W[k, j]: component k of vector j, row-major; the last block padded with copies of the
    // last vector, whose sums are dropped.
    var w = [Double](repeating: 0, count: 7 * columns)
    for j in 0..<columns {
      let v = weights[min(j, weights.count - 1)].vector
      for k in 0..<7 { w[k * columns + j] = v[k] }
    }
    let layout = Layout(input)
    let threadCount = max(1, min(threads, blocks))
    let points = weights.count
    totals.values.withUnsafeMutableBufferPointer { sums in
      let output = SharedOutput(sums.baseAddress!)
      w.withUnsafeBufferPointer { w in
        layout.withPointers(input, weights: w.baseAddress!, columns: columns) { view in
          DispatchQueue.concurrentPerform(iterations: threadCount) { t in
            let mine = Array(stride(from: t, to: blocks, by: threadCount))
            var worker = Worker(view, blocks: mine, product: product)
            worker.run()
            worker.write(to: output, points: points)
            worker.deallocate()
          }
        }
      }
    }
    return totals
  }

  /// The input's per-decision and per-row values, laid out for the kernel: rewards decision by
  /// decision and predictions row by row, each with one value per reward.
  private struct Layout {
    let rewards: [Double]
    let predictions: [Double]
    let longestDecision: Int

    init(_ input: SweepInput) {
      let count = input.rewards.count
      let log = input.decisions
      var rewards = [Double](repeating: .nan, count: max(1, log.count * count))
      var predictions = [Double](repeating: 0, count: max(1, log.rows * count))
      for k in 0..<count {
        for d in 0..<log.count { rewards[d * count + k] = input.rewards[k][d] }
        for r in 0..<log.rows { predictions[r * count + k] = input.predictions[k][r] }
      }
      self.rewards = rewards
      self.predictions = predictions
      longestDecision = (0..<log.count).map { log.rowStart[$0 + 1] - log.rowStart[$0] }.max() ?? 0
    }

    func withPointers<R>(
      _ input: SweepInput, weights: UnsafePointer<Double>, columns: Int, _ body: (View) -> R
    ) -> R {
      let log = input.decisions
      return input.folded.withUnsafeBufferPointer { folded in
        input.offset.withUnsafeBufferPointer { offset in
          rewards.withUnsafeBufferPointer { rewards in
            predictions.withUnsafeBufferPointer { predictions in
              log.rowStart.withUnsafeBufferPointer { rowStart in
                input.chosenRow.withUnsafeBufferPointer { chosenRow in
                  input.loggedPropensity.withUnsafeBufferPointer { logged in
                    input.group.withUnsafeBufferPointer { group in
                      body(
                        View(
                          folded: folded.baseAddress!, offset: offset.baseAddress!,
                          rewards: rewards.baseAddress!, predictions: predictions.baseAddress!,
                          weights: weights, columns: columns, rowStart: rowStart.baseAddress!,
                          chosenRow: chosenRow.baseAddress!,
                          logged: logged.baseAddress!, group: group.baseAddress!,
                          decisions: log.count, rewardCount: input.rewards.count,
                          groups: input.groups, longestDecision: longestDecision,
                          policy: log.policy))
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Read-only pointers into the input, valid during `evaluate`, shared by its threads.
  private struct View: @unchecked Sendable {
    let folded: UnsafePointer<Double>
    let offset: UnsafePointer<Double>
    let rewards: UnsafePointer<Double>
    let predictions: UnsafePointer<Double>
    /// W[k, j], component k of vector j, with `columns` vectors a row.
    let weights: UnsafePointer<Double>
    let columns: Int
    let rowStart: UnsafePointer<Int>
    let chosenRow: UnsafePointer<Int>
    let logged: UnsafePointer<Double>
    let group: UnsafePointer<Int>
    let decisions: Int
    let rewardCount: Int
    let groups: Int
    let longestDecision: Int
    let policy: LoggingPolicy
  }

  private typealias Lanes = SIMD8<Double>

  /// One thread's share: its vector blocks, their sums and its scratch.
  private struct Worker {
    let view: View
    let blocks: [Int]
    let product: Product
    let fields: Int
    /// Per block, group and field: two registers (vectors 0–7 and 8–15 of the block).
    let sums: UnsafeMutablePointer<Lanes>
    /// The scores of the rows in hand, two registers a row.
    let scores: UnsafeMutablePointer<Lanes>
    /// Per reward, the direct method's running sum over a decision's candidates.
    let direct: UnsafeMutablePointer<Lanes>

    init(_ view: View, blocks: [Int], product: Product) {
      self.view = view
      self.blocks = blocks
      self.product = product
      fields = SweepTotals.commonFields + SweepTotals.perReward * view.rewardCount
      let sumCount = 2 * max(1, blocks.count * view.groups * fields)
      sums = .allocate(capacity: sumCount)
      sums.initialize(repeating: Lanes(), count: sumCount)
      let scratchRows = max(SweepKernel.rowBlock, view.longestDecision)
      scores = .allocate(capacity: 2 * scratchRows)
      scores.initialize(repeating: Lanes(), count: 2 * scratchRows)
      direct = .allocate(capacity: 2 * max(1, view.rewardCount))
      direct.initialize(repeating: Lanes(), count: 2 * max(1, view.rewardCount))
    }

    func deallocate() {
      sums.deallocate()
      scores.deallocate()
      direct.deallocate()
    }

    /// Every decision, a block of decisions at a time, for each of the thread's vector blocks.
    mutating func run() {
      var d0 = 0
      while d0 < view.decisions {
        var d1 = d0 + 1
        while d1 < view.decisions,
          view.rowStart[d1 + 1] - view.rowStart[d0] <= SweepKernel.rowBlock
        {
          d1 += 1
        }
        for slot in blocks.indices {
          decisions(d0..<d1, block: slot)
        }
        d0 = d1
      }
    }

    /// The decisions of one block of the log for the `slot`-th of the thread's vector blocks.
    private func decisions(_ range: Range<Int>, block slot: Int) {
      let j0 = blocks[slot] * SweepKernel.vectorBlock
      func column(_ k: Int, _ j: Int) -> Lanes {
        UnsafeRawPointer(view.weights + k * view.columns + j).loadUnaligned(as: Lanes.self)
      }
      let a = (column(0, j0), column(1, j0), column(2, j0), column(3, j0))
      let a2 = (column(4, j0), column(5, j0), column(6, j0))
      let b = (column(0, j0 + 8), column(1, j0 + 8), column(2, j0 + 8), column(3, j0 + 8))
      let b2 = (column(4, j0 + 8), column(5, j0 + 8), column(6, j0 + 8))
      let blockStart = view.rowStart[range.lowerBound]
      if product == .blas {
        // Scores of the whole block: rows × 7 times 7 × 16, then the offsets.
        let rows = view.rowStart[range.upperBound] - blockStart
        scores.withMemoryRebound(to: Double.self, capacity: 16 * rows) { c in
          BlockProduct.gemm(
            view.folded + 7 * blockStart, rows: rows, inner: 7, view.weights + j0,
            columns: 16, ldb: view.columns, into: c, ldc: 16)
        }
        for i in 0..<rows {
          let o = Lanes(repeating: view.offset[blockStart + i])
          scores[2 * i] += o
          scores[2 * i + 1] += o
        }
      }
      let inverseTemperature = Lanes(repeating: 1 / view.policy.temperature)
      let rewardCount = view.rewardCount
      for d in range {
        let r0 = view.rowStart[d]
        let n = view.rowStart[d + 1] - r0
        // The decision's scores, their maximum and its first row.
        let s = product == .blas ? scores + 2 * (r0 - blockStart) : scores
        var maxA = Lanes(repeating: -.infinity)
        var maxB = maxA
        var argA = SIMD8<Int64>()
        var argB = argA
        for i in 0..<n {
          let sA: Lanes
          let sB: Lanes
          if product == .simd {
            let c = view.folded + 7 * (r0 + i)
            let x0 = Lanes(repeating: c[0])
            let x1 = Lanes(repeating: c[1])
            let x2 = Lanes(repeating: c[2])
            let x3 = Lanes(repeating: c[3])
            let x4 = Lanes(repeating: c[4])
            let x5 = Lanes(repeating: c[5])
            let x6 = Lanes(repeating: c[6])
            let o = Lanes(repeating: view.offset[r0 + i])
            var y = o.plusProduct(x0, a.0).plusProduct(x1, a.1).plusProduct(x2, a.2)
            sA = y.plusProduct(x3, a.3).plusProduct(x4, a2.0).plusProduct(x5, a2.1)
              .plusProduct(x6, a2.2)
            y = o.plusProduct(x0, b.0).plusProduct(x1, b.1).plusProduct(x2, b.2)
            sB = y.plusProduct(x3, b.3).plusProduct(x4, b2.0).plusProduct(x5, b2.1)
              .plusProduct(x6, b2.2)
            s[2 * i] = sA
            s[2 * i + 1] = sB
          } else {
            sA = s[2 * i]
            sB = s[2 * i + 1]
          }
          let aboveA = sA .> maxA
          let aboveB = sB .> maxB
          maxA.replace(with: sA, where: aboveA)
          maxB.replace(with: sB, where: aboveB)
          argA.replace(with: Int64(i), where: aboveA)
          argB.replace(with: Int64(i), where: aboveB)
        }
        // The target's probabilities (unnormalised), their total and the DM sums.
        var totalA = Lanes()
        var totalB = Lanes()
        var chosenA = Lanes()
        var chosenB = Lanes()
        for k in 0..<(2 * rewardCount) { direct[k] = Lanes() }
        let chosenIndex = view.chosenRow[d] - r0
        let chosenLanes = SIMD8<Int64>(repeating: Int64(chosenIndex))
        // Softmax: exp((s − max)/T). Greedy and ε-greedy: probability 1 − ε (1 for greedy) on
        // the first maximum, ε spread evenly.
        let softmax = view.policy.kind == .softmax
        let epsilon = view.policy.kind == .epsilonGreedy ? view.policy.epsilon : 0
        let share = Lanes(repeating: epsilon / Double(n))
        let best = Lanes(repeating: 1 - epsilon)
        for i in 0..<n {
          let eA: Lanes
          let eB: Lanes
          if softmax {
            eA = VectorExp.exp((s[2 * i] - maxA) * inverseTemperature)
            eB = VectorExp.exp((s[2 * i + 1] - maxB) * inverseTemperature)
          } else {
            let row = SIMD8<Int64>(repeating: Int64(i))
            eA = share + best.replacing(with: 0, where: argA .!= row)
            eB = share + best.replacing(with: 0, where: argB .!= row)
          }
          totalA += eA
          totalB += eB
          if i == chosenIndex {
            chosenA = eA
            chosenB = eB
          }
          let q = view.predictions + (r0 + i) * rewardCount
          for k in 0..<rewardCount {
            let qk = Lanes(repeating: q[k])
            direct[2 * k] = direct[2 * k].plusProduct(eA, qk)
            direct[2 * k + 1] = direct[2 * k + 1].plusProduct(eB, qk)
          }
        }
        // The decision's terms, added to its group's sums.
        let logged = Lanes(repeating: view.logged[d])
        let wA = chosenA / totalA / logged
        let wB = chosenB / totalB / logged
        let t = sums + 2 * ((slot * view.groups + view.group[d]) * fields)
        t[0] += wA
        t[1] += wB
        t[2] += wA * wA
        t[3] += wB * wB
        t[4] = pointwiseMax(t[4], wA)
        t[5] = pointwiseMax(t[5], wB)
        let one = Lanes(repeating: 1)
        t[6] += one.replacing(with: 0, where: argA .!= chosenLanes)
        t[7] += one.replacing(with: 0, where: argB .!= chosenLanes)
        t[8] += one
        t[9] += one
        for k in 0..<rewardCount {
          let reward = view.rewards[d * rewardCount + k]
          guard !reward.isNaN else { continue }
          let r = Lanes(repeating: reward)
          let residual = Lanes(
            repeating: reward - view.predictions[view.chosenRow[d] * rewardCount + k])
          let dmA = direct[2 * k] / totalA
          let dmB = direct[2 * k + 1] / totalB
          let u = t + 2 * (SweepTotals.commonFields + SweepTotals.perReward * k)
          u[0] += one
          u[1] += one
          u[2] += wA * r
          u[3] += wB * r
          u[4] += wA
          u[5] += wB
          u[6] += dmA
          u[7] += dmB
          u[8] += dmA + wA * residual
          u[9] += dmB + wB * residual
        }
      }
    }

    /// The sums of the thread's vectors into `output`, in `SweepTotals`'s layout; padding
    /// vectors are dropped.
    func write(to output: SharedOutput, points: Int) {
      for (slot, block) in blocks.enumerated() {
        for g in 0..<view.groups {
          let t = sums + 2 * ((slot * view.groups + g) * fields)
          for lane in 0..<SweepKernel.vectorBlock {
            let point = block * SweepKernel.vectorBlock + lane
            guard point < points else { break }
            let base = (point * view.groups + g) * fields
            for f in 0..<fields {
              output.base[base + f] = t[2 * f + lane / 8][lane % 8]
            }
          }
        }
      }
    }
  }
}

/// exp over eight lanes at once, for x ≤ 0 (the softmax's exponents): x = k·ln 2 + r with
/// |r| ≤ ln 2 / 2 (Cody and Waite's two-part ln 2), e^r by its Taylor polynomial to degree 13
/// in two Horner chains, 2^k from the exponent bits; 0 below −708. Its largest relative error
/// against glibc's `exp` over [−708, 0] is 3.2e-16 (`SweepKernelTests`). glibc's own vector
/// exp (libmvec) needs its vector calling convention, which Swift cannot call.
package enum VectorExp {
  @inline(__always)
  package static func exp(_ x: SIMD8<Double>) -> SIMD8<Double> {
    typealias V = SIMD8<Double>
    // 1.5·2⁵², added and taken away, rounds x/ln 2 to an integer kept in the low bits.
    let shifter = V(repeating: 6_755_399_441_055_744.0)
    let kd = shifter.plusProduct(x, V(repeating: 1.442_695_040_888_963_4))
    let k = kd - shifter
    let r = x.plusProduct(k, V(repeating: -6.931_471_803_691_238_164_90e-01))
      .plusProduct(k, V(repeating: -1.908_214_929_270_587_700_02e-10))
    // The polynomial as two independent Horner chains in r², even and odd terms, so that
    // the processor overlaps them: e^r = E(r²) + r·O(r²).
    let r2 = r * r
    var even = V(repeating: 1.0 / 479_001_600)  // 1/12!
    even = V(repeating: 1.0 / 3_628_800).plusProduct(even, r2)
    even = V(repeating: 1.0 / 40_320).plusProduct(even, r2)
    even = V(repeating: 1.0 / 720).plusProduct(even, r2)
    even = V(repeating: 1.0 / 24).plusProduct(even, r2)
    even = V(repeating: 0.5).plusProduct(even, r2)
    even = V(repeating: 1).plusProduct(even, r2)
    var odd = V(repeating: 1.0 / 6_227_020_800)  // 1/13!
    odd = V(repeating: 1.0 / 39_916_800).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 362_880).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 5_040).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 120).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 6).plusProduct(odd, r2)
    odd = V(repeating: 1).plusProduct(odd, r2)
    let p = even.plusProduct(odd, r)
    let bits = unsafeBitCast(kd, to: SIMD8<UInt64>.self)
    let scale = unsafeBitCast(
      (bits &+ SIMD8<UInt64>(repeating: 1023)) &<< SIMD8<UInt64>(repeating: 52), to: V.self)
    return (p * scale).replacing(with: 0, where: x .< V(repeating: -708))
  }
}

extension SIMD8 where Scalar == Double {
  /// self + a·b: one fused multiply-add when the build targets a processor that has them
  /// (Package.swift defines RESONANCE_FMA), else a multiply and an add — without hardware FMA,
  /// `addingProduct` is a call to libm's exact `fma` for every lane, 50 times slower.
  @inline(__always)
  func plusProduct(_ a: Self, _ b: Self) -> Self {
    #if RESONANCE_FMA
      addingProduct(a, b)
    #else
      self + a * b
    #endif
  }
}

/// The sums' memory, written by several threads at once, each to its own vectors' slots only.
private final class SharedOutput: @unchecked Sendable {
  let base: UnsafeMutablePointer<Double>
  init(_ base: UnsafeMutablePointer<Double>) { self.base = base }
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
