import ResonanceLinear
import ResonanceModel

/// The statistics `resonance report` shows: every comparison, trend and ranking a page states
/// is computed here and reaches the pages as Model values (`docs/reports.md` gives the
/// methods).
package enum ReportStatistics {
  /// The window before bedtime that counts as the evening, and the music in it that makes an
  /// "evening with music".
  package static let eveningHours = 4.0
  package static let eveningMusicMinutes = 10.0
  /// Bootstrap replicates and seed: fixed, so a store always gives the same intervals.
  package static let replicates = 2000
  package static let bootstrapSeed: UInt64 = 0x51EE_9BAD
  /// The fewest nights in each group a comparison needs.
  package static let minimumNights = 5
  /// z for a two-sided 90% interval.
  static let z90 = 1.6448536269514722

  // MARK: Nights

  /// `nights` with their mean heart rate and SDNN between bedtime and waking, from readings
  /// in time order (readings taken while moving are left out).
  package static func withOvernightVitals(
    _ nights: [NightRecord], heartRate: [SignalReading], hrv: [SignalReading]
  ) -> [NightRecord] {
    nights.map { night in
      var night = night
      let span = night.bedtime.millisecondsSinceEpoch..<night.wake.millisecondsSinceEpoch
      night.overnightHeartRate = mean(of: heartRate, in: span)
      night.overnightHRV = mean(of: hrv, in: span)
      return night
    }
  }

  /// Each night beside its evening: the minutes of music in the `eveningHours` before bedtime
  /// (from the sessions' spans), the evening's weekday, and whether a workout started that
  /// local day.
  package static func evenings(
    _ nights: [NightRecord], sessions: [SessionRecord], workouts: [TimeSpan]
  ) -> [EveningNight] {
    let ordered = sessions.sorted { $0.start < $1.start }
    return nights.map { night in
      let bed = night.bedtime.millisecondsSinceEpoch
      let from = bed - Int64(eveningHours * 3_600_000)
      var minutes = 0.0
      for session in ordered {
        let s = session.start.millisecondsSinceEpoch
        let e = session.end.millisecondsSinceEpoch
        if s >= bed { break }
        let overlap = min(e, bed) - max(s, from)
        if overlap > 0 { minutes += Double(overlap) / 60_000 }
      }
      let weekday = weekday(night.evening)
      let offset = night.bedtime.utcOffsetSeconds
      let workout = workouts.contains {
        CalendarDay(Timestamp(millisecondsSinceEpoch: $0.startMs, utcOffsetSeconds: offset))
          == night.evening
      }
      return EveningNight(
        night: night, eveningMinutes: minutes, eveningMusic: minutes >= eveningMusicMinutes,
        weekday: weekday, workoutThatDay: workout)
    }
  }

  /// Nights after an evening with music against the others, for time asleep, deep-sleep
  /// share, and overnight heart rate and SDNN: the difference of the means with a seeded
  /// bootstrap 90% interval over nights, and the same difference adjusted by least squares for
  /// the evening's weekday, a workout that day and the bedtime's clock time. An outcome with fewer than `minimumNights` in
  /// either group gets counts and no difference.
  package static func sleepComparisons(_ evenings: [EveningNight]) -> [GroupComparison] {
    groupComparisons(evenings.map { ($0, $0.eveningMusic) }, stream: "")
  }

  /// The outcomes every sleep comparison reports: the CSV's name, the page's, the unit, and
  /// the night's value.
  static var outcomes: [(String, String, String, (NightRecord) -> Double?)] {
    [
      ("asleep_h", "time asleep", "h", { $0.asleepHours }),
      ("deep_share_pct", "deep sleep", "% of staged sleep", { $0.deepShare.map { $0 * 100 } }),
      ("overnight_hr_bpm", "overnight heart rate", "bpm", { $0.overnightHeartRate }),
      ("overnight_sdnn_ms", "overnight HRV (SDNN)", "ms", { $0.overnightHRV }),
    ]
  }

  /// The nights after two groups of evenings compared for each of `outcomes`, as
  /// `sleepComparisons` describes: "with" is the group `isFirst` marks. `stream` names the
  /// bootstrap's random stream (with the outcome), so that each comparison draws its own.
  static func groupComparisons(_ evenings: [(EveningNight, isFirst: Bool)], stream: String)
    -> [GroupComparison]
  {
    outcomes.map { name, label, unit, value in
      let rows = evenings.compactMap { e, isFirst in
        value(e.night).map { (evening: e, isFirst: isFirst, value: $0) }
      }.filter { $0.value.isFinite }
      let with = rows.filter(\.isFirst).map(\.value)
      let without = rows.filter { !$0.isFirst }.map(\.value)
      var comparison = GroupComparison(
        outcome: name, label: label, unit: unit, nightsWith: with.count,
        nightsWithout: without.count, meanWith: Statistics.mean(with),
        meanWithout: Statistics.mean(without))
      guard with.count >= minimumNights, without.count >= minimumNights,
        let a = comparison.meanWith, let b = comparison.meanWithout
      else { return comparison }
      comparison.difference = a - b
      let interval = bootstrapDifference(rows.map { ($0.isFirst, $0.value) }, stream: stream + name)
      comparison.low90 = interval?.low
      comparison.high90 = interval?.high
      if let adjusted = adjustedDifference(rows) {
        comparison.adjusted = adjusted.estimate
        comparison.adjustedLow90 = adjusted.estimate - z90 * adjusted.se
        comparison.adjustedHigh90 = adjusted.estimate + z90 * adjusted.se
        comparison.adjustedSE = adjusted.se
      }
      return comparison
    }
  }

  /// The 5th and 95th percentiles of the difference of group means (first less second) over
  /// resamples of the nights (with replacement, as many as there are); resamples missing a
  /// group are redrawn.
  static func bootstrapDifference(_ rows: [(Bool, Double)], stream: String) -> (
    low: Double, high: Double
  )? {
    guard rows.count > 1 else { return nil }
    var rng = SplitMix64(seed: bootstrapSeed, stream: "sleep-" + stream)
    var differences: [Double] = []
    differences.reserveCapacity(replicates)
    var attempts = 0
    while differences.count < replicates, attempts < replicates * 4 {
      attempts += 1
      var sums = (first: 0.0, second: 0.0)
      var counts = (first: 0, second: 0)
      for _ in rows.indices {
        let (isFirst, value) = rows[Int(rng.next() % UInt64(rows.count))]
        if isFirst {
          sums.first += value
          counts.first += 1
        } else {
          sums.second += value
          counts.second += 1
        }
      }
      guard counts.first > 0, counts.second > 0 else { continue }
      differences.append(
        sums.first / Double(counts.first) - sums.second / Double(counts.second))
    }
    guard differences.count == replicates else { return nil }
    differences.sort()
    return (Statistics.quantile(differences, 0.05), Statistics.quantile(differences, 0.95))
  }

  /// The first-group coefficient of y ~ 1 + first + weekday + workout + bedtime by ordinary
  /// least squares (`adjustedEffect`), the weekday as six indicators against Monday and the
  /// bedtime as its local clock time in hours (`EveningNight.bedtimeHours`), with its standard
  /// error.
  static func adjustedDifference(_ rows: [(evening: EveningNight, isFirst: Bool, value: Double)])
    -> (estimate: Double, se: Double)?
  {
    adjustedEffect(
      rows.map { row in
        (
          treated: row.isFirst,
          covariates: (1...6).map { row.evening.weekday == $0 ? 1.0 : 0 }
            + [row.evening.workoutThatDay ? 1 : 0, row.evening.bedtimeHours],
          y: row.value
        )
      }
    ).map { ($0.estimate, $0.se) }
  }

  // MARK: Sessions

  /// Sessions by the week (Monday to Sunday, local) they started in: how many, their mean
  /// quality (over those that have one) and mean skip rate.
  package static func weeklyQuality(_ sessions: [SessionRecord]) -> [WeeklyQuality] {
    var weeks: [CalendarDay: [SessionRecord]] = [:]
    for session in sessions {
      let day = CalendarDay(session.start)
      weeks[monday(of: day), default: []].append(session)
    }
    return weeks.keys.sorted().map { week in
      let list = weeks[week] ?? []
      return WeeklyQuality(
        week: week, sessions: list.count, meanQuality: Statistics.mean(list.compactMap(\.quality)),
        meanSkipRate: Statistics.mean(list.map(\.skipRate)) ?? 0)
    }
  }

  /// The least-squares slope of the weekly mean quality on the week, per week, with a 90%
  /// interval; nil with fewer than three weeks that have a quality.
  package static func qualityTrend(_ weeks: [WeeklyQuality]) -> LinearTrend? {
    let points = weeks.compactMap { w in
      w.meanQuality.map { (Double(w.week.daysSinceEpoch) / 7, $0) }
    }
    guard points.count >= 3 else { return nil }
    let origin = points[0].0
    let x = Matrix(points.map { [$0.0 - origin] })
    guard let fit = try? RidgeRegression.fit(X: x, y: points.map(\.1), lambda: 0) else {
      return nil
    }
    let slope = fit.coefficients[0]
    let se = fit.standardErrors[1]
    return LinearTrend(
      slope: slope, low90: slope - z90 * se, high90: slope + z90 * se, points: points.count,
      origin: origin, intercept: fit.intercept ?? 0)
  }

  /// Sessions, how many have a quality, and their mean quality.
  package static func overview(_ sessions: [SessionRecord]) -> SessionOverview {
    let rated = sessions.compactMap(\.quality)
    return SessionOverview(
      sessions: sessions.count, rated: rated.count, meanQuality: Statistics.mean(rated))
  }

  /// The `listed` best and worst sessions by quality (ties by id), and, between the best
  /// quarter of the rated sessions and the worst, the mean of each part and how many of each
  /// context; nil with fewer than 2 × `listed` rated sessions.
  package static func contrast(_ sessions: [SessionRecord], listed: Int = 5) -> SessionContrast? {
    let ordered = sessions.filter { $0.quality != nil }
      .sorted { ($0.quality ?? 0, -$0.id) > ($1.quality ?? 0, -$1.id) }
    guard ordered.count >= 2 * listed else { return nil }
    let quarter = max(1, ordered.count / 4)
    let best = Array(ordered.prefix(quarter))
    let worst = Array(ordered.suffix(quarter))
    let parts: [(String, (SessionRecord) -> Double?)] = [
      ("skip_rate", { $0.skipRate }), ("engagement", { $0.engagement }),
      ("hr_delta_bpm", { $0.heartRateChange }), ("sdnn_delta_ms", { $0.hrvChange }),
      ("next_night_sleep_score", { $0.sleepScore }), ("length_min", { $0.minutes }),
      ("plays", { Double($0.plays) }),
    ]
    return SessionContrast(
      best: Array(ordered.prefix(listed)), worst: Array(ordered.suffix(listed).reversed()),
      quarter: quarter,
      parts: parts.map { name, key in
        .init(
          name: name, best: Statistics.mean(best.compactMap(key)),
          worst: Statistics.mean(worst.compactMap(key)))
      },
      contexts: Set(sessions.map(\.context)).sorted { $0.rawValue < $1.rawValue }.map { c in
        .init(
          context: c, best: best.filter { $0.context == c }.count,
          worst: worst.filter { $0.context == c }.count)
      })
  }

  /// How far hiding HRV moves the mean quality of the sessions that measured it
  /// (`SessionQualityScorer.maskingShift`, over `sessions` alone), with the parts rebuilt from
  /// the stored figures; nil when no session measured HRV.
  package static func hrvMasking(_ sessions: [SessionRecord]) -> QualityMasking? {
    let measured = sessions.map { s in
      SessionQualityScorer.quality(
        skipRate: s.skipRate, hrvDeltaMs: s.hrvChange, engagement: s.engagement,
        sleepScore: s.sleepScore)
    }
    let contexts = sessions.map(\.context)
    return SessionQualityScorer.maskingShift(
      SessionQualityScorer.completed(measured, contexts: contexts), contexts: contexts,
      component: .hrv
    ).map {
      QualityMasking(
        sessions: $0.sessions, predictedShift: $0.predicted, renormalisedShift: $0.renormalised)
    }
  }

  /// The days in a few figures: counts, means, and the first four weeks against the last four
  /// when the days span at least eight weeks.
  package static func overview(_ days: [DailyVitals]) -> VitalsOverview {
    func earlyLate(_ value: (DailyVitals) -> Double?) -> (early: Double, late: Double)? {
      guard let first = days.first?.day.daysSinceEpoch, let last = days.last?.day.daysSinceEpoch,
        last - first >= 56,
        let early = Statistics.mean(
          days.filter { $0.day.daysSinceEpoch < first + 28 }.compactMap(value)),
        let late = Statistics.mean(
          days.filter { $0.day.daysSinceEpoch > last - 28 }.compactMap(value))
      else { return nil }
      return (early, late)
    }
    let resting = days.compactMap(\.restingHeartRate)
    let sdnn = days.compactMap(\.sdnn)
    return VitalsOverview(
      days: days.count, restingDays: resting.count, sdnnDays: sdnn.count,
      rmssdDays: days.filter { $0.rmssd != nil }.count, meanResting: Statistics.mean(resting),
      meanSDNN: Statistics.mean(sdnn), restingEarlyLate: earlyLate(\.restingHeartRate),
      sdnnEarlyLate: earlyLate(\.sdnn))
  }

  // MARK: Heart and HRV by day

  /// Each local day with a resting heart rate, an SDNN reading or a beat list: Health's
  /// resting heart rate (its mean that day) or else the lowest hourly mean of at least three
  /// readings taken at rest; the mean SDNN; the mean RMSSD of the beat lists (Malik's
  /// artefact rule). Readings are placed in local time through `offsets`.
  package static func dailyVitals(
    resting: [SignalSample], heartRate: [SignalReading], hrv: [SignalReading],
    beatLists: [BeatList], offsets: UTCOffsetTimeline
  ) -> [DailyVitals] {
    func day(_ ms: Int64) -> CalendarDay {
      CalendarDay(
        Timestamp(millisecondsSinceEpoch: ms, utcOffsetSeconds: offsets.offset(atMs: ms) ?? 0))
    }
    var restingByDay: [CalendarDay: [Double]] = [:]
    for sample in resting { restingByDay[day(sample.timeMs), default: []].append(sample.value) }
    var hourly: [CalendarDay: [Int64: [Double]]] = [:]
    for reading in heartRate where !reading.isMoving && reading.value.isFinite {
      let ms = reading.timeMs
      let local = ms + Int64(offsets.offset(atMs: ms) ?? 0) * 1000
      hourly[day(ms), default: [:]][local / 3_600_000, default: []].append(reading.value)
    }
    var sdnnByDay: [CalendarDay: [Double]] = [:]
    for reading in hrv where reading.value.isFinite {
      sdnnByDay[day(reading.timeMs), default: []].append(reading.value)
    }
    var rmssdByDay: [CalendarDay: [Double]] = [:]
    for list in beatLists {
      let series = HRVSeries(
        rr: RRSeries.intervals(from: list.beats), handling: .malik, file: nil, start: list.start)
      if let rmssd = series.metrics.rmssd {
        rmssdByDay[CalendarDay(list.start), default: []].append(rmssd)
      }
    }
    let days = Set(restingByDay.keys).union(hourly.keys).union(sdnnByDay.keys)
      .union(rmssdByDay.keys).sorted()
    return days.compactMap { d in
      var resting = Statistics.mean(restingByDay[d] ?? [])
      var source: DailyVitals.RestingSource? = resting == nil ? nil : .health
      if resting == nil {
        resting = (hourly[d] ?? [:]).values.filter { $0.count >= 3 }.compactMap {
          Statistics.mean($0)
        }.min()
        source = resting == nil ? nil : .lowestHourAtRest
      }
      let sdnn = sdnnByDay[d] ?? []
      let rmssd = rmssdByDay[d] ?? []
      guard resting != nil || !sdnn.isEmpty || !rmssd.isEmpty else { return nil }
      return DailyVitals(
        day: d, restingHeartRate: resting, restingSource: source, sdnn: Statistics.mean(sdnn),
        sdnnReadings: sdnn.count, rmssd: Statistics.mean(rmssd), beatLists: rmssd.count)
    }
  }

  // MARK: Songs

  /// Per context (in the app's order), the songs the learning loop scores highest for calm and
  /// for energy there, among those with at least `minimumSamples` plays in it: the top `count`
  /// by calm score among songs whose calm score is above 0 and at least their energy score, and
  /// by energy score among those whose energy score is above 0 and above their calm score —
  /// so no song is in both lists, and none with a score of 0 or less. Ties by more plays, then
  /// by id.
  package static func rankings(
    effects: [SongEffect], songs: [SongRecord], minimumSamples: Int = 3, count: Int = 5
  ) -> [(context: ActivityContext, calming: [RankedSong], energising: [RankedSong])] {
    let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
    return ActivityContext.allCases.compactMap { context in
      let rows = effects.filter { $0.context == context && $0.effect.sampleCount >= minimumSamples }
        .compactMap { e in
          byID[e.songID].map {
            RankedSong(
              song: $0, context: context, calm: e.effect.calm, energy: e.effect.energy,
              samples: e.effect.sampleCount)
          }
        }
      guard !rows.isEmpty else { return nil }
      func top(_ key: (RankedSong) -> Double, _ isIn: (RankedSong) -> Bool) -> [RankedSong] {
        Array(
          rows.filter { key($0) > 0 && isIn($0) }.sorted {
            (key($0), $0.samples, -$0.song.id) > (key($1), $1.samples, -$1.song.id)
          }.prefix(count))
      }
      return (context, top(\.calm) { $0.calm >= $0.energy }, top(\.energy) { $0.energy > $0.calm })
    }
  }

  // MARK: Helpers

  /// The Monday of `day`'s week (Monday to Sunday).
  package static func monday(of day: CalendarDay) -> CalendarDay {
    CalendarDay(daysSinceEpoch: day.daysSinceEpoch - Int64(weekday(day)))
  }

  /// Monday 0 … Sunday 6 (1970-01-01 was a Thursday).
  package static func weekday(_ day: CalendarDay) -> Int {
    Int(((day.daysSinceEpoch + 3) % 7 + 7) % 7)
  }

  /// The mean of the readings at rest in `span` (readings in time order).
  static func mean(of readings: [SignalReading], in span: Range<Int64>) -> Double? {
    var low = 0
    var high = readings.count
    while low < high {
      let mid = (low + high) / 2
      if readings[mid].timeMs < span.lowerBound { low = mid + 1 } else { high = mid }
    }
    var sum = 0.0
    var n = 0
    var i = low
    while i < readings.count, readings[i].timeMs < span.upperBound {
      if !readings[i].isMoving, readings[i].value.isFinite {
        sum += readings[i].value
        n += 1
      }
      i += 1
    }
    return n > 0 ? sum / Double(n) : nil
  }
}
