/// The numbers the reader reads straight from attribute bytes: plain decimals, and the hex
/// address in a device description.
extension AppleHealthReader {
  /// The value of a plain decimal — an optional minus, then at most 15 digits with at most one
  /// point among them (`61`, `0.078`) — or `nil` for anything else, which `strtod` then reads.
  /// Such a mantissa and the power of ten it is divided by are both exact doubles, so the one
  /// division rounds correctly and the result is the one `strtod` gives, at a fraction of the
  /// cost (most Records' values are like this).
  static func plainDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
    guard !b.isEmpty else { return nil }
    var i = 0
    let negative = b[0] == UInt8(ascii: "-")
    if negative { i = 1 }
    var mantissa: Int64 = 0
    var digits = 0
    var fractionDigits = 0
    var seenPoint = false
    while i < b.count {
      let byte = b[i]
      if byte == UInt8(ascii: ".") {
        guard !seenPoint else { return nil }
        seenPoint = true
      } else {
        let digit = byte &- UInt8(ascii: "0")
        guard digit < 10, digits < 15 else { return nil }
        mantissa = mantissa &* 10 &+ Int64(digit)
        digits += 1
        if seenPoint { fractionDigits += 1 }
      }
      i += 1
    }
    guard digits > 0 else { return nil }
    let value = Double(mantissa) / powersOfTen[fractionDigits]
    return negative ? -value : value
  }

  private static let powersOfTen: [Double] = [
    1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  ]

  /// The hex digits of the first `0x…` in `bytes` (the part of a device string that changes
  /// from record to record).
  static func hexAddress(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    var i = 0
    while i + 2 < bytes.count {
      if bytes[i] == UInt8(ascii: "0"), bytes[i + 1] == UInt8(ascii: "x") {
        var end = i + 2
        while end < bytes.count,
          (bytes[end] >= 0x30 && bytes[end] <= 0x39)
            || (bytes[end] | 0x20 >= 0x61 && bytes[end] | 0x20 <= 0x66)
        {
          end += 1
        }
        if end > i + 2 { return (i + 2)..<end }
      }
      i += 1
    }
    return nil
  }
}
