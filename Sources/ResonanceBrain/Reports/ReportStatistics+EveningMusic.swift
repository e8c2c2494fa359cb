import ResonanceModel

/// Which evening music goes with which nights: what was played in each evening, and the
/// evenings with music split by it (`docs/reports.md`, `sleep.md`).
extension ReportStatistics {
  /// A split at zero stands when each side holds at least this share of the evenings;
  /// otherwise the heart-rate split is at the median.
  package static let balancedShare = 0.25

  /// `evenings` with what was played in each: the minutes of session plays heard in the
  /// `eveningHours` before bedtime, the mean heart-rate effect and tempo of their songs
  /// weighted by those minutes, and the share of the minutes whose song has a heart-rate
  /// estimate.
  ///
  /// A play counts for the part of its heard span (start to the end of what was heard) inside
  /// the window. Songs without a heart-rate estimate (`signal == .heartRate`) are left out of
  /// the mean effect, and songs without a feature estimate out of the mean tempo (each song's
  /// `bpm.value`, the best the store has: the library's, else the genre's estimate).
  ///
  /// - Complexity: O(*p* log *p* + *n* · *k*) for *p* plays, *n* evenings and *k* plays that
  ///   can reach into one evening.
  package static func withEveningSongs(
    _ evenings: [EveningNight], plays: [SessionPlay], estimates: [SongEffectEstimate],
    features: [SongFeatureEstimate]
  ) -> [EveningNight] {
    let effects = Dictionary(
      estimates.filter { $0.signal == .heartRate && $0.estimate.isFinite }.map {
        ($0.songID, $0.estimate)
      }, uniquingKeysWith: { a, _ in a })
    let tempi = Dictionary(
      features.filter { $0.bpm.value.isFinite }.map { ($0.songID, $0.bpm.value) },
      uniquingKeysWith: { a, _ in a })
    let ordered = plays.filter { $0.heard.endMs > $0.heard.startMs }.sorted {
      $0.heard.startMs < $1.heard.startMs
    }
    let longest = ordered.map { $0.heard.endMs - $0.heard.startMs }.max() ?? 0
    return evenings.map { evening in
      let bed = evening.night.bedtime.millisecondsSinceEpoch
      let from = bed - Int64(eveningHours * 3_600_000)
      var heard = 0.0
      var estimated = (minutes: 0.0, sum: 0.0)
      var timed = (minutes: 0.0, sum: 0.0)
      // No play that starts before `from − longest` can reach into the window.
      var i = firstIndex(ordered, startingAtOrAfter: from - longest)
      while i < ordered.count, ordered[i].heard.startMs < bed {
        let play = ordered[i]
        i += 1
        let overlap = Double(min(play.heard.endMs, bed) - max(play.heard.startMs, from)) / 60_000
        guard overlap > 0 else { continue }
        heard += overlap
        if let effect = effects[play.songID] {
          estimated.minutes += overlap
          estimated.sum += overlap * effect
        }
        if let bpm = tempi[play.songID] {
          timed.minutes += overlap
          timed.sum += overlap * bpm
        }
      }
      var evening = evening
      evening.heardMinutes = heard
      evening.heartRateEffect = estimated.minutes > 0 ? estimated.sum / estimated.minutes : nil
      evening.estimatedShare = heard > 0 ? estimated.minutes / heard : nil
      evening.tempoBPM = timed.minutes > 0 ? timed.sum / timed.minutes : nil
      return evening
    }
  }

  /// The evenings with music split by their songs' heart-rate effect and by their tempo, each
  /// with the nights after the two parts compared (`split(_:by:)`).
  package static func musicSplits(_ evenings: [EveningNight]) -> [EveningSplit] {
    [split(evenings, by: .heartRateEffect), split(evenings, by: .tempo)]
  }

  /// The evenings with music that have `measure`'s figure, split in two, and the nights after
  /// the first part (below the threshold) compared with those after the second for every
  /// outcome of `sleepComparisons`, the same way and under the same `minimumNights` rule.
  ///
  /// The heart-rate split is at zero — songs that lower heart rate against the person's
  /// average song against the rest — unless fewer than `balancedShare` of the evenings would
  /// be on one side, when it is at the median, as the tempo split always is. Only the figures
  /// choose the threshold, never the nights' outcomes.
  static func split(_ evenings: [EveningNight], by measure: EveningSplit.Measure) -> EveningSplit {
    let withMusic = evenings.filter(\.eveningMusic)
    let scored = withMusic.compactMap { e -> (EveningNight, Double)? in
      let figure = measure == .heartRateEffect ? e.heartRateEffect : e.tempoBPM
      return figure.flatMap { $0.isFinite ? (e, $0) : nil }
    }
    let values = scored.map(\.1)
    var rule = EveningSplit.Rule.median
    var threshold = Statistics.median(values)
    if measure == .heartRateEffect {
      let belowZero = values.filter { $0 < 0 }.count
      let atOrAboveZero = values.count - belowZero
      if Double(min(belowZero, atOrAboveZero)) >= balancedShare * Double(values.count) {
        rule = .zero
        threshold = values.isEmpty ? nil : 0
      } else {
        rule = .medianForBalance(belowZero: belowZero, atOrAboveZero: atOrAboveZero)
      }
    }
    let groups = scored.map { e, x in (e, isFirst: threshold.map { x < $0 } ?? false) }
    let below = groups.filter(\.isFirst).count
    var covered: Double?
    if measure == .heartRateEffect {
      let heard = scored.map(\.0.heardMinutes).reduce(0, +)
      let estimated = scored.map { e, _ in e.heardMinutes * (e.estimatedShare ?? 0) }
        .reduce(0, +)
      covered = heard > 0 ? estimated / heard : nil
    }
    return EveningSplit(
      measure: measure, rule: rule, threshold: threshold, eveningsWithMusic: withMusic.count,
      below: below, atOrAbove: groups.count - below, coveredShare: covered,
      comparisons: groupComparisons(groups, stream: measure.rawValue + "-"))
  }

  /// The index of the first play heard from `ms` on (plays in start order).
  static func firstIndex(_ plays: [SessionPlay], startingAtOrAfter ms: Int64) -> Int {
    var low = 0
    var high = plays.count
    while low < high {
      let mid = (low + high) / 2
      if plays[mid].heard.startMs < ms { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
