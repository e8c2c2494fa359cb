/// Tonight's bedtime as the app predicts it for an `evening-music` experiment
/// (`docs/experiments.md`, "Evening music"): the median of the bedtimes of the last
/// `lookbackDays` nights of the same kind — Friday and Saturday nights, or the rest — as local
/// clock times after the evening's midnight (00:30 is 24.5 hours). With fewer than
/// `minimumNights` of that kind it takes every night in the lookback, and with none at all
/// `fallbackMinutes`, 23:00.
package struct BedtimePrediction: Sendable, Equatable {
  package static let lookbackDays = 28
  package static let minimumNights = 3
  package static let fallbackMinutes = 23.0 * 60

  /// Local minutes after the evening's midnight, by the evening's day since 1970-01-01.
  private var bedtimes: [Int64: Double]

  package init(bedtimes: [Int64: Double]) { self.bedtimes = bedtimes }

  /// Whether the night after `day` (days since 1970-01-01) is a Friday or Saturday night.
  package static func isWeekendNight(_ day: Int64) -> Bool {
    // 1970-01-01 was a Thursday: weekday 0 is Sunday.
    let weekday = ((day + 4) % 7 + 7) % 7
    return weekday == 5 || weekday == 6
  }

  /// The predicted bedtime of the night after `day`, in local minutes after that day's
  /// midnight, from the nights before it only.
  package func minutes(forEvening day: Int64) -> Double {
    let weekend = Self.isWeekendNight(day)
    var same: [Double] = []
    var all: [Double] = []
    for earlier in (day - Int64(Self.lookbackDays))..<day {
      guard let minutes = bedtimes[earlier] else { continue }
      all.append(minutes)
      if Self.isWeekendNight(earlier) == weekend { same.append(minutes) }
    }
    let chosen = same.count >= Self.minimumNights ? same : all
    guard !chosen.isEmpty else { return Self.fallbackMinutes }
    let sorted = chosen.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  }

  /// `minutes` as a local clock time, `HH:MM` (past midnight wraps to the next morning's).
  package static func clock(_ minutes: Double) -> String {
    let whole = Int(minutes.rounded()) % 1440
    let h = whole / 60
    let m = whole % 60
    return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
  }
}
