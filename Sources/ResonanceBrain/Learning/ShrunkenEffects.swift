/// Beyond the seed: each song's effect on a signal (its plays' heart-rate or HRV changes) as a
/// partially pooled estimate with a 90% interval, so a report can tell a real effect from noise.
///
/// A normal–normal model, fitted by the method of moments (empirical Bayes):
/// - a play's change y = θ_song + noise, noise variance σ² (the within-song variance, pooled
///   over songs with two or more plays);
/// - θ_song ~ Normal(m_genre, τ²): the song's genre mean (itself shrunk toward the person's
///   mean with the same τ²), τ² the between-song variance left after noise,
///   max(variance of song means − mean σ²/n, σ²/100);
/// - the estimate is the posterior mean (n·ȳ/σ² + m/τ²) / (n/σ² + 1/τ²), its standard deviation
///   the posterior one, and the interval the estimate ± 1.645 standard deviations.
///
/// A song with few plays stays near its genre; one with many plays near its own mean.
package enum ShrunkenEffects {
  /// One play's change (bpm or ms), with its song and the group it pools toward (a genre).
  package struct Observation: Sendable, Equatable {
    package var songID: Int64
    package var group: String
    package var value: Double

    package init(songID: Int64, group: String, value: Double) {
      self.songID = songID
      self.group = group
      self.value = value
    }
  }

  package struct Estimate: Sendable, Equatable {
    package var songID: Int64
    package var plays: Int
    /// The plain mean of the song's changes.
    package var rawMean: Double
    /// The mean it is pooled toward (its group's, shrunk toward the person's).
    package var priorMean: Double
    package var estimate: Double
    package var sd: Double
    package var low90: Double
    package var high90: Double

    /// Whether the 90% interval leaves out zero.
    package var isDistinguishableFromZero: Bool { low90 > 0 || high90 < 0 }
  }

  /// The z value of a two-sided 90% normal interval.
  package static let z90 = 1.6448536269514722

  /// Estimates for every song with at least one observation, ordered by song id. Fewer than
  /// three observations in all, or no spread among them, give none.
  package static func estimate(_ observations: [Observation]) -> [Estimate] {
    let finite = observations.filter { $0.value.isFinite }
    guard finite.count >= 3 else { return [] }
    var bySong: [Int64: (group: String, values: [Double])] = [:]
    for o in finite { bySong[o.songID, default: (o.group, [])].values.append(o.value) }
    let total = finite.map(\.value).reduce(0, +)
    let personMean = total / Double(finite.count)

    // σ²: pooled within-song variance; the overall variance when no song has two plays.
    var within = 0.0
    var degrees = 0
    for (_, song) in bySong where song.values.count > 1 {
      let mean = song.values.reduce(0, +) / Double(song.values.count)
      within += song.values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
      degrees += song.values.count - 1
    }
    let overall =
      finite.map { ($0.value - personMean) * ($0.value - personMean) }.reduce(0, +)
      / Double(finite.count - 1)
    let sigma2 = degrees >= 2 ? within / Double(degrees) : overall
    guard sigma2 > 0 else { return [] }

    // τ²: the spread of song means beyond what noise explains.
    let means = bySong.values.map { $0.values.reduce(0, +) / Double($0.values.count) }
    let meanOfMeans = means.reduce(0, +) / Double(means.count)
    let spread =
      means.count > 1
      ? means.map { ($0 - meanOfMeans) * ($0 - meanOfMeans) }.reduce(0, +)
        / Double(means.count - 1) : 0
    let noise =
      bySong.values.map { sigma2 / Double($0.values.count) }.reduce(0, +) / Double(bySong.count)
    let tau2 = max(spread - noise, sigma2 / 100)

    // Group means, shrunk toward the person's mean: a group is a song-sized unit here.
    var groupValues: [String: [Double]] = [:]
    for o in finite { groupValues[o.group, default: []].append(o.value) }
    let groupMean = groupValues.mapValues { values -> Double in
      let n = Double(values.count)
      let mean = values.reduce(0, +) / n
      return (n * mean / sigma2 + personMean / tau2) / (n / sigma2 + 1 / tau2)
    }

    return bySong.keys.sorted().map { id in
      let song = bySong[id]!
      let n = Double(song.values.count)
      let raw = song.values.reduce(0, +) / n
      let prior = groupMean[song.group] ?? personMean
      let precision = n / sigma2 + 1 / tau2
      let estimate = (n * raw / sigma2 + prior / tau2) / precision
      let sd = (1 / precision).squareRoot()
      return Estimate(
        songID: id, plays: song.values.count, rawMean: raw, priorMean: prior, estimate: estimate,
        sd: sd, low90: estimate - z90 * sd, high90: estimate + z90 * sd)
    }
  }
}
