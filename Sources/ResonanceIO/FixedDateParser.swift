import ResonanceModel

/// Parsers for the fixed-layout dates exports use, working on bytes: about a thousand times
/// faster than `DateFormatter` (`docs/performance.md`), which matters at millions of records.
package enum FixedDateParser {
  /// `yyyy-MM-dd HH:mm:ss ±HHMM` (the Health export), e.g. `2024-01-15 08:30:00 -0800`.
  ///
  /// - Returns: the instant with its offset, or `nil` when the bytes are not in that layout.
  package static func healthDate(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    guard b.count == 25, b[4] == 45, b[7] == 45, b[10] == 32, b[13] == 58, b[16] == 58,
      b[19] == 32, b[20] == 43 || b[20] == 45
    else { return nil }
    guard let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
      let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
      let offsetHours = digits(b, 21, 2), let offsetMinutes = digits(b, 23, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let sign: Int64 = b[20] == 45 ? -1 : 1
    let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    let days = Timestamp.days(fromYear: year, month: month, day: day)
    let local = days * 86_400 + hour * 3600 + minute * 60 + second
    return Timestamp(
      millisecondsSinceEpoch: (local - offset) * 1000, utcOffsetSeconds: Int32(offset))
  }

  /// `yyyy-MM-dd` → days since 1970-01-01.
  package static func date(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard b.count >= 10, b[4] == 45, b[7] == 45, let year = digits(b, 0, 4),
      let month = digits(b, 5, 2), let day = digits(b, 8, 2), (1...12).contains(month),
      (1...31).contains(day)
    else { return nil }
    return Timestamp.days(fromYear: year, month: month, day: day)
  }

  /// A time of day as a locale writes it in a beat list — `6:14:48.94 PM`, `20:14:07.68`,
  /// `08:34:05,10` — in milliseconds after midnight. Hours, minutes and seconds have one or two
  /// digits.
  package static func timeOfDay(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
    var i = 0
    func number() -> Int64? {
      var value: Int64 = 0
      var count = 0
      // Two digits at most: more is not a time of day (and enough of them overflowed).
      while i < b.count, count < 2, b[i] >= 48, b[i] <= 57 {
        value = value * 10 + Int64(b[i] - 48)
        i += 1
        count += 1
      }
      return count > 0 ? value : nil
    }
    guard var hour = number(), i < b.count, b[i] == 58 else { return nil }
    i += 1
    guard let minute = number(), i < b.count, b[i] == 58 else { return nil }
    i += 1
    guard let second = number() else { return nil }
    var millis: Int64 = 0
    if i < b.count, b[i] == 46 || b[i] == 44 {  // . or ,
      i += 1
      var scale: Int64 = 100
      while i < b.count, b[i] >= 48, b[i] <= 57 {
        millis += Int64(b[i] - 48) * scale
        scale /= 10
        i += 1
      }
    }
    while i < b.count, b[i] == 32 || b[i] == 0xE2 || b[i] == 0x80 || b[i] == 0xAF { i += 1 }
    if i < b.count {
      guard b.count - i >= 2 else { return nil }
      let marker = (b[i] | 0x20, b[i + 1] | 0x20)
      if marker == (97, 109) {  // am
        if hour == 12 { hour = 0 }
      } else if marker == (112, 109) {  // pm
        if hour < 12 { hour += 12 }
      } else {
        return nil
      }
    }
    guard hour < 24, minute < 60, second < 61 else { return nil }
    return ((hour * 60 + minute) * 60 + second) * 1000 + millis
  }

  /// The decimal number in `count` bytes from `start`, or nil if one is not a digit. Inlined
  /// into the parsers above, which call it eight times a date (millions of dates an export);
  /// callers ask for at most a few digits, so the arithmetic cannot overflow.
  @inline(__always)
  package static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int)
    -> Int64?
  {
    var value: Int64 = 0
    for i in start..<(start + count) {
      let d = b[i] &- 48
      guard d < 10 else { return nil }
      value = value &* 10 &+ Int64(d)
    }
    return value
  }
}

extension FixedDateParser {
  /// `yyyy-MM-ddTHH:mm:ss[.SSS]Z` (the apps' recordings, Apple Music, Spotify) → UTC
  /// milliseconds since the epoch.
  package static func isoUTC(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard b.count >= 20, b[10] == UInt8(ascii: "T"), b[13] == 58, b[16] == 58,
      let days = date(b), let hour = digits(b, 11, 2), let minute = digits(b, 14, 2),
      let second = digits(b, 17, 2), hour < 24, minute < 60, second < 61
    else { return nil }
    var ms = days * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000
    if b[19] == UInt8(ascii: "."), b.count >= 23, let fraction = digits(b, 20, 3) { ms += fraction }
    return ms
  }

  /// The same, from a `String`.
  package static func isoUTC(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { isoUTC($0) }
  }
}
