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
  /// Vectors evaluated together: two registers of eight.
  package static let vectorBlock = 16
  /// Rows per block of decisions (one longer decision makes a block of its own).
  package static let rowBlock = 2048

  /// The sums of every vector of `weights` on `input`, each under a softmax at the log's
  /// temperature times its `temperatureFactors` entry (1 for every vector when nil; unused by
  /// the greedy policies).
  ///
  /// - Complexity: O(rows × vectors) time; O(vectors × groups × fields) extra memory for the
  ///   sums, and O(threads × rowBlock × 16) for the scores' scratch.
  ///
  /// `progress`, when given, is told how many decisions' worth of work is done out of
  /// `decisions × threads used` (each thread passes over every decision for its blocks), from
  /// the working threads, after each block of rows.
  package static func evaluate(
    _ input: SweepInput, weights: [ScoringWeights], temperatureFactors: [Double]? = nil,
    product: SweepProduct = .simd, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
  ) -> SweepTotals {
    var totals = SweepTotals(
      points: weights.count, groups: input.groups, rewards: input.rewards.count,
      grid: input.grid, linear: input.linear)
    guard !weights.isEmpty, input.count > 0 else { return totals }
    let blocks = (weights.count + vectorBlock - 1) / vectorBlock
    let columns = blocks * vectorBlock
    // W[k, j]: component k of vector j, row-major; the last block padded with copies of the
    // last vector, whose sums are dropped.
    var w = [Double](repeating: 0, count: 7 * columns)
    for j in 0..<columns {
      let v = weights[min(j, weights.count - 1)].vector
      for k in 0..<7 { w[k * columns + j] = v[k] }
    }
    precondition(
      temperatureFactors.map { $0.count == weights.count && $0.allSatisfy { $0 > 0 } } ?? true,
      "one positive temperature factor per vector")
    let temperature = input.decisions.policy.temperature
    let inverseTemperatures = (0..<columns).map { j in
      1 / (temperature * (temperatureFactors?[min(j, weights.count - 1)] ?? 1))
    }
    let layout = Layout(input)
    let threadCount = max(1, min(threads, blocks))
    let points = weights.count
    let done = RowCounter()
    let total = input.count * threadCount
    let rowsDone: (@Sendable (Int) -> Void)? =
      if let progress { { rows in progress(done.add(rows), total) } } else { nil }
    totals.values.withUnsafeMutableBufferPointer { sums in
      let output = SharedOutput(sums.baseAddress!)
      w.withUnsafeBufferPointer { w in
        inverseTemperatures.withUnsafeBufferPointer { inverse in
          layout.withPointers(
            input, weights: w.baseAddress!, inverseTemperatures: inverse.baseAddress!,
            columns: columns
          ) { view in
            DispatchQueue.concurrentPerform(iterations: threadCount) { t in
              let mine = Array(stride(from: t, to: blocks, by: threadCount))
              var worker = Worker(view, blocks: mine, product: product, rowsDone: rowsDone)
              worker.run()
              worker.write(to: output, points: points)
              worker.deallocate()
            }
          }
        }
      }
    }
    return totals
  }

  /// The input's per-decision values laid out for the kernel: rewards decision by decision,
  /// one value per reward (the predictions come laid out row by row already); for the linear
  /// sums, each decision's two one-hot positions (`LinearSums.oneHotPositions`).
  private struct Layout {
    let rewards: [Double]
    let oneHot: [Int]
    let longestDecision: Int

    init(_ input: SweepInput) {
      let count = input.rewards.count
      let log = input.decisions
      var rewards = [Double](repeating: .nan, count: max(1, input.count * count))
      for k in 0..<count {
        for d in 0..<input.count { rewards[d * count + k] = input.rewards[k][d] }
      }
      self.rewards = rewards
      var oneHot = [Int](repeating: 0, count: input.linear ? 2 * input.count : 1)
      for d in 0..<input.count where input.linear {
        (oneHot[2 * d], oneHot[2 * d + 1]) = LinearSums.oneHotPositions(log, decision: d)
      }
      self.oneHot = oneHot
      longestDecision =
        (0..<input.count).map { log.rowStart[$0 + 1] - log.rowStart[$0] }.max() ?? 0
    }

    func withPointers<R>(
      _ input: SweepInput, weights: UnsafePointer<Double>,
      inverseTemperatures: UnsafePointer<Double>, columns: Int, _ body: (View) -> R
    ) -> R {
      let log = input.decisions
      // One prediction slot when there is no reward, so that every pointer is valid.
      let predictions = input.predictions.isEmpty ? [0] : input.predictions
      return log.components.withUnsafeBufferPointer { components in
        log.smoothness.withUnsafeBufferPointer { smoothness in
          log.familiarityBoost.withUnsafeBufferPointer { boost in
            log.blends.withUnsafeBufferPointer { blends in
              rewards.withUnsafeBufferPointer { rewards in
                predictions.withUnsafeBufferPointer { predictions in
                  log.rowStart.withUnsafeBufferPointer { rowStart in
                    input.chosenRow.withUnsafeBufferPointer { chosenRow in
                      input.loggedPropensity.withUnsafeBufferPointer { logged in
                        input.group.withUnsafeBufferPointer { group in
                          oneHot.withUnsafeBufferPointer { oneHot in
                            body(
                              View(
                                components: components.baseAddress!,
                                smoothness: smoothness.baseAddress!, boost: boost.baseAddress!,
                                blends: blends.baseAddress!, rewards: rewards.baseAddress!,
                                predictions: predictions.baseAddress!, weights: weights,
                                inverseTemperatures: inverseTemperatures, columns: columns,
                                rowStart: rowStart.baseAddress!, chosenRow: chosenRow.baseAddress!,
                                logged: logged.baseAddress!, group: group.baseAddress!,
                                decisions: input.count, rewardCount: input.rewards.count,
                                groups: input.groups, longestDecision: longestDecision,
                                policy: log.policy, grid: input.grid, linear: input.linear,
                                oneHot: oneHot.baseAddress!))
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
      }
    }
  }

  /// Read-only pointers into the input, valid during `evaluate`, shared by its threads.
  private struct View: @unchecked Sendable {
    /// The log's components, seven a row, and per row its smoothness; per decision its
    /// familiarity boost and whether it blends: what the folded scores are made of
    /// (`SweepInput`).
    let components: UnsafePointer<Double>
    let smoothness: UnsafePointer<Double>
    let boost: UnsafePointer<Double>
    let blends: UnsafePointer<Bool>
    let rewards: UnsafePointer<Double>
    let predictions: UnsafePointer<Double>
    /// W[k, j], component k of vector j, with `columns` vectors a row.
    let weights: UnsafePointer<Double>
    /// Per vector (`columns` of them), 1 / its softmax temperature.
    let inverseTemperatures: UnsafePointer<Double>
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
    /// Whether to sum Switch-DR's and DRos's grid slots too.
    let grid: Bool
    /// Whether to sum the features of `LinearSums` in place of the predictions' terms, and
    /// per decision its two one-hot positions.
    let linear: Bool
    let oneHot: UnsafePointer<Int>
  }

  private typealias Lanes = SIMD8<Double>

  /// One thread's share: its vector blocks, their sums and its scratch.
  private struct Worker {
    let view: View
    let blocks: [Int]
    let product: SweepProduct
    let fields: Int
    /// Per block, group and field: two registers (vectors 0–7 and 8–15 of the block).
    let sums: UnsafeMutablePointer<Lanes>
    /// The scores of the rows in hand, two registers a row.
    let scores: UnsafeMutablePointer<Lanes>
    /// With BLAS, the folded rows of the block in hand (seven values a row) and their offsets.
    let folded: UnsafeMutablePointer<Double>
    let offsets: UnsafeMutablePointer<Double>
    /// Per reward, the direct method's running sum over a decision's candidates.
    let direct: UnsafeMutablePointer<Lanes>
    /// For the linear sums, the running Σ π(r)·x(r) of a decision's candidates, per feature.
    let means: UnsafeMutablePointer<Lanes>
    /// Told the decisions of each block of rows once they are done, for progress.
    let rowsDone: (@Sendable (Int) -> Void)?

    init(
      _ view: View, blocks: [Int], product: SweepProduct, rowsDone: (@Sendable (Int) -> Void)?
    ) {
      self.view = view
      self.blocks = blocks
      self.product = product
      self.rowsDone = rowsDone
      fields =
        SweepTotals.commonFields
        + SweepTotals.stride(grid: view.grid, linear: view.linear) * view.rewardCount
      let sumCount = 2 * max(1, blocks.count * view.groups * fields)
      sums = .allocate(capacity: sumCount)
      sums.initialize(repeating: Lanes(), count: sumCount)
      let scratchRows = max(SweepKernel.rowBlock, view.longestDecision)
      scores = .allocate(capacity: 2 * scratchRows)
      scores.initialize(repeating: Lanes(), count: 2 * scratchRows)
      let foldedRows = product == .blas ? scratchRows : 1
      folded = .allocate(capacity: 7 * foldedRows)
      folded.initialize(repeating: 0, count: 7 * foldedRows)
      offsets = .allocate(capacity: foldedRows)
      offsets.initialize(repeating: 0, count: foldedRows)
      direct = .allocate(capacity: 2 * max(1, view.rewardCount))
      direct.initialize(repeating: Lanes(), count: 2 * max(1, view.rewardCount))
      means = .allocate(capacity: 2 * LinearSums.features)
      means.initialize(repeating: Lanes(), count: 2 * LinearSums.features)
    }

    func deallocate() {
      sums.deallocate()
      scores.deallocate()
      folded.deallocate()
      offsets.deallocate()
      direct.deallocate()
      means.deallocate()
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
        rowsDone?(d1 - d0)
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
      // The product is tested with `if case`, not `==`: `SweepProduct` is Model's, and its
      // synthesized `==` would be a witness call across the module boundary, inside the row
      // loop, where a tag comparison is hoisted out of it.
      if case .blas = product {
        // Scores of the whole block: rows × 7 times 7 × 16, then the offsets.
        let rows = view.rowStart[range.upperBound] - blockStart
        for d in range {
          let blends = view.blends[d]
          for r in view.rowStart[d]..<view.rowStart[d + 1] {
            let i = r - blockStart
            for k in 0..<7 {
              folded[7 * i + k] = SweepInput.folded(
                view.components[7 * r + k], component: k, boost: view.boost[d], blends: blends)
            }
            offsets[i] = SweepInput.offset(smoothness: view.smoothness[r], blends: blends)
          }
        }
        scores.withMemoryRebound(to: Double.self, capacity: 16 * rows) { c in
          BlockProduct.gemm(
            folded, rows: rows, inner: 7, view.weights + j0, columns: 16, ldb: view.columns,
            into: c, ldc: 16)
        }
        for i in 0..<rows {
          let o = Lanes(repeating: offsets[i])
          scores[2 * i] += o
          scores[2 * i + 1] += o
        }
      }
      let inverseA = UnsafeRawPointer(view.inverseTemperatures + j0).loadUnaligned(as: Lanes.self)
      let inverseB = UnsafeRawPointer(view.inverseTemperatures + j0 + 8).loadUnaligned(
        as: Lanes.self)
      let rewardCount = view.rewardCount
      let linear = view.linear
      let stride = SweepTotals.stride(grid: view.grid, linear: linear)
      let share = TransitionController.baseShare
      for d in range {
        let r0 = view.rowStart[d]
        let n = view.rowStart[d + 1] - r0
        // The folding of `SweepInput`, written out: m·(sₖ·c) with m the blend's share (1
        // without a blend) is bit for bit sₖ·(m·c), and the boost multiplies the familiarity.
        let blends = view.blends[d]
        let m = blends ? share : 1
        let boost = view.boost[d]
        // The decision's scores, their maximum and its first row.
        let s = if case .blas = product { scores + 2 * (r0 - blockStart) } else { scores }
        var maxA = Lanes(repeating: -.infinity)
        var maxB = maxA
        var argA = SIMD8<Int64>()
        var argB = argA
        for i in 0..<n {
          let sA: Lanes
          let sB: Lanes
          if case .simd = product {
            let c = view.components + 7 * (r0 + i)
            let x0 = Lanes(repeating: m * c[0])
            let x1 = Lanes(repeating: m * c[1])
            let x2 = Lanes(repeating: m * (c[2] * boost))
            let x3 = Lanes(repeating: m * c[3])
            let x4 = Lanes(repeating: m * c[4])
            let x5 = Lanes(repeating: -(m * c[5]))
            let x6 = Lanes(repeating: -(m * c[6]))
            let o = Lanes(
              repeating: blends ? (1 - share) * view.smoothness[r0 + i] : 0)
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
        if linear { for f in 0..<(2 * LinearSums.features) { means[f] = Lanes() } }
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
            eA = VectorExp.exp((s[2 * i] - maxA) * inverseA)
            eB = VectorExp.exp((s[2 * i + 1] - maxB) * inverseB)
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
          if linear {
            let c = view.components + 7 * (r0 + i)
            for f in 0..<7 {
              let x = Lanes(repeating: c[f])
              means[2 * f] = means[2 * f].plusProduct(eA, x)
              means[2 * f + 1] = means[2 * f + 1].plusProduct(eB, x)
            }
            let x = Lanes(repeating: view.smoothness[r0 + i])
            means[14] = means[14].plusProduct(eA, x)
            means[15] = means[15].plusProduct(eB, x)
            continue
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
          if linear {
            let u = t + 2 * (SweepTotals.commonFields + stride * k)
            u[2 * EstimatorSums.measured] += one
            u[2 * EstimatorSums.measured + 1] += one
            u[2 * EstimatorSums.weightedReward] += wA * r
            u[2 * EstimatorSums.weightedReward + 1] += wB * r
            u[2 * EstimatorSums.weight] += wA
            u[2 * EstimatorSums.weight + 1] += wB
            let c = view.components + 7 * view.chosenRow[d]
            for f in 0..<LinearSums.features {
              let x = Lanes(repeating: f < 7 ? c[f] : view.smoothness[view.chosenRow[d]])
              let m = 2 * (LinearSums.means + f)
              u[m] += means[2 * f] / totalA
              u[m + 1] += means[2 * f + 1] / totalB
              let h = 2 * (LinearSums.chosen + f)
              u[h] = u[h].plusProduct(wA, x)
              u[h + 1] = u[h + 1].plusProduct(wB, x)
            }
            let context = 2 * (LinearSums.oneHot + view.oneHot[2 * d])
            u[context] += wA
            u[context + 1] += wB
            let need = 2 * (LinearSums.oneHot + view.oneHot[2 * d + 1])
            u[need] += wA
            u[need + 1] += wB
            continue
          }
          let residual = Lanes(
            repeating: reward - view.predictions[view.chosenRow[d] * rewardCount + k])
          let dmA = direct[2 * k] / totalA
          let dmB = direct[2 * k + 1] / totalB
          // The reward's `EstimatorSums`, two registers a slot.
          let u = t + 2 * (SweepTotals.commonFields + stride * k)
          u[2 * EstimatorSums.measured] += one
          u[2 * EstimatorSums.measured + 1] += one
          u[2 * EstimatorSums.weightedReward] += wA * r
          u[2 * EstimatorSums.weightedReward + 1] += wB * r
          u[2 * EstimatorSums.weight] += wA
          u[2 * EstimatorSums.weight + 1] += wB
          u[2 * EstimatorSums.direct] += dmA
          u[2 * EstimatorSums.direct + 1] += dmB
          u[2 * EstimatorSums.doublyRobust] += dmA + wA * residual
          u[2 * EstimatorSums.doublyRobust + 1] += dmB + wB * residual
          guard view.grid else { continue }
          let zero = Lanes()
          for (g, tau) in EstimatorSums.switchThresholds.enumerated() {
            let limit = Lanes(repeating: tau)
            let slot = 2 * EstimatorSums.switched(g)
            u[slot] += dmA + wA.replacing(with: zero, where: wA .> limit) * residual
            u[slot + 1] += dmB + wB.replacing(with: zero, where: wB .> limit) * residual
          }
          for (g, lambda) in EstimatorSums.shrinkages.enumerated() {
            let l = Lanes(repeating: lambda)
            let slot = 2 * EstimatorSums.shrunk(g)
            u[slot] += dmA + l * wA / (wA * wA + l) * residual
            u[slot + 1] += dmB + l * wB / (wB * wB + l) * residual
          }
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

/// The sums' memory, written by several threads at once, each to its own vectors' slots only.
private final class SharedOutput: @unchecked Sendable {
  let base: UnsafeMutablePointer<Double>
  init(_ base: UnsafeMutablePointer<Double>) { self.base = base }
}

/// The decisions the kernel's threads have passed over so far, for progress.
private final class RowCounter: Sendable {
  private let count = Atomic<Int>(0)

  /// Adds `rows` and returns the new count.
  func add(_ rows: Int) -> Int { count.add(rows, ordering: .relaxed).newValue }
}
