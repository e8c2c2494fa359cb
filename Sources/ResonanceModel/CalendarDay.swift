/// A calendar day as the person lived it: `--from 2023-03-01` means that day in the UTC offset
/// the data carries for each moment, not a UTC day. Two days compare by date.
package struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// Days since 1970-01-01 on the local calendar.
  package var daysSinceEpoch: Int64

  package init(daysSinceEpoch: Int64) { self.daysSinceEpoch = daysSinceEpoch }

  /// The day a `YYYY-MM-DD` text names; nil for any other text or an impossible date.
  package init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
      (1...12).contains(month), (1...Self.length(ofMonth: month, year: year)).contains(day)
    else { return nil }
    daysSinceEpoch = Timestamp.days(fromYear: year, month: month, day: day)
  }

  /// The local day `time` falls on, in its own offset.
  package init(_ time: Timestamp) {
    let local = time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000
    daysSinceEpoch = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
  }

  /// `YYYY-MM-DD`.
  package var description: String {
    String(Timestamp.iso8601UTC(millisecondsSinceEpoch: daysSinceEpoch * 86_400_000).prefix(10))
  }

  package static func < (a: CalendarDay, b: CalendarDay) -> Bool {
    a.daysSinceEpoch < b.daysSinceEpoch
  }

  private static func length(ofMonth month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

/// Days as `--from` and `--to` give them: `from` included, `to` not, each optional.
package struct DayRange: Sendable, Hashable, Codable {
  package var from: CalendarDay?
  package var to: CalendarDay?

  package init(from: CalendarDay? = nil, to: CalendarDay? = nil) {
    self.from = from
    self.to = to
  }

  /// Whether `time`, in its own offset, falls in the range.
  package func contains(_ time: Timestamp) -> Bool {
    contains(CalendarDay(time))
  }

  /// Whether `day` falls in the range.
  package func contains(_ day: CalendarDay) -> Bool {
    (from.map { day >= $0 } ?? true) && (to.map { day < $0 } ?? true)
  }

  /// Whether the range has no bound.
  package var isAll: Bool { from == nil && to == nil }
}
