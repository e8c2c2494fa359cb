import ResonanceModel

/// One file `resonance report` writes: a page, a CSV or a chart, named relative to the
/// report's folder.
package struct ReportFile: Sendable, Equatable {
  package var name: String
  package var text: String

  package init(name: String, text: String) {
    self.name = name
    self.text = text
  }
}

/// One page of the report with the files beside it, and the one line the index gives it.
package struct ReportPage: Sendable, Equatable {
  /// The page's name without `.md` (`songs`), as `--only` takes it (`ReportPageName`).
  package var name: String
  package var title: String
  /// The page's answer in one line, for `index.md`.
  package var headline: String
  /// The page itself first, then its CSVs and charts.
  package var files: [ReportFile]

  package init(name: String, title: String, headline: String, files: [ReportFile]) {
    self.name = name
    self.title = title
    self.headline = headline
    self.files = files
  }
}

/// What every page says about the span it covers.
package struct ReportRange: Sendable, Equatable {
  package var days: DayRange

  package init(_ days: DayRange) { self.days = days }

  /// `the whole history`, `2022-06-01 to 2022-07-31`, `2022-06-01 onwards` or `the start to
  /// 2022-07-31`: it reads after "from".
  package var text: String {
    switch (days.from, days.to) {
    case (nil, nil): "the whole history"
    case (let from?, nil): "\(from) onwards"
    case (nil, let to?): "the start to \(to)"
    case (let from?, let to?): "\(from) to \(to)"
    }
  }
}

/// Times as the CSVs write them: ISO 8601 with the UTC offset the moment was lived in, its UTC
/// twin (`*_utc`, one offset for a whole column, which every CSV reader parses as one time
/// type), and the local date and hour beside them.
package enum ReportTime {
  /// `2022-06-01T15:03:00+02:00`.
  package static func iso8601(_ time: Timestamp) -> String { time.iso8601Local }

  /// The same instant in UTC, seconds kept as the local column keeps them:
  /// `2022-06-01T13:03:00Z`.
  package static func utc(_ time: Timestamp) -> String {
    Timestamp.iso8601UTC(millisecondsSinceEpoch: time.millisecondsSinceEpoch / 1000 * 1000)
  }

  /// The local date, `2022-06-01`.
  package static func date(_ time: Timestamp) -> String { CalendarDay(time).description }

  /// The local hour, 0…23.
  package static func hour(_ time: Timestamp) -> Int {
    let local = time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000
    return Int(((local / 3_600_000) % 24 + 24) % 24)
  }

  /// `15:03`, local.
  package static func clock(_ time: Timestamp) -> String {
    let local = time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000
    let minutes = ((local / 60_000) % 1440 + 1440) % 1440
    return two(minutes / 60) + ":" + two(minutes % 60)
  }

  private static func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension CSVTable.Field {
  /// A number, or empty when there is none.
  static func value(_ x: Double?) -> CSVTable.Field { .number(x) }
}

/// How the pages write a figure with its interval: `−1.2 (−2.0 … −0.4)`.
enum Figures {
  static func interval(_ estimate: Double?, _ low: Double?, _ high: Double?, _ places: Int)
    -> String
  {
    guard let estimate else { return "–" }
    let base = signed(estimate, places)
    guard let low, let high else { return base }
    return base + " (" + signed(low, places) + " … " + signed(high, places) + ")"
  }

  /// `+1.2`, `−0.4`, `0.0`.
  static func signed(_ x: Double, _ places: Int) -> String {
    let text = Format.fixed(x, places)
    if text.hasPrefix("-") { return "−" + text.dropFirst() }
    return Double(text) == 0 ? text : "+" + text
  }

  /// `42%` of a 0…1 share.
  static func percent(_ share: Double?, _ places: Int = 0) -> String {
    share.map { Format.fixed($0 * 100, places) + "%" } ?? "–"
  }
}
