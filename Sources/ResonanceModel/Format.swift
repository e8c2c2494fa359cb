#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Numbers as people read them, the same on every machine: no locale, no formatter objects.
package enum Format {
  /// `1234567` → `1,234,567`.
  package static func grouped<Integer: BinaryInteger>(_ value: Integer) -> String {
    let digits = Array(String(value.magnitude))
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }

  /// A count with its noun, grouped and in the right number: `1 file`, `1,204 files`; the
  /// plural is the noun with an `s` unless given.
  package static func count<Integer: BinaryInteger>(
    _ value: Integer, _ noun: String, plural: String? = nil
  ) -> String {
    grouped(value) + " " + (value == 1 ? noun : plural ?? noun + "s")
  }

  /// `value` rounded to `places` decimals (half away from zero), e.g. `fixed(2.345, 1)` →
  /// `2.3`; `-0.0` prints as `0.0`.
  package static func fixed(_ value: Double, _ places: Int) -> String {
    let scale = (0..<places).reduce(1.0) { acc, _ in acc * 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    let fraction = String(scaled % Int64(scale))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    if places == 0 { return sign + "\(whole)" }
    return sign + "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
  }

  /// `value` to at most `places` decimals, without trailing zeros: `0.05`, `×1.4`'s `1.4`, `2`.
  package static func trimmed(_ value: Double, _ places: Int = 4) -> String {
    var text = fixed(value, places)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }

  /// `fixed(value, places)`, or `–` when there is no value.
  package static func optional(_ value: Double?, _ places: Int) -> String {
    value.map { fixed($0, places) } ?? "–"
  }

  /// `m:ss`, or `h:mm:ss` past an hour, rounding up to the second.
  package static func clock(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.up))
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
    return "\(m):\(ss)"
  }

  /// `text` padded with spaces to `width` characters (left-aligned), or as it is when longer.
  package static func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  /// A magnitude as `d.dd×10^e` (`3.2e-07`), `0` for zero: for tolerances and differences.
  package static func scientific(_ value: Double) -> String {
    guard value != 0, value.isFinite else { return value == 0 ? "0" : "\(value)" }
    var exponent = Int(log10(abs(value)).rounded(.down))
    var mantissa = value / pow10(exponent)
    if abs(mantissa) >= 9.995 {
      mantissa /= 10
      exponent += 1
    }
    return fixed(mantissa, 2) + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
  }

  private static func pow10(_ n: Int) -> Double {
    var result = 1.0
    for _ in 0..<abs(n) { result *= 10 }
    return n < 0 ? 1 / result : result
  }
}
