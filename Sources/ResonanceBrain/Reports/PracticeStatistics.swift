import ResonanceLinear
import ResonanceModel

/// Is breathing practice helping the person's HRV? The three figures `breathing.md` states and
/// `validate` checks against what `synth` planted (`docs/reports.md`, "Breathing and HRV").
package enum PracticeStatistics {
  /// The change within sessions, practice days against other days, and the dose–response.
  ///
  /// - Parameters:
  ///   - sessions: The breathing sessions, each with the local time it started.
  ///   - nights: Nights with their overnight SDNN (`ReportStatistics.withOvernightVitals`).
  ///   - vitals: Days with their resting heart rate.
  ///   - workoutDays: Local days on which a workout started.
  package static func effects(
    sessions: [BreathingSessionResult], nights: [NightRecord], vitals: [DailyVitals],
    workoutDays: Set<CalendarDay>
  ) -> PracticeEffects {
    let practised = Dictionary(
      grouping: sessions.compactMap { $0.started.map(practiceDay) }, by: { $0 }
    ).mapValues(\.count)
    return PracticeEffects(
      withinSession: withinSession(sessions),
      days: dayComparisons(
        practised: practised, nights: nights, vitals: vitals, workoutDays: workoutDays),
      dose: doseResponse(practised: practised, nights: nights))
  }

  /// The hours after midnight during which a session still counts for the day before: a
  /// session at 00:20 after a late evening is that evening's practice, and its night is the
  /// one that follows.
  package static let lateEveningHours: Int64 = 4

  /// The day a session counts for: its local day, or the day before when it started in the
  /// first `lateEveningHours` after midnight.
  static func practiceDay(_ started: Timestamp) -> CalendarDay {
    CalendarDay(
      Timestamp(
        millisecondsSinceEpoch: started.millisecondsSinceEpoch - lateEveningHours * 3_600_000,
        utcOffsetSeconds: started.utcOffsetSeconds))
  }

  /// SDNN after less before, over the sessions with both: the mean change with a 90%
  /// Student-t interval on n − 1 degrees of freedom (the sessions are taken as independent:
  /// each is a minute or two apart from the person's other readings).
  static func withinSession(_ sessions: [BreathingSessionResult]) -> PracticeEffects.WithinSession?
  {
    let pairs = sessions.compactMap { s -> (Double, Double)? in
      guard let before = s.result.hrvBefore, let after = s.result.hrvAfter,
        before.isFinite, after.isFinite
      else { return nil }
      return (before, after)
    }
    guard pairs.count >= 2 else { return nil }
    let n = Double(pairs.count)
    let (mean, sd) = Statistics.meanAndSD(pairs.map { $0.1 - $0.0 })
    let half = StudentDistribution.quantile(0.95, degreesOfFreedom: n - 1) * sd / n.squareRoot()
    return .init(
      sessions: pairs.count, meanBefore: pairs.reduce(0) { $0 + $1.0 } / n,
      meanAfter: pairs.reduce(0) { $0 + $1.1 } / n, change: mean, low90: mean - half,
      high90: mean + half)
  }

  /// Each day from the first with practice to the last: that night's overnight SDNN and the
  /// next morning's resting heart rate, on practice days against the others, adjusted by
  /// least squares for the weekday and a workout that day. A comparison needs
  /// `PracticeEffects.minimumDays` days on each side.
  static func dayComparisons(
    practised: [CalendarDay: Int], nights: [NightRecord], vitals: [DailyVitals],
    workoutDays: Set<CalendarDay>
  ) -> [PracticeEffects.DayComparison] {
    guard let first = practised.keys.min(), let last = practised.keys.max() else { return [] }
    let nightSDNN = Dictionary(
      nights.compactMap { n in n.overnightHRV.map { (n.evening, $0) } },
      uniquingKeysWith: { a, _ in a })
    let resting = Dictionary(
      vitals.compactMap { v in v.restingHeartRate.map { (v.day, $0) } },
      uniquingKeysWith: { a, _ in a })
    let days = (first.daysSinceEpoch...last.daysSinceEpoch).map(CalendarDay.init(daysSinceEpoch:))
    let outcomes: [(String, String, String, (CalendarDay) -> Double?)] = [
      ("night_sdnn_ms", "that night's overnight SDNN", "ms", { nightSDNN[$0] }),
      (
        "morning_resting_hr_bpm", "the next morning's resting heart rate", "bpm",
        { resting[CalendarDay(daysSinceEpoch: $0.daysSinceEpoch + 1)] }
      ),
    ]
    return outcomes.map { key, label, unit, value in
      let rows = days.compactMap {
        day -> (practice: Bool, weekday: Int, workout: Bool, y: Double)? in
        guard let y = value(day), y.isFinite else { return nil }
        return (
          practised[day] != nil, ReportStatistics.weekday(day), workoutDays.contains(day), y
        )
      }
      let with = rows.filter(\.practice).map(\.y)
      let without = rows.filter { !$0.practice }.map(\.y)
      var comparison = PracticeEffects.DayComparison(
        outcome: key, label: label, unit: unit, daysWith: with.count,
        daysWithout: without.count, meanWith: Statistics.mean(with),
        meanWithout: Statistics.mean(without))
      guard with.count >= PracticeEffects.minimumDays,
        without.count >= PracticeEffects.minimumDays,
        let fit = ReportStatistics.adjustedEffect(
          rows.map { row in
            (
              treated: row.practice,
              covariates: (1...6).map { row.weekday == $0 ? 1.0 : 0 } + [row.workout ? 1 : 0],
              y: row.y
            )
          })
      else { return comparison }
      comparison.adjusted = fit.estimate
      comparison.low90 = fit.estimate - fit.t90 * fit.se
      comparison.high90 = fit.estimate + fit.t90 * fit.se
      comparison.se = fit.se
      return comparison
    }
  }

  /// Weeks (Monday to Sunday) from the first with practice to the last: the week's sessions
  /// against the mean overnight SDNN of its nights (at least three), the least-squares slope
  /// with a 90% Student-t interval on weeks − 2 degrees of freedom.
  static func doseResponse(practised: [CalendarDay: Int], nights: [NightRecord])
    -> PracticeEffects.DoseResponse?
  {
    let monday = ReportStatistics.monday(of:)
    guard let first = practised.keys.min().map(monday), let last = practised.keys.max().map(monday)
    else { return nil }
    var sessions: [CalendarDay: Int] = [:]
    for (day, count) in practised { sessions[monday(day), default: 0] += count }
    var sdnn: [CalendarDay: [Double]] = [:]
    for night in nights {
      guard let value = night.overnightHRV, value.isFinite else { continue }
      let week = monday(night.evening)
      if week >= first && week <= last { sdnn[week, default: []].append(value) }
    }
    let points = sdnn.keys.sorted().compactMap { week -> (CalendarDay, Int, Double)? in
      guard let values = sdnn[week], values.count >= 3, let mean = Statistics.mean(values) else {
        return nil
      }
      return (week, sessions[week] ?? 0, mean)
    }
    guard points.count >= PracticeEffects.minimumWeeks,
      Set(points.map(\.1)).count > 1,
      let fit = try? RidgeRegression.fit(
        X: Matrix(points.map { [Double($0.1)] }), y: points.map(\.2), lambda: 0)
    else { return nil }
    let slope = fit.coefficients[0]
    let half =
      StudentDistribution.quantile(0.95, degreesOfFreedom: Double(points.count - 2))
      * fit.standardErrors[1]
    return .init(
      weeks: points.count, slope: slope, low90: slope - half, high90: slope + half,
      points: points.map { (week: $0.0, sessions: $0.1, sdnn: $0.2) })
  }
}
