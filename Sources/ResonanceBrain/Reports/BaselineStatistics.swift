import ResonanceLinear
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A person's normal range and sustained changes for a daily signal (`hrv.md`;
/// `docs/reports.md`, "Baselines and sustained changes").
///
/// - **Normal range** (HRV4Training's, after Plews and Buchheit): the baseline is the mean of
///   the values of the 60 days before, the smallest worthwhile change (SWC) half their standard
///   deviation, and the range baseline ± SWC. It needs 30 values in the window.
/// - **Weeks outside**: a week's mean (three values or more) against the range of the 60 days
///   before its Monday.
/// - **Sustained change**: the split that best fits y = a + b·t + δ·[t ≥ τ] against the line
///   y = a + b·t (every τ leaving `minimumSegment` values each side), judged by the F
///   statistic of δ divided by (1 + φ)/(1 − φ), φ the lag-1 autocorrelation of the step fit's
///   residuals — so that the slow wander of a heart is not mistaken for a step. It is flagged
///   when that exceeds the statistic's 1% point for an unknown break with 15% trimming and
///   the line in the model, 14.5 (`SignalBaseline.supFThreshold`), and |δ| is at least the SWC
///   of the values before τ. The line in the model is what keeps a slope from being called a
///   step.
package enum BaselineStatistics {
  static let supFThreshold = SignalBaseline.supFThreshold
  static let minimumSegment = SignalBaseline.minimumSegment

  /// Each local day's morning value: ln of the mean RMSSD (Malik's artefact rule) of the beat
  /// lists that started between midnight and 09:00 local time — Apple records one with most
  /// of its SDNN readings, and most of those in the night; the last hours of sleep are the
  /// resting, unhurried reading HRV4Training takes on waking.
  package static func morningLnRMSSD(_ beatLists: [BeatList]) -> [(CalendarDay, Double)] {
    var byDay: [CalendarDay: [Double]] = [:]
    for list in beatLists {
      let localMinutes =
        (list.start.millisecondsSinceEpoch / 60_000
          + Int64(list.start.utcOffsetSeconds / 60)) % 1440
      guard (localMinutes + 1440) % 1440 < 9 * 60 else { continue }
      let series = HRVSeries(
        rr: RRSeries.intervals(from: list.beats), handling: .malik, file: nil, start: list.start)
      if let rmssd = series.metrics.rmssd, rmssd > 0 {
        byDay[CalendarDay(list.start), default: []].append(rmssd)
      }
    }
    return byDay.keys.sorted().compactMap { day in
      Statistics.mean(byDay[day] ?? []).map { (day, log($0)) }
    }
  }

  /// The normal range, the weeks outside it and the sustained change of `values` (one per
  /// day, in day order).
  package static func baseline(_ signal: SignalBaseline.Signal, _ values: [(CalendarDay, Double)])
    -> SignalBaseline
  {
    let values = values.filter { $0.1.isFinite }
    func range(before day: CalendarDay) -> (baseline: Double, swc: Double)? {
      let from = day.daysSinceEpoch - Int64(SignalBaseline.windowDays)
      let window = values.filter {
        $0.0.daysSinceEpoch >= from && $0.0.daysSinceEpoch < day.daysSinceEpoch
      }.map(\.1)
      guard window.count >= SignalBaseline.minimumDays else { return nil }
      let (mean, sd) = Statistics.meanAndSD(window)
      return (mean, sd / 2)
    }
    var weeks: [SignalBaseline.Week] = []
    var byWeek: [CalendarDay: [Double]] = [:]
    for (day, value) in values {
      byWeek[ReportStatistics.monday(of: day), default: []].append(value)
    }
    for monday in byWeek.keys.sorted() {
      guard let week = byWeek[monday], week.count >= SignalBaseline.minimumWeekDays,
        let r = range(before: monday)
      else { continue }
      weeks.append(
        .init(
          monday: monday, days: week.count, mean: week.reduce(0, +) / Double(week.count),
          baseline: r.baseline, swc: r.swc))
    }
    var current: (baseline: Double, swc: Double, lastWeekMean: Double?)?
    if let last = values.last?.0,
      let r = range(before: CalendarDay(daysSinceEpoch: last.daysSinceEpoch + 1))
    {
      let lastWeek = values.filter { $0.0.daysSinceEpoch > last.daysSinceEpoch - 7 }.map(\.1)
      current = (r.baseline, r.swc, Statistics.mean(lastWeek))
    }
    return SignalBaseline(
      signal: signal, days: values.count, current: current, weeks: weeks,
      change: sustainedChange(values), searched: values.count >= 2 * minimumSegment)
  }

  /// The strongest sustained change in `values` by the rule of the type's documentation; nil
  /// when none clears it or there are fewer than 2 × `minimumSegment` values.
  package static func sustainedChange(_ values: [(CalendarDay, Double)]) -> SignalBaseline.Change? {
    let n = values.count
    let segment = max(minimumSegment, Int((0.15 * Double(n)).rounded(.up)))
    guard n >= 2 * segment, let origin = values.first?.0.daysSinceEpoch else { return nil }
    let t = values.map { Double($0.0.daysSinceEpoch - origin) / 365.25 }
    let y = values.map(\.1)
    guard let line = try? RidgeRegression.fit(X: Matrix(t.map { [$0] }), y: y, lambda: 0) else {
      return nil
    }
    var best: (k: Int, fit: RidgeFit)?
    for k in segment...(n - segment) {
      let x = Matrix((0..<n).map { [t[$0], $0 >= k ? 1 : 0] })
      guard let fit = try? RidgeRegression.fit(X: x, y: y, lambda: 0) else { continue }
      if best == nil || fit.residualSumOfSquares < best!.fit.residualSumOfSquares {
        best = (k, fit)
      }
    }
    guard let (k, fit) = best, fit.residualSumOfSquares > 0 else { return nil }
    let f =
      (line.residualSumOfSquares - fit.residualSumOfSquares)
      / (fit.residualSumOfSquares / Double(n - 3))
    let residuals = (0..<n).map { y[$0] - fit.predict([t[$0], $0 >= k ? 1 : 0]) }
    let phi = min(0.95, max(0, lagOneAutocorrelation(residuals)))
    let inflation = (1 + phi) / (1 - phi)
    let statistic = f / inflation
    let step = fit.coefficients[1]
    let before = values[max(0, k - SignalBaseline.windowDays)..<k].map(\.1)
    let swc = Statistics.meanAndSD(before).sd / 2
    guard statistic > supFThreshold, abs(step) >= swc else { return nil }
    let half = z90 * fit.standardErrors[2] * inflation.squareRoot()
    return .init(
      day: values[k].0, step: step, low90: step - half, high90: step + half,
      statistic: statistic, threshold: supFThreshold)
  }

  static let z90 = 1.6448536269514722

  static func lagOneAutocorrelation(_ r: [Double]) -> Double {
    guard r.count > 2 else { return 0 }
    let mean = r.reduce(0, +) / Double(r.count)
    var numerator = 0.0
    var denominator = 0.0
    for i in r.indices {
      denominator += (r[i] - mean) * (r[i] - mean)
      if i > 0 { numerator += (r[i] - mean) * (r[i - 1] - mean) }
    }
    return denominator > 0 ? numerator / denominator : 0
  }
}
