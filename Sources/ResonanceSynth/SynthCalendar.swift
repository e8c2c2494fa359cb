import ResonanceModel

/// Civil time for the simulated person: a home zone with US daylight-saving rules
/// (Pacific: −08:00, −07:00 in summer) and trips that move the offset for some days.
package struct SynthCalendar: Sendable {
  /// A stretch of days spent away, with the offset shift it brings.
  package struct Trip: Sendable, Equatable, Codable {
    /// First and last simulated day index of the trip, inclusive.
    package var firstDay: Int
    package var lastDay: Int
    /// Seconds added to the home offset while away (e.g. +32400 for Europe).
    package var shiftSeconds: Int32
    package var place: String
  }

  package let firstDay: Int64
  package let trips: [Trip]

  package init(firstDay: Int64, trips: [Trip]) {
    self.firstDay = firstDay
    self.trips = trips
  }

  static let standardOffset: Int32 = -28_800
  static let daylightOffset: Int32 = -25_200

  /// Whether US daylight saving time is in force at `utcMs`: from the second Sunday of March,
  /// 02:00 standard time, to the first Sunday of November, 02:00 daylight time.
  static func isDaylightSaving(utcMs: Int64) -> Bool {
    let days = floorDiv(utcMs, 86_400_000)
    let year = Timestamp.civil(fromDays: days).year
    let start = nthSunday(year: year, month: 3, n: 2) * 86_400_000 + 10 * 3_600_000
    let end = nthSunday(year: year, month: 11, n: 1) * 86_400_000 + 9 * 3_600_000
    return utcMs >= start && utcMs < end
  }

  /// Days since the epoch of the n-th Sunday of a month.
  static func nthSunday(year: Int64, month: Int64, n: Int64) -> Int64 {
    let first = Timestamp.days(fromYear: year, month: month, day: 1)
    // 1970-01-01 was a Thursday: weekday 0 = Sunday.
    let weekday = ((first + 4) % 7 + 7) % 7
    return first + (7 - weekday) % 7 + 7 * (n - 1)
  }

  /// The offset the person lived in at `utcMs`.
  package func offset(utcMs: Int64) -> Int32 {
    let home =
      SynthCalendar.isDaylightSaving(utcMs: utcMs) ? Self.daylightOffset : Self.standardOffset
    let dayIndex = Int(Self.floorDiv(utcMs + Int64(home) * 1000, 86_400_000) - firstDay)
    for trip in trips where dayIndex >= trip.firstDay && dayIndex <= trip.lastDay {
      return home + trip.shiftSeconds
    }
    return home
  }

  /// The UTC instant of a local time on simulated day `day`, using that day's noon offset.
  package func utcMs(day: Int, localMinutes: Double) -> Int64 {
    let noonGuess = (firstDay + Int64(day)) * 86_400_000 + 12 * 3_600_000 + 8 * 3_600_000
    let offset = Int64(offset(utcMs: noonGuess))
    return (firstDay + Int64(day)) * 86_400_000 + Int64(localMinutes * 60_000) - offset * 1000
  }

  /// Weekday of a simulated day: 0 = Sunday … 6 = Saturday.
  package func weekday(day: Int) -> Int { Int((((firstDay + Int64(day)) + 4) % 7 + 7) % 7) }

  /// Local hour with fraction at `utcMs`.
  package func localHour(utcMs: Int64) -> Double {
    let local = utcMs + Int64(offset(utcMs: utcMs)) * 1000
    let ms = ((local % 86_400_000) + 86_400_000) % 86_400_000
    return Double(ms) / 3_600_000
  }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }
}
