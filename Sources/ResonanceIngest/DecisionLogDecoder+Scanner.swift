import Foundation
import ResonanceModel

extension DecisionLogDecoder {
  /// Reads one decision line straight from its bytes into the same `Line` that `JSONDecoder`
  /// builds, or gives up (nil) and leaves the line to `JSONDecoder`.
  ///
  /// It only answers when it is sure `JSONDecoder` would decode the line, and to the very same
  /// values: the line is valid UTF-8 and strict JSON (RFC 8259, nesting kept shallow), every key
  /// this format reads is present with the type it must have, no key is written twice, no key
  /// carries an escape, and no number needs more than a plain conversion (a whole number where
  /// an integer is read, a finite one where a double is). Anything else — a malformed line, a
  /// missing key, a string where a number belongs, `1e2` for a count — is handed back, so
  /// that what is refused, and the message naming why, stay exactly `JSONDecoder`'s. Keys are
  /// matched after the snake-case conversion the decoder applies (`local_hour` is `localHour`,
  /// and so is `Local_Hour`). Numbers go through `Double(_:)`, which rounds correctly, as the
  /// decoder's parse does.
  ///
  /// - Complexity: O(n) in the line's length, with no dictionary or boxed value per key.
  static func scannedLine(_ bytes: [UInt8]) -> Line? {
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    var text2 = text
    return text2.withUTF8 { buffer -> Line? in
      var scanner = LineScanner(buffer, text: text)
      return try? scanner.line()
    }
  }
}

/// Why the scanner gave a line back: whatever it was, `JSONDecoder` reads it again.
private struct GiveUp: Error {}

/// A cursor over one line's bytes, reading the decision log's shapes (`scannedLine(_:)`).
private struct LineScanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  /// The same bytes as text, for `Double(_:)` on a number's slice.
  private let text: String
  private var i = 0
  /// The current key: its bytes in the line, or (converted from snake case) in `converted`.
  private var keyStart = 0
  private var keyCount = 0
  private var keyIsConverted = false
  private var converted: [UInt8] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>, text: String) {
    self.bytes = bytes
    self.text = text
    converted.reserveCapacity(32)
  }

  typealias Line = DecisionLogDecoder.Line
  typealias Candidate = DecisionLogDecoder.Candidate

  // MARK: - The format's shapes

  mutating func line() throws(GiveUp) -> Line {
    var t: String?
    var decision: Int?
    var candidates: [Candidate]?
    var line = Line(t: "", decision: 0, candidates: [])
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("t") {
        field = 0
        t = try string()
      } else if key("offset") {
        field = 1
        line.offset = try optional { s throws(GiveUp) in try s.int() }
      } else if key("decision") {
        field = 2
        decision = try int()
      } else if key("session") {
        field = 3
        line.session = try optional { s throws(GiveUp) in try s.int() }
      } else if key("need") {
        field = 4
        line.need = try optional { s throws(GiveUp) in try s.string() }
      } else if key("context") {
        field = 5
        line.context = try optional { s throws(GiveUp) in try s.string() }
      } else if key("localHour") {
        field = 6
        line.localHour = try optional { s throws(GiveUp) in try s.double() }
      } else if key("stress") {
        field = 7
        line.stress = try optional { s throws(GiveUp) in try s.double() }
      } else if key("maxPlayCount") {
        field = 8
        line.maxPlayCount = try optional { s throws(GiveUp) in try s.int() }
      } else if key("previous") {
        field = 9
        line.previous = try optional { s throws(GiveUp) in try s.features() }
      } else if key("recentArtists") {
        field = 10
        line.recentArtists = try optional { s throws(GiveUp) in
          try s.array { s throws(GiveUp) in try s.string() }
        }
      } else if key("heartRate") {
        field = 11
        line.heartRate = try optional { s throws(GiveUp) in try s.double() }
      } else if key("adjuster") {
        field = 12
        line.adjuster = try optional { s throws(GiveUp) in try s.adjuster() }
      } else if key("preferences") {
        field = 13
        line.preferences = try optional { s throws(GiveUp) in try s.preferences() }
      } else if key("candidates") {
        field = 14
        candidates = try array { s throws(GiveUp) in try s.candidate() }
      } else if key("rejected") {
        field = 15
        line.rejected = try optional { s throws(GiveUp) in
          try s.array { s throws(GiveUp) in try s.candidate() }
        }
      } else if key("chosen") {
        field = 16
        line.chosen = try optional { s throws(GiveUp) in try s.string() }
      } else if key("outcome") {
        field = 17
        line.outcome = try optional { s throws(GiveUp) in try s.outcome() }
      } else {
        try skipValue(depth: 1)
        continue
      }
      try mark(field, in: &seen)
    }
    try end()
    guard let t, let decision, let candidates else { throw GiveUp() }
    line.t = t
    line.decision = decision
    line.candidates = candidates
    return line
  }

  private mutating func candidate() throws(GiveUp) -> Candidate {
    var c = Candidate()
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("c") {
        field = 0
        c.c = try optional { s throws(GiveUp) in try s.array { s throws(GiveUp) in try s.double() } }
      } else if key("p") {
        field = 1
        c.p = try optional { s throws(GiveUp) in try s.double() }
      } else if key("bpm") {
        field = 2
        c.bpm = try optional { s throws(GiveUp) in try s.double() }
      } else if key("song") {
        field = 3
        c.song = try optional { s throws(GiveUp) in try s.string() }
      } else if key("base") {
        field = 4
        c.base = try optional { s throws(GiveUp) in try s.double() }
      } else if key("score") {
        field = 5
        c.score = try optional { s throws(GiveUp) in try s.double() }
      } else if key("plays") {
        field = 6
        c.plays = try optional { s throws(GiveUp) in try s.int() }
      } else if key("artist") {
        field = 7
        c.artist = try optional { s throws(GiveUp) in try s.string() }
      } else if key("energy") {
        field = 8
        c.energy = try optional { s throws(GiveUp) in try s.double() }
      } else if key("valence") {
        field = 9
        c.valence = try optional { s throws(GiveUp) in try s.double() }
      } else if key("learned") {
        field = 10
        c.learned = try optional { s throws(GiveUp) in try s.double() }
      } else if key("lastPlayed") {
        field = 11
        c.lastPlayed = try optional { s throws(GiveUp) in try s.string() }
      } else if key("reason") {
        field = 12
        c.reason = try optional { s throws(GiveUp) in try s.string() }
      } else {
        try skipValue(depth: 3)
        continue
      }
      try mark(field, in: &seen)
    }
    return c
  }

  private mutating func features() throws(GiveUp) -> DecisionLogDecoder.Features {
    var values: [Double?] = [nil, nil, nil]
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("bpm") {
        field = 0
      } else if key("energy") {
        field = 1
      } else if key("valence") {
        field = 2
      } else {
        try skipValue(depth: 2)
        continue
      }
      values[Int(field)] = try double()
      try mark(field, in: &seen)
    }
    guard let bpm = values[0], let energy = values[1], let valence = values[2] else {
      throw GiveUp()
    }
    return DecisionLogDecoder.Features(bpm: bpm, energy: energy, valence: valence)
  }

  private mutating func outcome() throws(GiveUp) -> DecisionLogDecoder.Outcome {
    var listened: Int64?
    var outcome = DecisionLogDecoder.Outcome(listenedMs: 0)
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("listenedMs") {
        field = 0
        listened = try int64()
      } else if key("durationMs") {
        field = 1
        outcome.durationMs = try optional { s throws(GiveUp) in try s.int64() }
      } else if key("skipped") {
        field = 2
        outcome.skipped = try optional { s throws(GiveUp) in try s.bool() }
      } else if key("completed") {
        field = 3
        outcome.completed = try optional { s throws(GiveUp) in try s.bool() }
      } else {
        try skipValue(depth: 2)
        continue
      }
      try mark(field, in: &seen)
    }
    guard let listened else { throw GiveUp() }
    outcome.listenedMs = listened
    return outcome
  }

  private mutating func adjuster() throws(GiveUp) -> AdjusterState {
    var state = AdjusterState()
    var skips: Int?
    var boost: Double?
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("baselineHeartRate") {
        field = 0
        state.baselineHeartRate = try optional { s throws(GiveUp) in try s.double() }
      } else if key("bpmCeiling") {
        field = 1
        state.bpmCeiling = try optional { s throws(GiveUp) in try s.double() }
      } else if key("consecutiveSkips") {
        field = 2
        skips = try int()
      } else if key("familiarityBoost") {
        field = 3
        boost = try double()
      } else {
        try skipValue(depth: 2)
        continue
      }
      try mark(field, in: &seen)
    }
    guard let skips, let boost else { throw GiveUp() }
    state.consecutiveSkips = skips
    state.familiarityBoost = boost
    return state
  }

  /// The settings' keys, in the order `UserPreferences` declares its doubles (the two counts
  /// and the policy apart).
  private static let preferenceDoubles: [StaticString] = [
    "bpmWeight", "energyWeight", "familiarityWeight", "historicalWeight", "contextWeight",
    "recencyPenaltyWeight", "timeOfDayPenaltyWeight", "morningBPMCap", "morningStartHour",
    "morningEndHour", "nightBPMCap", "nightStartHour", "nightEndHour", "recencyWindowMinutes",
    "repeatBlockMinutes", "nightHardCapBPM",
  ]

  private mutating func preferences() throws(GiveUp) -> UserPreferences {
    var doubles = [Double?](repeating: nil, count: Self.preferenceDoubles.count)
    var limit: Int?
    var window: Int?
    var policy: LoggingPolicy?
    var seen: UInt32 = 0
    try beginObject()
    fields: while try nextKey() {
      let field: UInt32
      if key("sameArtistLimit") {
        field = 16
        limit = try int()
      } else if key("sameArtistWindow") {
        field = 17
        window = try int()
      } else if key("policy") {
        field = 18
        policy = try loggingPolicy()
      } else {
        guard let index = Self.preferenceDoubles.firstIndex(where: { key($0) }) else {
          try skipValue(depth: 2)
          continue fields
        }
        field = UInt32(index)
        doubles[index] = try double()
      }
      try mark(field, in: &seen)
    }
    guard let limit, let window, let policy else { throw GiveUp() }
    let d = doubles.compactMap { $0 }
    guard d.count == doubles.count else { throw GiveUp() }
    return UserPreferences(
      bpmWeight: d[0], energyWeight: d[1], familiarityWeight: d[2], historicalWeight: d[3],
      contextWeight: d[4], recencyPenaltyWeight: d[5], timeOfDayPenaltyWeight: d[6],
      morningBPMCap: d[7], morningStartHour: d[8], morningEndHour: d[9], nightBPMCap: d[10],
      nightStartHour: d[11], nightEndHour: d[12], recencyWindowMinutes: d[13],
      repeatBlockMinutes: d[14], sameArtistLimit: limit, sameArtistWindow: window,
      nightHardCapBPM: d[15], policy: policy)
  }

  private mutating func loggingPolicy() throws(GiveUp) -> LoggingPolicy {
    var kind: LoggingPolicy.Kind?
    var temperature: Double?
    var epsilon: Double?
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("kind") {
        field = 0
        guard let k = LoggingPolicy.Kind(rawValue: try string()) else { throw GiveUp() }
        kind = k
      } else if key("temperature") {
        field = 1
        temperature = try double()
      } else if key("epsilon") {
        field = 2
        epsilon = try double()
      } else {
        try skipValue(depth: 3)
        continue
      }
      try mark(field, in: &seen)
    }
    guard let kind, let temperature, let epsilon else { throw GiveUp() }
    return LoggingPolicy(kind: kind, temperature: temperature, epsilon: epsilon)
  }

  // MARK: - Values

  /// `null` as nil, else the value `read` reads (an optional field, as `decodeIfPresent`).
  private mutating func optional<T>(_ read: (inout LineScanner) throws(GiveUp) -> T)
    throws(GiveUp) -> T?
  {
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "n") {
      try literal("null")
      return nil
    }
    return try read(&self)
  }

  private mutating func array<T>(_ element: (inout LineScanner) throws(GiveUp) -> T)
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

  private mutating func bool() throws(GiveUp) -> Bool {
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
  private mutating func string() throws(GiveUp) -> String {
    skipWhitespace()
    let (start, end, escaped) = try stringBounds()
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
    return escaped ? try Self.unescaped(slice) : String(decoding: slice, as: UTF8.self)
  }

  /// A number read as a double, as `Double(_:)` rounds it: finite, and a zero only when
  /// written as one without an exponent. `JSONDecoder` refuses a number that overflows or
  /// underflows to zero (`1e-400`), and some zeros with an exponent (`0e1`, though not `0e0`):
  /// those are left to it.
  private mutating func double() throws(GiveUp) -> Double {
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
  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// A number of at most 15 significant digits and a power of ten within ±22, as `Double(_:)`
  /// reads it, without its string: such digits are an integer a double holds exactly, and so
  /// is the power of ten, so one multiplication or division, correctly rounded as every IEEE
  /// operation is, gives the correctly rounded value (Clinger's fast path). Nil for any other
  /// number, and for zero (whose exponent matters to `JSONDecoder`, see `double()`), which
  /// take the long way.
  private static func shortDecimal(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
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
  private mutating func int64() throws(GiveUp) -> Int64 {
    let (start, end, isWhole) = try numberBounds()
    guard isWhole else { throw GiveUp() }
    var k = start
    let negative = bytes[k] == UInt8(ascii: "-")
    if negative { k += 1 }
    var value: Int64 = 0
    while k < end {
      let digit = Int64(bytes[k] &- 48)
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (a, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
      guard !o1, !o2 else { throw GiveUp() }
      value = a
      k += 1
    }
    return value
  }

  private mutating func int() throws(GiveUp) -> Int { Int(try int64()) }

  // MARK: - Syntax

  private mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  private mutating func literal(_ word: StaticString) throws(GiveUp) {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count, memcmp(bytes.baseAddress! + i, word.utf8Start, n) == 0 else {
      throw GiveUp()
    }
    i += n
  }

  private mutating func beginObject() throws(GiveUp) {
    skipWhitespace()
    guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw GiveUp() }
    i += 1
    skipWhitespace()
    // An empty object: the first `nextKey()` sees its `}`.
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") { keyCount = -1 } else { keyCount = -2 }
  }

  /// Moves to the next member's value, its key read (`key(_:)`); false after the closing `}`.
  private mutating func nextKey() throws(GiveUp) -> Bool {
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
  private mutating func convertKey(_ start: Int, _ end: Int) throws(GiveUp) {
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
    guard hasUnderscore, !hasOther, !hasNonASCII, bytes[start] != UInt8(ascii: "_"), bytes[end - 1] != UInt8(ascii: "_")
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

  private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }

  /// Whether the current key is `name`.
  private func key(_ name: StaticString) -> Bool {
    let n = name.utf8CodeUnitCount
    guard n == keyCount else { return false }
    if keyIsConverted {
      return converted.withUnsafeBufferPointer { memcmp($0.baseAddress!, name.utf8Start, n) == 0 }
    }
    return memcmp(bytes.baseAddress! + keyStart, name.utf8Start, n) == 0
  }

  /// Notes that a field was read, giving up when it was read before (a key written twice).
  private func mark(_ field: UInt32, in seen: inout UInt32) throws(GiveUp) {
    guard seen & (1 << field) == 0 else { throw GiveUp() }
    seen |= 1 << field
  }

  /// Only whitespace after the line's object.
  private mutating func end() throws(GiveUp) {
    skipWhitespace()
    guard i == bytes.count else { throw GiveUp() }
  }

  /// A string's contents (between its quotes) and whether it has escapes; `i` moves past it.
  /// Escapes are checked as JSON has them; a raw control character is given up on.
  private mutating func stringBounds() throws(GiveUp) -> (Int, Int, Bool) {
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
  private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at k: Int) -> UInt32? {
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
  private static func unescaped(_ s: UnsafeBufferPointer<UInt8>) throws(GiveUp) -> String {
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
  private mutating func numberBounds() throws(GiveUp) -> (Int, Int, Bool) {
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
  private mutating func digits() throws(GiveUp) -> Int {
    let start = i
    while i < bytes.count, bytes[i] &- 48 < 10 { i += 1 }
    return i - start
  }

  /// Skips one value of a key this format does not read, checking it is well-formed.
  private mutating func skipValue(depth: Int) throws(GiveUp) {
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
