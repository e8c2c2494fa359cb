import ResonanceModel

/// Builds output text as bytes: the generators write millions of lines, and appending bytes
/// with hand-formatted numbers and dates is far cheaper than `String` interpolation.
struct TextBuilder {
  var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 16) }

  mutating func clear() { bytes.removeAll(keepingCapacity: true) }

  mutating func add(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func add(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func int(_ value: Int) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      int(-value)
      return
    }
    if value >= 10 { int(value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  mutating func padded(_ value: Int, _ width: Int) {
    var digits = 1
    var v = value
    while v >= 10 {
      v /= 10
      digits += 1
    }
    for _ in digits..<max(digits, width) { bytes.append(UInt8(ascii: "0")) }
    int(value)
  }

  /// A number with exactly `places` decimals (no exponent, locale-free).
  mutating func fixed(_ value: Double, _ places: Int) {
    guard value.isFinite else {
      add("0")
      return
    }
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded())
    if value < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
    int(scaled / scale)
    if places > 0 {
      bytes.append(UInt8(ascii: "."))
      padded(scaled % scale, places)
    }
  }

  /// The shortest decimal that reads back as exactly `value` (`72`, `0.1`,
  /// `0.30000000000000004`, `1e-05`): what the decision log writes so that a replay starts
  /// from the very numbers the app used. Non-finite values are written as `null`.
  mutating func exact(_ value: Double) {
    guard value.isFinite else {
      add("null")
      return
    }
    if value == value.rounded(), abs(value) < 1e15 {
      int(Int(value))
    } else {
      add(value.description)
    }
  }

  /// A number with up to `places` decimals, trailing zeros dropped (`72`, `0.25`).
  mutating func number(_ value: Double, _ places: Int) {
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded())
    if value < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
    int(scaled / scale)
    var fraction = scaled % scale
    var width = places
    guard fraction != 0 else { return }
    while fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    bytes.append(UInt8(ascii: "."))
    padded(fraction, width)
  }

  /// `yyyy-MM-dd HH:mm:ss ±HHMM` in the given offset: the Health export's date form.
  mutating func healthDate(_ utcMs: Int64, offset: Int32) {
    let local = utcMs + Int64(offset) * 1000
    civil(local)
    bytes.append(UInt8(ascii: " "))
    bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
    let magnitude = Int(abs(offset))
    padded(magnitude / 3600, 2)
    padded(magnitude / 60 % 60, 2)
  }

  /// `yyyy-MM-ddTHH:mm:ss.SSSZ` (with milliseconds) or `…ssZ`.
  mutating func isoUTC(_ utcMs: Int64, milliseconds: Bool) {
    civil(utcMs, separator: UInt8(ascii: "T"))
    if milliseconds {
      bytes.append(UInt8(ascii: "."))
      padded(Int(((utcMs % 1000) + 1000) % 1000), 3)
    }
    bytes.append(UInt8(ascii: "Z"))
  }

  /// `yyyy-MM-dd HH:mm:ss` of a local millisecond count.
  mutating func civil(_ localMs: Int64, separator: UInt8 = UInt8(ascii: " ")) {
    let days = localMs >= 0 ? localMs / 86_400_000 : (localMs - 86_399_999) / 86_400_000
    let msOfDay = Int(localMs - days * 86_400_000)
    let date = Timestamp.civil(fromDays: days)
    padded(Int(date.year), 4)
    bytes.append(UInt8(ascii: "-"))
    padded(Int(date.month), 2)
    bytes.append(UInt8(ascii: "-"))
    padded(Int(date.day), 2)
    bytes.append(separator)
    let seconds = msOfDay / 1000
    padded(seconds / 3600, 2)
    bytes.append(UInt8(ascii: ":"))
    padded(seconds / 60 % 60, 2)
    bytes.append(UInt8(ascii: ":"))
    padded(seconds % 60, 2)
  }

  /// Text escaped for an XML attribute value.
  mutating func xmlEscaped(_ text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): add("&amp;")
      case UInt8(ascii: "<"): add("&lt;")
      case UInt8(ascii: ">"): add("&gt;")
      case UInt8(ascii: "\""): add("&quot;")
      default: bytes.append(byte)
      }
    }
  }

  /// A JSON string literal, quotes included.
  mutating func jsonString(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): add("\\\"")
      case UInt8(ascii: "\\"): add("\\\\")
      case 0x0A: add("\\n")
      case 0x0D: add("\\r")
      case 0x09: add("\\t")
      case 0..<0x20:
        add("\\u00")
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 15)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// A CSV field, quoted when it holds a comma, quote or newline.
  mutating func csvField(_ text: String) {
    if text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) {
      bytes.append(34)
      for byte in text.utf8 {
        if byte == 34 { bytes.append(34) }
        bytes.append(byte)
      }
      bytes.append(34)
    } else {
      add(text)
    }
  }
}
