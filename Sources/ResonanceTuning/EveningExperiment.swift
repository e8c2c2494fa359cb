import ResonanceModel

/// One evening of an `evening-music` experiment as the store shows it: the night after it
/// and the music heard in the window before that night's bedtime.
package struct EveningRecord: Sendable, Equatable {
  /// The evening's local day, days since 1970-01-01.
  package var day: Int64
  /// The night's minutes asleep; nil when the night has no asleep or stage records.
  package var asleepMinutes: Double?
  /// The night's bedtime as a local clock time after the evening's midnight, minutes.
  package var bedtimeMinutes: Double
  /// Minutes of music heard (from every source, overlaps counted once) in the window before
  /// the night's bedtime.
  package var musicMinutes: Double

  package init(day: Int64, asleepMinutes: Double?, bedtimeMinutes: Double, musicMinutes: Double) {
    self.day = day
    self.asleepMinutes = asleepMinutes
    self.bedtimeMinutes = bedtimeMinutes
    self.musicMinutes = musicMinutes
  }

  /// Each night of `nights` with the minutes of `spans` (heard spans, UTC milliseconds) in
  /// the `windowMinutes` before its bedtime, by evening day.
  ///
  /// - Complexity: O(n log n + s log s) for n nights and s spans.
  package static func evenings(
    nights: [NightSleep], spans: [(start: Int64, end: Int64)], windowMinutes: Int
  ) -> [Int64: EveningRecord] {
    // The union of the spans: a play logged by two sources is heard once.
    var merged: [(start: Int64, end: Int64)] = []
    for span in spans.filter({ $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
      if let last = merged.last, span.start <= last.end {
        merged[merged.count - 1].end = max(last.end, span.end)
      } else {
        merged.append(span)
      }
    }
    var result: [Int64: EveningRecord] = [:]
    for night in nights {
      let bed = night.bedtime.millisecondsSinceEpoch
      let from = bed - Int64(windowMinutes) * 60_000
      var heard: Int64 = 0
      var i = merged.partitioningIndex(where: { $0.end > from })
      while i < merged.count, merged[i].start < bed {
        heard += min(merged[i].end, bed) - max(merged[i].start, from)
        i += 1
      }
      let local = bed + Int64(night.bedtime.utcOffsetSeconds) * 1000
      result[night.eveningDay] = EveningRecord(
        day: night.eveningDay, asleepMinutes: night.asleepMs.map { Double($0) / 60_000 },
        bedtimeMinutes: Double(local - night.eveningDay * 86_400_000) / 60_000,
        musicMinutes: Double(heard) / 60_000)
    }
    return result
  }
}

/// The effect of music in the hour before bed on that night's minutes asleep, from an
/// `evening-music` experiment's randomisation (`docs/experiments.md`, "Evening music"): the
/// calm arm's evenings against the no-music arm's, each cycle's contrast in minutes asleep
/// divided by its contrast in evenings with music, so that hand-played music on no-music
/// evenings (and calm evenings the person went to bed before the music began) dilute neither
/// the estimate nor its interval.
///
/// The interval inverts the confidence sequence (Anderson–Rubin, Fieller): θ is in it when the
/// sequence of the cycles' contrasts of *asleep − θ · music* covers 0. With the cycles'
/// contrasts y (minutes asleep) and d (share of evenings with music), their means ȳ, d̄ and
/// sums of squares S, and the sequence's margin m(c) with the prior as four cycles' worth,
/// that is the θ with
///
///     (ȳ − θ d̄)² ≤ K · (S_yy − 2θ S_yd + θ² S_dd + w s₀²),   K = m(c)² / (c − 1 + w)
///
/// a quadratic in θ: an interval when d̄² > K·S_dd (the arms' music differs clearly), else
/// unbounded (nil ends). It holds at every cycle at once, as the sequence does.
package struct MusicEffect: Sendable, Equatable {
  package var cycles: Int
  /// The mean cycle contrasts: minutes asleep and share of evenings with music.
  package var asleepContrast: Double
  package var musicContrast: Double
  /// ȳ / d̄: minutes asleep per evening with music.
  package var estimate: Double?
  package var lower: Double?
  package var upper: Double?

  /// From the cycles' contrasts `y` (minutes asleep) and `d` (share with music) of the same
  /// cycles; nil with fewer than `ExperimentAnalysis.minimumCycles`.
  package init?(
    asleep y: [Double], music d: [Double], sequence: ConfidenceSequence,
    prior: (sd: Double, weight: Double)?
  ) {
    let c = y.count
    guard c == d.count, c >= ExperimentAnalysis.minimumCycles else { return nil }
    let n = Double(c)
    let yBar = y.reduce(0, +) / n
    let dBar = d.reduce(0, +) / n
    var syy = 0.0
    var syd = 0.0
    var sdd = 0.0
    for i in 0..<c {
      syy += (y[i] - yBar) * (y[i] - yBar)
      syd += (y[i] - yBar) * (d[i] - dBar)
      sdd += (d[i] - dBar) * (d[i] - dBar)
    }
    let w = prior?.weight ?? 0
    let s0 = prior?.sd ?? 0
    let m = sequence.margin(c)
    let k = m * m / (n - 1 + w)
    cycles = c
    asleepContrast = yBar
    musicContrast = dBar
    estimate = dBar != 0 ? yBar / dBar : nil
    // a θ² + b θ + e ≤ 0.
    let a = dBar * dBar - k * sdd
    let b = -2 * (yBar * dBar - k * syd)
    let e = yBar * yBar - k * (syy + w * s0 * s0)
    let discriminant = b * b - 4 * a * e
    if a > 0, discriminant >= 0 {
      let root = discriminant.squareRoot()
      lower = (-b - root) / (2 * a)
      upper = (-b + root) / (2 * a)
    }
  }
}
