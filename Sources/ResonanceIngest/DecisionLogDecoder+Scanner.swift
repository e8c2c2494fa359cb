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
  /// an integer is read; where a double is, a finite one, and no zero written with an exponent
  /// or reached by underflow, which the decoder may refuse). Anything else — a malformed line, a
  /// missing key, a string where a number belongs, `1e2` for a count — is handed back, so
  /// that what is refused, and the message naming why, stay exactly `JSONDecoder`'s. Keys are
  /// matched after the snake-case conversion the decoder applies (`local_hour` is `localHour`,
  /// and so is `Local_Hour`). A number of at most 15 significant digits is one exact division
  /// (`shortDecimal`), any other goes through `Double(_:)`: both round correctly, as the
  /// decoder's parse does.
  ///
  /// - Complexity: O(n) in the line's length, with no dictionary or boxed value per key.
  static func scannedLine(_ bytes: [UInt8]) -> Line? {
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    // `withUTF8` is mutating; the copy shares the validated storage.
    var storage = text
    return storage.withUTF8 { buffer -> Line? in
      var scanner = DecisionLineScanner(buffer, text: text)
      return try? scanner.line()
    }
  }
}

/// A cursor over one line's bytes, reading the decision log's shapes (`scannedLine(_:)`).
struct DecisionLineScanner {
  /// Why the scanner gave a line back: whatever it was, `JSONDecoder` reads it again.
  struct GiveUp: Error {}

  let bytes: UnsafeBufferPointer<UInt8>
  /// The same bytes as text, for `Double(_:)` on a number's slice.
  let text: String
  var i = 0
  /// The current key: its bytes in the line, or (converted from snake case) in `converted`.
  var keyStart = 0
  var keyCount = 0
  var keyIsConverted = false
  var converted: [UInt8] = []

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
      } else if key("arm") {
        field = 18
        line.arm = try optional { s throws(GiveUp) in try s.string() }
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

  mutating func candidate() throws(GiveUp) -> Candidate {
    var c = Candidate()
    var seen: UInt32 = 0
    try beginObject()
    while try nextKey() {
      let field: UInt32
      if key("c") {
        field = 0
        c.c = try optional { s throws(GiveUp) in try s.array { s throws(GiveUp) in try s.double() }
        }
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

  mutating func features() throws(GiveUp) -> DecisionLogDecoder.Features {
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

  mutating func outcome() throws(GiveUp) -> DecisionLogDecoder.Outcome {
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

  mutating func adjuster() throws(GiveUp) -> AdjusterState {
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
  static let preferenceDoubles: [StaticString] = [
    "bpmWeight", "energyWeight", "familiarityWeight", "historicalWeight", "contextWeight",
    "recencyPenaltyWeight", "timeOfDayPenaltyWeight", "morningBPMCap", "morningStartHour",
    "morningEndHour", "nightBPMCap", "nightStartHour", "nightEndHour", "recencyWindowMinutes",
    "repeatBlockMinutes", "nightHardCapBPM",
  ]

  mutating func preferences() throws(GiveUp) -> UserPreferences {
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

  mutating func loggingPolicy() throws(GiveUp) -> LoggingPolicy {
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
}
