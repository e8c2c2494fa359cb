import Foundation

/// Where a stored play's UTC offset came from (`playback_events.offset_source`), in the order
/// an import tries them.
package enum OffsetSource: String, CaseIterable, Sendable, Hashable {
  /// The file itself recorded it (Apple Music, the decision log).
  case source
  /// The offset the Health data shows at that moment.
  case health
  /// The user's zone: `--time-zone`, else `TZ`.
  case user
  /// None of the above: UTC.
  case utc
}

/// The zone a play takes when its source records no UTC offset and the Health data does not
/// cover its moment: `--time-zone`, else the `TZ` variable, else none (UTC).
package enum TimeZoneFallback: Sendable, Equatable {
  /// A fixed offset, seconds east of UTC.
  case fixed(Int32)
  /// A named zone, whose offset follows its daylight-saving rules.
  case named(TimeZone)
  case none

  /// The offset at `ms` (UTC milliseconds), or nil for `.none`.
  package func offset(atMs ms: Int64) -> Int32? {
    switch self {
    case .fixed(let seconds): seconds
    case .named(let zone):
      Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000)))
    case .none: nil
    }
  }

  /// `+02:00`, `-0700`, `UTC` or an IANA name (`Europe/Paris`); nil when it is none of them.
  package static func parse(_ text: String) -> TimeZoneFallback? {
    if text == "UTC" || text == "Z" { return .fixed(0) }
    let scalars = Array(text.utf8)
    if let sign = scalars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      let digits = scalars.dropFirst().filter { $0 != UInt8(ascii: ":") }
      guard digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
      let d = digits.map { Int32($0 - 48) }
      let seconds = (d[0] * 10 + d[1]) * 3600 + (d[2] * 10 + d[3]) * 60
      guard seconds <= 18 * 3600 else { return nil }
      return .fixed(sign == UInt8(ascii: "-") ? -seconds : seconds)
    }
    return TimeZone(identifier: text).map { .named($0) }
  }

  /// The zone a `TZ` environment value names, in the POSIX forms it takes besides ours:
  /// `:Europe/Paris`, a zoneinfo path (`/usr/share/zoneinfo/Europe/Paris`), `UTC0`/`GMT0`.
  /// Nil for a value it cannot read (such as `:/etc/localtime`): the import then ignores it.
  package static func parse(environment value: String) -> TimeZoneFallback? {
    var text = value
    if text.hasPrefix(":") { text.removeFirst() }
    if let range = text.range(of: "zoneinfo/") { text = String(text[range.upperBound...]) }
    if ["UTC0", "GMT0", "UTC", "GMT"].contains(text) { return .fixed(0) }
    guard !text.isEmpty, !text.hasPrefix("/") else { return nil }
    return parse(text)
  }
}
