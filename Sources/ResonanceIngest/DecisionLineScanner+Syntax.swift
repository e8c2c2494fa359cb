import Foundation

/// The decision line scanner's values and JSON syntax: numbers, strings, literals, arrays,
/// objects and their keys, and the values of keys the format does not read (checked, then
/// passed over).
extension DecisionLineScanner {
  // MARK: - Values

  /// `null` as nil, else the value `read` reads (an optional field, as `decodeIfPresent`).
  mutating func optional<T>(_ read: (inout DecisionLineScanner) throws(GiveUp) -> T)
    throws(GiveUp) -> T?
  {
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "n") {
      try literal("null")
      return nil
    }
    return try read(&self)
  }

  mutating func array<T>(_ element: (inout DecisionLineScanner) throws(GiveUp) -> T)
    throws(GiveUp) -> [T]
  {
    skipWhitespace()
    guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { throw GiveUp() }
    i += 1
    var elements: [T] = []
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      return elements
    }
    while true {
      elements.append(try element(&self))
      skipWhitespace()
      guard i < bytes.count else { throw GiveUp() }
      let c = bytes[i]
      i += 1
      if c == UInt8(ascii: "]") { return elements }
      guard c == UInt8(ascii: ",") else { throw GiveUp() }
    }
  }

  mutating func bool() throws(GiveUp) -> Bool {
    skipWhitespace()
    guard i < bytes.count else { throw GiveUp() }
    if bytes[i] == UInt8(ascii: "t") {
      try literal("true")
      return true
    }
    try literal("false")
    return false
  }

  /// A string with no raw control character; escapes decoded, a lone surrogate given up on.
  mutating func string() throws(GiveUp) -> String {
    skipWhitespace()
    let (start, end, escaped) = try stringBounds()
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
    return escaped ? try Self.unescaped(slice) : String(decoding: slice, as: UTF8.self)
  }

  /// A number read as a double, as `Double(_:)` rounds it: finite, and a zero only when
  /// written as one without an exponent. `JSONDecoder` refuses a number that overflows or
  /// underflows to zero (`1e-400`), and some zeros with an exponent (`0e1`, though not `0e0`):
  /// those are left to it.
  mutating func double() throws(GiveUp) -> Double {
    let (start, end, _) = try numberBounds()
    if let value = Self.shortDecimal(bytes, start, end) { return value }
    let lower = text.utf8.index(text.utf8.startIndex, offsetBy: start)
    let upper = text.utf8.index(lower, offsetBy: end - start)
    guard let value = Double(text[lower..<upper]), value.isFinite else { throw GiveUp() }
    if value == 0 {
      for k in start..<end {
        let c = bytes[k]
        if c | 0x20 == UInt8(ascii: "e") || (c &- 49 < 9) { throw GiveUp() }
      }
    }
    return value
  }

  /// The powers of ten a double holds exactly, 10⁰ … 10²².
  static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// A number of at most 15 significant digits and a power of ten within ±22, as `Double(_:)`
  /// reads it, without its string: such digits are an integer a double holds exactly, and so
  /// is the power of ten, so one multiplication or division, correctly rounded as every IEEE
  /// operation is, gives the correctly rounded value (Clinger's fast path). Nil for any other
  /// number, and for zero (whose exponent matters to `JSONDecoder`, see `double()`), which
  /// take the long way.
  static func shortDecimal(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> Double?
  {
    // Longer text has more than 15 digits (or many zeros): not worth a first pass.
    guard end - start <= 17 else { return nil }
    var k = start
    let negative = b[k] == UInt8(ascii: "-")
    if negative { k += 1 }
    var digits: UInt64 = 0
    var significant = 0
    var scale = 0
    var inFraction = false
    while k < end {
      let c = b[k]
      if c == UInt8(ascii: ".") {
        inFraction = true
      } else if c &- 48 < 10 {
        if digits != 0 || c != UInt8(ascii: "0") { significant += 1 }
        guard significant <= 15 else { return nil }
        digits = digits * 10 + UInt64(c &- 48)
        if inFraction { scale -= 1 }
      } else {
        return nil  // an exponent: the long way
      }
      k += 1
    }
    guard digits != 0, scale >= -22 else { return nil }
    let value = Double(digits) / exactPowersOfTen[-scale]
    return negative ? -value : value
  }

  /// A number read as an integer: digits only (an optional minus), within 64 bits.
  mutating func int64() throws(GiveUp) -> Int64 {
    let (start, end, isWhole) = try numberBounds()
    guard isWhole else { throw GiveUp() }
    var k = start
    let negative = bytes[k] == UInt8(ascii: "-")
    if negative { k += 1 }
    var value: Int64 = 0
    while k < end {
      let digit = Int64(bytes[k] &- 48)
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (a, o2) =
        negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
      guard !o1, !o2 else { throw GiveUp() }
      value = a
      k += 1
    }
    return value
  }

  mutating func int() throws(GiveUp) -> Int { Int(try int64()) }

  // MARK: - Syntax

  mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  mutating func literal(_ word: StaticString) throws(GiveUp) {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count, memcmp(bytes.baseAddress! + i, word.utf8Start, n) == 0 else {
      throw GiveUp()
    }
    i += n
  }

  mutating func beginObject() throws(GiveUp) {
    skipWhitespace()
    guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw GiveUp() }
    i += 1
    skipWhitespace()
    // An empty object: the first `nextKey()` sees its `}`.
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") { keyCount = -1 } else { keyCount = -2 }
  }

  /// Moves to the next member's value, its key read (`key(_:)`); false after the closing `}`.
  mutating func nextKey() throws(GiveUp) -> Bool {
    skipWhitespace()
    guard i < bytes.count else { throw GiveUp() }
    if keyCount == -1 {  // `{}`
      i += 1
      keyCount = 0
      return false
    }
    if keyCount != -2 {  // after a member: `,` or `}`
      let c = bytes[i]
      i += 1
      if c == UInt8(ascii: "}") { return false }
      guard c == UInt8(ascii: ",") else { throw GiveUp() }
      skipWhitespace()
    }
    let (start, end, escaped) = try stringBounds()
    guard !escaped else { throw GiveUp() }
    try convertKey(start, end)
    skipWhitespace()
    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw GiveUp() }
    i += 1
    return true
  }

  /// The key as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` leaves it, for keys
  /// that could match one of this format's (ASCII letters, underscores between words): a key
  /// without an underscore stays as written; one with underscores between its words becomes
  /// the first word lowercased followed by the others capitalised (`LAST_played` is
  /// `lastPlayed`). A key with a leading or trailing underscore or another character keeps
  /// them and so matches none of ours: it is read as written, and skipped.
  mutating func convertKey(_ start: Int, _ end: Int) throws(GiveUp) {
    keyStart = start
    keyCount = end - start
    keyIsConverted = false
    var hasUnderscore = false
    var hasOther = false
    var hasNonASCII = false
    for k in start..<end {
      let c = bytes[k]
      if c == UInt8(ascii: "_") {
        hasUnderscore = true
      } else if c >= 0x80 {
        hasNonASCII = true
      } else if !Self.isLetter(c) {
        hasOther = true
      }
    }
    // Case mapping outside ASCII can land on an ASCII letter (the Kelvin sign lowercases to
    // `k`): such a key with words to join is left to the decoder.
    if hasNonASCII && hasUnderscore { throw GiveUp() }
    guard hasUnderscore, !hasOther, !hasNonASCII, bytes[start] != UInt8(ascii: "_"),
      bytes[end - 1] != UInt8(ascii: "_")
    else { return }
    converted.removeAll(keepingCapacity: true)
    var word = 0
    var atWordStart = true
    for k in start..<end {
      let c = bytes[k]
      if c == UInt8(ascii: "_") {
        if !atWordStart { word += 1 }
        atWordStart = true
        continue
      }
      let lower = c | 0x20
      converted.append(word > 0 && atWordStart ? lower & ~0x20 : lower)
      atWordStart = false
    }
    keyIsConverted = true
    keyCount = converted.count
  }

  static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }

  /// Whether the current key is `name`.
  func key(_ name: StaticString) -> Bool {
    let n = name.utf8CodeUnitCount
    guard n == keyCount else { return false }
    if keyIsConverted {
      return converted.withUnsafeBufferPointer { memcmp($0.baseAddress!, name.utf8Start, n) == 0 }
    }
    return memcmp(bytes.baseAddress! + keyStart, name.utf8Start, n) == 0
  }

  /// Notes that a field was read, giving up when it was read before (a key written twice).
  func mark(_ field: UInt32, in seen: inout UInt32) throws(GiveUp) {
    guard seen & (1 << field) == 0 else { throw GiveUp() }
    seen |= 1 << field
  }

  /// Only whitespace after the line's object.
  mutating func end() throws(GiveUp) {
    skipWhitespace()
    guard i == bytes.count else { throw GiveUp() }
  }

  /// A string's contents (between its quotes) and whether it has escapes; `i` moves past it.
  /// Escapes are checked as JSON has them; a raw control character is given up on.
  mutating func stringBounds() throws(GiveUp) -> (Int, Int, Bool) {
    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw GiveUp() }
    i += 1
    let start = i
    var escaped = false
    while i < bytes.count {
      let c = bytes[i]
      if c == UInt8(ascii: "\"") {
        i += 1
        return (start, i - 1, escaped)
      }
      if c < 0x20 { throw GiveUp() }
      if c == UInt8(ascii: "\\") {
        escaped = true
        guard i + 1 < bytes.count else { throw GiveUp() }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          i += 2
        case UInt8(ascii: "u"):
          guard Self.hex4(bytes, at: i + 2) != nil else { throw GiveUp() }
          i += 6
        default: throw GiveUp()
        }
        continue
      }
      i += 1
    }
    throw GiveUp()
  }

  /// The four hex digits at `k` as a number; nil when they are not four hex digits.
  static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at k: Int) -> UInt32? {
    guard k + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for j in k..<(k + 4) {
      let c = bytes[j]
      let digit: UInt8
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - 48
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - 87
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - 55
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// A string's escaped contents decoded; a surrogate not in a high–low pair is given up on.
  static func unescaped(_ s: UnsafeBufferPointer<UInt8>) throws(GiveUp) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.count)
    var k = 0
    func append(_ scalar: UInt32) {
      // A valid scalar (surrogates are paired or refused before this).
      let code = Unicode.Scalar(scalar)!
      out.append(contentsOf: UTF8.encode(code)!)
    }
    while k < s.count {
      let c = s[k]
      guard c == UInt8(ascii: "\\") else {
        out.append(c)
        k += 1
        continue
      }
      let e = s[k + 1]
      k += 2
      switch e {
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "u"):
        guard let code = hex4(s, at: k) else { throw GiveUp() }
        k += 4
        switch code {
        case 0xD800..<0xDC00:
          guard k + 6 <= s.count, s[k] == UInt8(ascii: "\\"), s[k + 1] == UInt8(ascii: "u"),
            let low = hex4(s, at: k + 2), (0xDC00..<0xE000).contains(low)
          else { throw GiveUp() }
          k += 6
          append(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00..<0xE000: throw GiveUp()
        default: append(code)
        }
      default: out.append(e)  // \" \\ \/
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A number's bounds (RFC 8259's grammar) and whether it is written as a whole number
  /// (no fraction, no exponent); `i` moves past it.
  mutating func numberBounds() throws(GiveUp) -> (Int, Int, Bool) {
    skipWhitespace()
    let start = i
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < bytes.count else { throw GiveUp() }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      guard try digits() > 0 else { throw GiveUp() }
    }
    var isWhole = true
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      isWhole = false
      i += 1
      guard try digits() > 0 else { throw GiveUp() }
    }
    if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
      isWhole = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        i += 1
      }
      guard try digits() > 0 else { throw GiveUp() }
    }
    return (start, i, isWhole)
  }

  /// Skips decimal digits, returning how many.
  mutating func digits() throws(GiveUp) -> Int {
    let start = i
    while i < bytes.count, bytes[i] &- 48 < 10 { i += 1 }
    return i - start
  }

  /// Skips one value of a key this format does not read, checking it is well-formed.
  mutating func skipValue(depth: Int) throws(GiveUp) {
    guard depth < 64 else { throw GiveUp() }
    skipWhitespace()
    guard i < bytes.count else { throw GiveUp() }
    switch bytes[i] {
    case UInt8(ascii: "\""):
      let (start, end, escaped) = try stringBounds()
      if escaped { _ = try Self.unescaped(UnsafeBufferPointer(rebasing: bytes[start..<end])) }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "["):
      _ = try array { s throws(GiveUp) in try s.skipValue(depth: depth + 1) }
    case UInt8(ascii: "{"):
      let outerKey = (keyStart, keyCount, keyIsConverted)
      try beginObject()
      while try nextKey() { try skipValue(depth: depth + 1) }
      (keyStart, keyCount, keyIsConverted) = outerKey
    default:
      _ = try numberBounds()
    }
  }
}
