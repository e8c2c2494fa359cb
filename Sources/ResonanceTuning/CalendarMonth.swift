import ResonanceModel

/// A calendar month as the person lived it (the month of the local day, in the offset each
/// moment carries): the unit the reward model is cross-fitted over.
package struct CalendarMonth: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The proleptic Gregorian year.
  package var year: Int64
  /// 1 … 12.
  package var month: Int64

  /// The month `month` (1 … 12) of `year`.
  package init(year: Int64, month: Int64) {
    precondition((1...12).contains(month), "a month is 1 … 12")
    self.year = year
    self.month = month
  }

  /// The local month `time` falls in, in its own offset.
  package init(_ time: Timestamp) {
    let date = Timestamp.civil(fromDays: CalendarDay(time).daysSinceEpoch)
    self.init(year: date.year, month: date.month)
  }

  /// Orders by year, then month.
  package static func < (a: CalendarMonth, b: CalendarMonth) -> Bool {
    (a.year, a.month) < (b.year, b.month)
  }

  /// `YYYY-MM`.
  package var description: String {
    let m = month < 10 ? "0\(month)" : "\(month)"
    return "\(year)-\(m)"
  }
}
