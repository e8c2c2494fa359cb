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
  static func object(in bytes: [UInt8]) throws(JSONScanError) -> JSONFlatObject {
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
  static func fields(in bytes: [UInt8], at start: Int) throws(JSONScanError)
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
