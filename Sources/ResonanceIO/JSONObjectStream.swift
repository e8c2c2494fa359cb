/// A fast reader of the one JSON shape the services' histories use: an array of flat objects
/// (`[{"ts": "…", "ms_played": 1234, …}, …]`). Objects come one at a time; their values are byte
/// ranges decoded only when asked for. Foundation's `JSONSerialization` builds a dictionary per
/// entry and holds them all: on a million-entry Spotify history that is seconds and gigabytes.
///
/// Strictly JSON (RFC 8259): strings with every escape (`\uD83C\uDFB5` pairs included), numbers,
/// `true`, `false`, `null`; a value that is itself an object or array is skipped whole
/// (`isNested`), and an object value is read when asked for (`JSONFlatObject.object(_:)`).
/// Anything else is a `JSONScanError` with its line and column. One object held whole (a line of
/// JSON Lines) is read by `JSONFlatObject(parsing:)`.
///
/// ```swift
/// var stream = try JSONObjectStream(bytes: data)
/// while let object = try stream.next() {
///   print(object.string("ts"), object.int64("ms_played"))
/// }
/// ```
package struct JSONObjectStream {
  /// The bytes in hand: the whole input, or (reading a source) a window of it from the current
  /// object on.
  private var bytes: [UInt8]
  private var position = 0
  private var lineNumber = 1
  private var lineStart = 0
  private var finished = false
  /// Where more bytes come from; nil once the input is all in `bytes`.
  private var source: (any ByteSource)?
  private var chunkSize = 1 << 20
  /// The line on which the object last returned by `next()` began.
  package private(set) var line = 0
  /// The longest object read, in bytes: no service writes an entry of more than a few
  /// kilobytes, and a longer one (a 2 GiB title in a 2 MB gzip) would be held whole.
  package static let maximumObjectBytes = 1 << 20

  /// - Throws: `JSONScanError` when the bytes do not begin (after whitespace) with `[`.
  package init(bytes: [UInt8]) throws(JSONScanError) {
    self.bytes = bytes
    try openArray()
  }

  /// A stream over a source, holding a window of about `chunkSize` bytes (more only for an
  /// object longer than that): memory stays flat however long the file.
  ///
  /// - Throws: `IOError` from reading, `JSONScanError` when the source does not begin (after
  ///   whitespace) with `[`.
  package init(source: any ByteSource, chunkSize: Int = 1 << 20) throws {
    bytes = []
    self.source = source
    self.chunkSize = max(chunkSize, 16)
    // Enough to see past a byte-order mark and leading whitespace (passed as it comes, so
    // that any amount of it is dropped window by window).
    while self.source != nil {
      try refill()
      if position == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      skipWhitespace()
      if bytes.count - position > 3 { break }
    }
    try openArray()
  }

  private mutating func openArray() throws(JSONScanError) {
    if position == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    skipWhitespace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else {
      throw error("expected a JSON array ('['), found \(found())")
    }
    position += 1
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      finished = true
    }
  }

  /// The next object of the array, or nil after the closing `]`.
  ///
  /// - Throws: `JSONScanError` where the JSON is not an array of objects (with its line and
  ///   column), `IOError` when the source cannot be read.
  package mutating func next() throws -> JSONFlatObject? {
    while true {
      // Whitespace between objects is passed before the object's start is kept: a window of
      // nothing but whitespace is dropped at the next refill, however much of it there is.
      skipWhitespace()
      let saved = (position, lineNumber, lineStart)
      do {
        let object = try nextInWindow()
        if position - saved.0 > Self.maximumObjectBytes { throw tooLong(at: saved) }
        if finished { try checkEnd() }
        return object
      } catch let error as JSONScanError {
        // Every way of running off the window's end fails within a few bytes of it: read on,
        // and parse the object again from its start.
        guard source != nil, bytes.count - position < 8 else { throw error }
        guard bytes.count - saved.0 <= Self.maximumObjectBytes else { throw tooLong(at: saved) }
        (position, lineNumber, lineStart) = saved
        finished = false
        try refill()
      }
    }
  }

  /// The error for an object longer than `maximumObjectBytes`, at its start.
  private func tooLong(at start: (Int, Int, Int)) -> JSONScanError {
    JSONScanError(
      message:
        "an entry longer than \(Self.maximumObjectBytes >> 20) MiB, the most one may be (no real export's is near it)",
      line: start.1, column: start.0 - start.2 + 1)
  }

  /// After the closing `]`: only whitespace may follow, to the end of the source.
  private mutating func checkEnd() throws {
    while true {
      skipWhitespace()
      if position < bytes.count { throw error("expected the end after ']', found \(found())") }
      guard source != nil else { return }
      try refill()
    }
  }

  /// Drops the bytes before the object being read and appends the source's next chunk; at the
  /// end of the source, drops it.
  private mutating func refill() throws(IOError) {
    guard let source else { return }
    if position > 0 {
      let keep = position
      bytes.removeSubrange(0..<keep)
      position = 0
      lineStart -= keep
    }
    let n = try source.append(to: &bytes, chunkSize: chunkSize)
    if n == 0 { self.source = nil }
  }

  private mutating func nextInWindow() throws(JSONScanError) -> JSONFlatObject? {
    guard !finished else { return nil }
    skipWhitespace()
    line = lineNumber
    let fields = try scanObject(expected: "an object ('{') in the array")
    skipWhitespace()
    guard position < bytes.count else { throw error("expected ',' or ']', found the end") }
    let c = bytes[position]
    position += 1
    if c == UInt8(ascii: "]") {
      finished = true
      if source == nil {
        skipWhitespace()
        if position < bytes.count { throw error("expected the end after ']', found \(found())") }
      }
    } else if c != UInt8(ascii: ",") {
      throw error("expected ',' or ']' in the array, found '\(Character(Unicode.Scalar(c)))'")
    }
    return JSONFlatObject(bytes: bytes, fields: fields)
  }

  /// A scanner over bytes held whole, from `position` (an object inside them).
  private init(scanning bytes: [UInt8], at position: Int) {
    self.bytes = bytes
    self.position = position
  }

  /// The object `bytes` hold, whitespace (and a byte-order mark) around it and nothing else.
  fileprivate static func object(in bytes: [UInt8]) throws(JSONScanError) -> JSONFlatObject {
    var scanner = JSONObjectStream(scanning: bytes, at: 0)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
    scanner.skipWhitespace()
    let fields = try scanner.scanObject(expected: "a JSON object ('{')")
    scanner.skipWhitespace()
    guard scanner.position == bytes.count else {
      throw scanner.error("expected nothing after the object's '}', found \(scanner.found())")
    }
    return JSONFlatObject(bytes: bytes, fields: fields)
  }

  /// The object starting at `start` of `bytes` (a value inside another), its fields.
  fileprivate static func fields(in bytes: [UInt8], at start: Int) throws(JSONScanError)
    -> [JSONFlatObject.Field]
  {
    var scanner = JSONObjectStream(scanning: bytes, at: start)
    return try scanner.scanObject(expected: "an object ('{')")
  }

  /// One object, from its `{` to its `}`: its fields, values as byte ranges.
  private mutating func scanObject(expected: String) throws(JSONScanError)
    -> [JSONFlatObject.Field]
  {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else {
      throw error("expected \(expected), found \(found())")
    }
    position += 1
    var fields: [JSONFlatObject.Field] = []
    fields.reserveCapacity(24)
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
    } else {
      while true {
        skipWhitespace()
        let (key, keyEscaped) = try scanString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
          throw error("expected ':' after a key, found \(found())")
        }
        position += 1
        skipWhitespace()
        fields.append(try scanValue(key: key, keyEscaped: keyEscaped))
        skipWhitespace()
        guard position < bytes.count else { throw error("expected ',' or '}', found the end") }
        let c = bytes[position]
        position += 1
        if c == UInt8(ascii: "}") { break }
        guard c == UInt8(ascii: ",") else {
          throw error("expected ',' or '}' in an object, found '\(Character(Unicode.Scalar(c)))'")
        }
      }
    }
    return fields
  }

  private mutating func skipWhitespace() {
    var p = position
    var line = lineNumber
    var start = lineStart
    bytes.withUnsafeBufferPointer { b in
      scan: while p < b.count {
        switch b[p] {
        case 0x20, 0x09, 0x0D: p += 1
        case 0x0A:
          p += 1
          line += 1
          start = p
        default: break scan
        }
      }
    }
    position = p
    lineNumber = line
    lineStart = start
  }

  /// A string's content range (between the quotes) and whether it holds escapes.
  private mutating func scanString() throws(JSONScanError) -> (Range<Int>, Bool) {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
      throw error("expected a string, found \(found())")
    }
    position += 1
    let start = position
    var escaped = false
    while position < bytes.count {
      let c = bytes[position]
      if c == UInt8(ascii: "\"") {
        position += 1
        return (start..<(position - 1), escaped)
      }
      if c == UInt8(ascii: "\\") {
        escaped = true
        position += 2
        continue
      }
      if c < 0x20 { throw error("control character inside a string") }
      position += 1
    }
    throw error("expected the string's closing '\"', found the end (is the file cut short?)")
  }

  private mutating func scanValue(key: Range<Int>, keyEscaped: Bool) throws(JSONScanError)
    -> JSONFlatObject.Field
  {
    guard position < bytes.count else { throw error("expected a value, found the end") }
    let c = bytes[position]
    switch c {
    case UInt8(ascii: "\""):
      let (range, escaped) = try scanString()
      return .init(key: key, keyEscaped: keyEscaped, kind: .string, value: range, escaped: escaped)
    case UInt8(ascii: "t"): return try literal("true", .true, key, keyEscaped)
    case UInt8(ascii: "f"): return try literal("false", .false, key, keyEscaped)
    case UInt8(ascii: "n"): return try literal("null", .null, key, keyEscaped)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let start = position
      try skipNested()
      return .init(
        key: key, keyEscaped: keyEscaped, kind: .nested, value: start..<position, escaped: false)
    default:
      let start = position
      while position < bytes.count {
        let d = bytes[position]
        let isNumberByte =
          (d >= 0x30 && d <= 0x39) || d == UInt8(ascii: "-") || d == UInt8(ascii: "+")
          || d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E")
        guard isNumberByte else { break }
        position += 1
      }
      guard position > start else { throw error("expected a value, found \(found())") }
      return .init(
        key: key, keyEscaped: keyEscaped, kind: .number, value: start..<position, escaped: false)
    }
  }

  private mutating func literal(
    _ word: StaticString, _ kind: JSONFlatObject.Kind, _ key: Range<Int>, _ keyEscaped: Bool
  ) throws(JSONScanError) -> JSONFlatObject.Field {
    let start = position
    let count = word.utf8CodeUnitCount
    let matches = word.withUTF8Buffer { w in
      position + count <= bytes.count && (0..<count).allSatisfy { bytes[position + $0] == w[$0] }
    }
    guard matches else { throw error("expected a value, found \(found())") }
    position += count
    return .init(
      key: key, keyEscaped: keyEscaped, kind: kind, value: start..<position, escaped: false)
  }

  /// Skips a nested object or array, strings inside it included.
  private mutating func skipNested() throws(JSONScanError) {
    var depth = 0
    while position < bytes.count {
      let c = bytes[position]
      switch c {
      case UInt8(ascii: "\""):
        _ = try scanString()
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 {
          position += 1
          return
        }
      case 0x0A:
        lineNumber += 1
        lineStart = position + 1
      default: break
      }
      position += 1
    }
    throw error("expected the end of a nested value, found the end of the file")
  }

  private func found() -> String {
    guard position < bytes.count else { return "the end of the file (is it cut short?)" }
    let end = min(bytes.count, position + 20)
    return "'" + String(decoding: bytes[position..<end], as: UTF8.self) + "'"
  }

  private func error(_ message: String) -> JSONScanError {
    JSONScanError(message: message, line: lineNumber, column: position - lineStart + 1)
  }
}

/// JSON that is not an array of flat objects, with where the reader stopped.
package struct JSONScanError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String
  package var line: Int
  package var column: Int

  package var description: String { "\(line):\(column): \(message)" }
}

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
