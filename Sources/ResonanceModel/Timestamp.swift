/// An instant as the store keeps it: UTC milliseconds since the Unix epoch, with the UTC offset
/// the source recorded beside it, so that local-time questions (time of day, "the next night")
/// use the offset the person actually lived in.
package struct Timestamp: Sendable, Equatable, Hashable, Comparable {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  package var millisecondsSinceEpoch: Int64
  /// The source's offset from UTC in seconds (east positive), e.g. `-25200` for `-0700`.
  package var utcOffsetSeconds: Int32

  package init(millisecondsSinceEpoch: Int64, utcOffsetSeconds: Int32 = 0) {
    self.millisecondsSinceEpoch = millisecondsSinceEpoch
    self.utcOffsetSeconds = utcOffsetSeconds
  }

  /// Orders by instant only; two timestamps of the same instant in different offsets are
  /// neither before nor after each other.
  package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
  }

  /// The instant in UTC as ISO 8601 with a `Z`, e.g. `2024-01-15T16:30:00Z`; milliseconds are
  /// written only when they are not zero (`2024-01-15T16:30:00.250Z`).
  package var iso8601UTC: String {
    Timestamp.iso8601UTC(millisecondsSinceEpoch: millisecondsSinceEpoch)
  }

  /// The local time it was lived in, with its offset: `2022-06-01T08:03:00-07:00` (seconds
  /// kept, milliseconds dropped).
  package var iso8601Local: String {
    let offset = Int64(utcOffsetSeconds)
    let local = Timestamp.iso8601UTC(millisecondsSinceEpoch: millisecondsSinceEpoch + offset * 1000)
    let minutes = abs(offset) / 60
    return String(local.prefix(19)) + (offset < 0 ? "-" : "+") + Timestamp.pad(minutes / 60, 2)
      + ":" + Timestamp.pad(minutes % 60, 2)
  }

  /// How messages show an instant to people: the local time it was lived in, then UTC,
  /// `2022-06-01 08:03 -07:00 (2022-06-01T15:03:00Z)`; only UTC when the offset is 0.
  package var shown: String {
    guard utcOffsetSeconds != 0 else { return iso8601UTC }
    let local = iso8601Local
    return "\(local.prefix(10)) \(local.dropFirst(11).prefix(5)) \(local.suffix(6)) (\(iso8601UTC))"
  }

  /// Formats UTC milliseconds as ISO 8601 with a `Z`, without Foundation's formatters.
  ///
  /// - Complexity: O(1); uses the days-from-civil algorithm, valid for every Int64 day count
  ///   that maps to a four-digit or longer year.
  package static func iso8601UTC(millisecondsSinceEpoch ms: Int64) -> String {
    let (days, msOfDay) = floorDivide(ms, 86_400_000)
    let (year, month, day) = civil(fromDays: days)
    let seconds = msOfDay / 1000
    let millis = msOfDay % 1000
    var text =
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
      + "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
    if millis != 0 { text += ".\(pad(millis, 3))" }
    return text + "Z"
  }

  /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's days_from_civil).
  package static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01 (civil_from_days).
  package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    let q = a / b
    let r = a % b
    return r < 0 ? (q - 1, r + b) : (q, r)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
