/// One object of a `JSONObjectStream`: its values decoded on demand, by key.
package struct JSONFlatObject {
  package enum Kind: Sendable { case string, number, `true`, `false`, null, nested }

  struct Field {
    var key: Range<Int>
    var keyEscaped: Bool
    var kind: Kind
    var value: Range<Int>
    var escaped: Bool
  }

  private let bytes: [UInt8]
  private let fields: [Field]

  init(bytes: [UInt8], fields: [Field]) {
    self.bytes = bytes
    self.fields = fields
  }

  /// The one JSON object `bytes` hold (a line of JSON Lines, say): whitespace and a
  /// byte-order mark around it, nothing else. Its values are decoded on demand, as the
  /// stream's objects' are.
  ///
  /// - Throws: `JSONScanError` where the bytes are not one object, with its line and column
  ///   in them.
  package init(parsing bytes: [UInt8]) throws(JSONScanError) {
    self = try JSONObjectStream.object(in: bytes)
  }

  /// The key's value when it is an object (`{"a": {"b": 1}}`), as an object of its own;
  /// nil when the key is absent, `null`, or not an object.
  ///
  /// - Throws: `JSONScanError` when the value is not a well-formed object (a nested value is
  ///   only skipped while its parent is read), at its line and column in the bytes the outer
  ///   object was parsed from.
  package func object(_ key: StaticString) throws(JSONScanError) -> JSONFlatObject? {
    guard let field = field(key), field.kind == .nested,
      bytes[field.value.lowerBound] == UInt8(ascii: "{")
    else { return nil }
    return JSONFlatObject(
      bytes: bytes, fields: try JSONObjectStream.fields(in: bytes, at: field.value.lowerBound))
  }

  /// The object's keys, in order.
  package var keys: [String] {
    fields.map { field in
      field.keyEscaped
        ? JSONFlatObject.unescape(bytes[field.key])
        : String(decoding: bytes[field.key], as: UTF8.self)
    }
  }

  private func field(_ key: StaticString) -> Field? {
    key.withUTF8Buffer { k in
      bytes.withUnsafeBufferPointer { b in
        fields.first { field in
          field.key.count == k.count && !field.keyEscaped
            && memcmpEqual(b.baseAddress! + field.key.lowerBound, k.baseAddress!, k.count)
        }
      }
    }
  }

  /// Whether the key is present (with any value, `null` included).
  package func has(_ key: StaticString) -> Bool { field(key) != nil }

  /// The kind of the key's value, when present.
  package func kind(_ key: StaticString) -> Kind? { field(key)?.kind }

  /// The key's value when it is a string.
  package func string(_ key: StaticString) -> String? {
    guard let field = field(key), field.kind == .string else { return nil }
    return field.escaped
      ? JSONFlatObject.unescape(bytes[field.value])
      : String(decoding: bytes[field.value], as: UTF8.self)
  }

  /// The raw bytes of a string value without escapes, for fast paths such as date parsing;
  /// nil when absent, not a string, or escaped.
  package func rawString(_ key: StaticString) -> ArraySlice<UInt8>? {
    guard let field = field(key), field.kind == .string, !field.escaped else { return nil }
    return bytes[field.value]
  }

  /// The key's value when it is a number.
  package func number(_ key: StaticString) -> Double? {
    guard let field = field(key), field.kind == .number else { return nil }
    return Double(String(decoding: bytes[field.value], as: UTF8.self))
  }

  /// The key's value when it is a whole number that fits 64 bits (no fraction, no exponent).
  package func int64(_ key: StaticString) -> Int64? {
    guard let field = field(key), field.kind == .number else { return nil }
    var value: Int64 = 0
    var negative = false
    for (i, byte) in bytes[field.value].enumerated() {
      if i == 0, byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      let d = byte &- 48
      guard d < 10 else {
        return number(key).flatMap { $0 == $0.rounded() ? Int64(exactly: $0) : nil }
      }
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (a, o2) = m.addingReportingOverflow(Int64(d))
      guard !o1, !o2 else { return nil }
      value = a
    }
    return negative ? -value : value
  }

  /// The key's value as the file writes it (a string with its quotes), at most 40 bytes, for
  /// messages; nil when the key is absent.
  package func rawText(_ key: StaticString) -> String? {
    guard let field = field(key) else { return nil }
    switch field.kind {
    case .string:
      let text = String(decoding: bytes[field.value].prefix(40), as: UTF8.self)
      return "\"" + text + (field.value.count > 40 ? "…" : "") + "\""
    case .true: return "true"
    case .false: return "false"
    case .null: return "null"
    case .nested: return "an array or object"
    case .number:
      return String(decoding: bytes[field.value].prefix(40), as: UTF8.self)
        + (field.value.count > 40 ? "…" : "")
    }
  }

  /// The key's value when it is `true` or `false`.
  package func bool(_ key: StaticString) -> Bool? {
    switch field(key)?.kind {
    case .true: true
    case .false: false
    default: nil
    }
  }

  /// A value read as text: what a reader must know to keep it, warn about it, or refuse its row.
  package enum Text: Equatable, Sendable {
    /// Absent or `null`.
    case missing
    /// A string, with any NUL (`\u0000`) taken out: SQLite and every C string would end the
    /// text at it. `removedNULs` says whether there were any, for the reader's warning.
    case text(String, removedNULs: Bool)
    /// A number, boolean, array or object where text was expected: the value as written.
    case notText(String)
  }

  /// The key's value as text (see `Text`).
  package func text(_ key: StaticString) -> Text {
    guard let field = field(key), field.kind != .null else { return .missing }
    guard field.kind == .string else { return .notText(rawText(key) ?? "") }
    // A NUL can only arrive escaped: a raw control character is refused by the scanner.
    guard field.escaped else {
      return .text(String(decoding: bytes[field.value], as: UTF8.self), removedNULs: false)
    }
    let decoded = JSONFlatObject.unescape(bytes[field.value])
    guard decoded.utf8.contains(0) else { return .text(decoded, removedNULs: false) }
    return .text(String(decoded.unicodeScalars.filter { $0 != "\0" }), removedNULs: true)
  }

  /// A value read as a boolean: `true` and `false`, or the strings `"true"` and `"false"` some
  /// exporters write instead.
  package enum Flag: Equatable, Sendable {
    /// Absent or `null`.
    case missing
    case value(Bool)
    /// Anything else, as written.
    case notFlag(String)
  }

  /// The key's value as a boolean (see `Flag`).
  package func flag(_ key: StaticString) -> Flag {
    guard let field = field(key) else { return .missing }
    switch field.kind {
    case .null: return .missing
    case .true: return .value(true)
    case .false: return .value(false)
    case .string where !field.escaped && bytes[field.value].elementsEqual("true".utf8):
      return .value(true)
    case .string where !field.escaped && bytes[field.value].elementsEqual("false".utf8):
      return .value(false)
    default: return .notFlag(rawText(key) ?? "")
    }
  }

  static func unescape(_ slice: ArraySlice<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(slice.count)
    var i = slice.startIndex
    var pendingHigh: UInt32?
    func append(_ scalar: UInt32) {
      guard let s = Unicode.Scalar(scalar) else {
        out.append(contentsOf: [0xEF, 0xBF, 0xBD])
        return
      }
      out.append(contentsOf: Array(String(Character(s)).utf8))
    }
    while i < slice.endIndex {
      let c = slice[i]
      guard c == UInt8(ascii: "\\"), i + 1 < slice.endIndex else {
        if let high = pendingHigh {
          append(high)
          pendingHigh = nil
        }
        out.append(c)
        i += 1
        continue
      }
      let e = slice[i + 1]
      i += 2
      var scalar: UInt32?
      switch e {
      case UInt8(ascii: "n"): scalar = 0x0A
      case UInt8(ascii: "t"): scalar = 0x09
      case UInt8(ascii: "r"): scalar = 0x0D
      case UInt8(ascii: "b"): scalar = 0x08
      case UInt8(ascii: "f"): scalar = 0x0C
      case UInt8(ascii: "u"):
        guard i + 4 <= slice.endIndex,
          let code = UInt32(String(decoding: slice[i..<(i + 4)], as: UTF8.self), radix: 16)
        else {
          scalar = 0xFFFD
          break
        }
        i += 4
        if code >= 0xD800, code < 0xDC00 {
          if let high = pendingHigh { append(high) }
          pendingHigh = code
          continue
        }
        if code >= 0xDC00, code < 0xE000, let high = pendingHigh {
          pendingHigh = nil
          scalar = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
        } else {
          scalar = code
        }
      default: scalar = UInt32(e)  // \" \\ \/
      }
      if let high = pendingHigh, scalar.map({ $0 < 0xDC00 || $0 >= 0xE000 }) ?? true {
        append(high)
        pendingHigh = nil
      }
      if let scalar { append(scalar) }
    }
    if let high = pendingHigh { append(high) }
    return String(decoding: out, as: UTF8.self)
  }
}

private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int)
  -> Bool
{
  for i in 0..<count where a[i] != b[i] { return false }
  return true
}
