import ResonanceLinear
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The normal equations of the whitened, level-free blocks, the Gaussian posterior they give,
/// and the songs' session-clustered (sandwich) variances.
extension SongResponseModel {
  /// The normal equations A = Z̃ᵀZ̃, b = Z̃ᵀỹ, ỹᵀỹ of the blocks whitened by the noise model
  /// and freed of their levels, and the blocks to revisit.
  struct Design {
    /// One block's rows over the columns they touch, as measured: Z column-major
    /// (`z[column * count + row]`), the values, and what the noise model needs of each row.
    struct Block {
      var rows: Range<Int>
      var columns: [Int]
      var z: [Double]
      var y: [Double]
      var timesMs: [Int64]
      var readings: [Int]
      var count: Int { rows.count }
    }

    /// A block after the noise model: whitened (when the noise is not white) and with the
    /// block's level projected out. `z[column * count + row]` as in `Block`.
    struct Whitened {
      var z: [Double]
      var y: [Double]
      var count: Int
      subscript(row: Int, column: Int) -> Double { z[column * count + row] }
    }

    var minutes: Minutes
    var genreOf: (Int64) -> Int
    var songColumn: (Int64) -> Int?
    var p: Int
    var covariateStart: Int
    var blocks: [Block] = []
    var noise = NoiseModel.white
    var a: Matrix
    var b: [Double]
    var yy = 0.0
    /// Σ over blocks of log |R| + log(wᵀw): what the restricted likelihood needs beyond the
    /// residuals (R the block's noise correlation, w its whitened column of ones).
    var logDeterminant = 0.0

    init(
      minutes: Minutes, genreOf: @escaping (Int64) -> Int, songColumn: @escaping (Int64) -> Int?,
      p: Int, covariateStart: Int
    ) {
      self.minutes = minutes
      self.genreOf = genreOf
      self.songColumn = songColumn
      self.p = p
      self.covariateStart = covariateStart
      a = Matrix(rows: p, columns: p)
      b = .init(repeating: 0, count: p)
      let rows = minutes.rows
      var start = 0
      while start < rows.count {
        var end = start
        while end < rows.count, rows[end].block == rows[start].block { end += 1 }
        blocks.append(block(start..<end))
        start = end
      }
      accumulate()
    }

    /// The same design under another noise model.
    func with(noise: NoiseModel) -> Design {
      var copy = self
      copy.noise = noise
      copy.accumulate()
      return copy
    }

    /// A = Z̃ᵀZ̃, b = Z̃ᵀỹ, ỹᵀỹ over the whitened, level-free blocks.
    private mutating func accumulate() {
      var gram = Matrix(rows: p, columns: p)
      var moment = [Double](repeating: 0, count: p)
      var squares = 0.0
      logDeterminant = forEachBlock { block, white in
        let n = white.count
        for (x, cx) in block.columns.enumerated() {
          var m = 0.0
          for r in 0..<n { m += white.z[x * n + r] * white.y[r] }
          moment[cx] += m
          for (v, cv) in block.columns.enumerated() where v <= x {
            var sum = 0.0
            for r in 0..<n { sum += white.z[x * n + r] * white.z[v * n + r] }
            gram[cx, cv] += sum
            if v != x { gram[cv, cx] += sum }
          }
        }
        for r in 0..<n { squares += white.y[r] * white.y[r] }
      }
      a = gram
      b = moment
      yy = squares
    }

    /// The rows `range` (one block) over the columns they touch (genre and song columns
    /// merged with the covariates).
    private func block(_ range: Range<Int>) -> Block {
      let rows = minutes.rows[range]
      var position: [Int: Int] = [:]
      var columns: [Int] = []
      func index(_ column: Int) -> Int {
        if let i = position[column] { return i }
        position[column] = columns.count
        columns.append(column)
        return columns.count - 1
      }
      var entries: [(row: Int, column: Int, value: Double)] = []
      for (r, row) in rows.enumerated() {
        for entry in minutes.entries[row.firstEntry..<row.endEntry] {
          entries.append((r, index(genreOf(entry.song)), entry.exposure))
          if let column = songColumn(entry.song) {
            entries.append((r, index(column), entry.exposure))
          }
        }
        let covariates = [
          row.moving, row.meeting, row.workFocus, row.chosenDeviation ?? 0,
          row.chosenDeviation == nil ? 1 : 0,
        ]
        for (offset, value) in covariates.enumerated() where value != 0 {
          entries.append((r, index(covariateStart + offset), value))
        }
      }
      let n = rows.count
      var z = [Double](repeating: 0, count: n * columns.count)
      for entry in entries { z[entry.column * n + entry.row] += entry.value }
      return Block(
        rows: range, columns: columns, z: z, y: rows.map(\.y), timesMs: rows.map(\.timeMs),
        readings: rows.map(\.readings))
    }

    /// Calls `body` once per block with the block and its rows whitened by the noise model and
    /// with the block's level projected out. Returns Σ log |R| + log(wᵀw) over the blocks.
    @discardableResult
    func forEachBlock(_ body: (Block, Whitened) -> Void) -> Double {
      var logDeterminant = 0.0
      for block in blocks {
        let n = block.count
        let c = block.columns.count
        // Columns: Z, y, and the block's column of ones (its level).
        var stacked = block.z + block.y + [Double](repeating: 1, count: n)
        if noise != .white {
          var r = Matrix(rows: n, columns: n)
          for i in 0..<n {
            for j in 0..<i {
              let gap = Double(block.timesMs[i] - block.timesMs[j]) / 60_000
              r[i, j] = pow(noise.persistence, gap)
              r[j, i] = r[i, j]
            }
            r[i, i] = 1 + noise.readingNoise / Double(max(1, block.readings[i]))
          }
          // Positive definite: a correlation of a stationary process plus a non-negative
          // diagonal, at distinct times.
          guard let factor = try? Cholesky(r) else { preconditionFailure("noise correlation") }
          logDeterminant += factor.logDeterminant
          stacked = factor.whiten(stacked, columns: c + 2)
        }
        let w = stacked[(c + 1) * n..<(c + 2) * n]
        let ww = w.reduce(0.0) { $0 + $1 * $1 }
        logDeterminant += log(ww)
        for column in 0...c {
          var projection = 0.0
          for r in 0..<n { projection += stacked[column * n + r] * w[w.startIndex + r] }
          projection /= ww
          for r in 0..<n { stacked[column * n + r] -= projection * w[w.startIndex + r] }
        }
        body(
          block,
          Whitened(z: Array(stacked[0..<c * n]), y: Array(stacked[c * n..<(c + 1) * n]), count: n))
      }
      return logDeterminant
    }
  }

  /// Almost flat prior precisions: genres and songs variance 100, the covariates 10⁴.
  static func precision(g: Int, k: Int, songVariance: Double, genreVariance: Double) -> [Double] {
    [Double](repeating: 1 / genreVariance, count: g)
      + [Double](repeating: 1 / songVariance, count: k)
      + [Double](repeating: 1e-4, count: covariateCount)
  }

  /// The Gaussian posterior for prior precisions `precision` and noise variance σ²:
  /// P = A/σ² + diag(precision), mean = P⁻¹·b/σ².
  struct Posterior {
    var factor: Cholesky
    var mean: [Double]

    init(_ design: Design, precision: [Double], noiseVariance: Double) throws(LinearAlgebraError) {
      var p = design.a
      for i in 0..<design.p {
        for j in 0..<design.p { p[i, j] /= noiseVariance }
        p[i, i] += precision[i]
      }
      factor = try Cholesky(p)
      mean = factor.solve(design.b.map { $0 / noiseVariance })
    }
  }

  /// Each modelled song's contrast (the song against the mean song): its session-clustered
  /// sandwich variance over its model variance, under the almost unpenalised fit.
  static func sandwichRatios(_ design: Design, _ posterior: Posterior, sigma2: Double)
    -> [Int64: Double]
  {
    // Each cluster's score: Σ over its minutes of z̃·r/σ².
    var scores = [[Double]](
      repeating: [Double](repeating: 0, count: design.p), count: design.minutes.clusterCount)
    design.forEachBlock { block, white in
      for r in 0..<white.count {
        var fitted = 0.0
        for (x, c) in block.columns.enumerated() { fitted += white[r, x] * posterior.mean[c] }
        let residual = (white.y[r] - fitted) / sigma2
        let cluster = design.minutes.rows[block.rows.lowerBound + r].cluster
        for (x, c) in block.columns.enumerated() where white[r, x] != 0 {
          scores[cluster][c] += white[r, x] * residual
        }
      }
    }
    let modelled = Array(Set(design.minutes.entries.map(\.song))).filter {
      design.songColumn($0) != nil
    }.sorted()
    var meanRow = [Double](repeating: 0, count: design.p)
    for song in modelled {
      meanRow[design.genreOf(song)] += 1 / Double(modelled.count)
      meanRow[design.songColumn(song)!] += 1 / Double(modelled.count)
    }
    var ratios: [Int64: Double] = [:]
    for song in modelled {
      var c = meanRow.map { -$0 }
      c[design.genreOf(song)] += 1
      c[design.songColumn(song)!] += 1
      let u = posterior.factor.solve(c)
      let model = dot(c, u)
      let sandwich = scores.reduce(0.0) {
        let s = dot(u, $1); return $0 + s * s
      }
      if model > 0, sandwich.isFinite { ratios[song] = sandwich / model }
    }
    return ratios
  }
}
