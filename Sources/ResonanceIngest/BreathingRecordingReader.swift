import Foundation
import ResonanceIO
import ResonanceModel

/// Reads a breathing-pacer recording (`resonance.breathing`, JSON Lines, `docs/formats.md`).
///
/// A line that is not a JSON object, or an object this format does not know, is skipped with a
/// warning naming its line; out-of-order samples are put in order, with a warning.
package enum BreathingRecordingReader {
  package static let format = "resonance.breathing"

  /// A recording held in memory.
  ///
  /// - Throws: `IngestError` when the first line is not a `resonance.breathing` header.
  package static func read(path: String, data: Data) throws -> (BreathingRecording, [Diagnostic]) {
    var lines = LineReader(MemorySource(Array(data), name: path), maximumLength: .max)
    return try read(path: path, lines: &lines)
  }

  /// A recording read line by line from a stream.
  ///
  /// - Throws: `IngestError` when the first line is not a `resonance.breathing` header,
  ///   `IOError` when the stream cannot be read.
  package static func read(path: String, lines: inout LineReader) throws -> (
    BreathingRecording, [Diagnostic]
  ) {
    guard let first = try lines.next(), case .text(let headerLine) = first.content,
      let header = try? JSONSerialization.jsonObject(with: Data(headerLine)) as? [String: Any],
      header["format"] as? String == format
    else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected a header line with \"format\":\"\(format)\"")
    }
    let (recording, _, log) = try read(path: path, header: header, lines: &lines)
    return (recording, log.diagnostics)
  }

  /// The samples after a header already read: the recording, its non-empty lines (samples,
  /// bad ones included) and the warnings.
  static func read(path: String, header: [String: Any], lines: inout LineReader) throws -> (
    BreathingRecording, Int, DiagnosticLog
  ) {
    var diagnostics = DiagnosticLog()
    var samples = 0
    var recording = BreathingRecording(
      session: header["session"] as? Int ?? 0, pattern: header["pattern"] as? String ?? "unknown")
    recording.durationSeconds = header["duration_s"] as? Double
    if let started = header["started"] as? String {
      recording.started = isoTimestamp(started, offset: header["offset"] as? Int)
    }
    for phase in header["phases"] as? [[String: Any]] ?? [] {
      if let name = (phase["phase"] as? String).flatMap(BreathingRecording.Phase.init),
        let seconds = phase["seconds"] as? Double
      {
        recording.schedule.append(.init(name, seconds))
      }
    }
    var inOrder = true
    var lastTrace = -Double.infinity
    while let next = try lines.next() {
      let location = SourceLocation(file: path, line: next.number)
      guard case .text(let line) = next.content else {
        samples += 1
        diagnostics.append(TraceReader.tooLong(next, at: location))
        continue
      }
      guard !line.isEmpty else { continue }
      samples += 1
      guard let object = Sample(scanning: line) ?? Sample(serializing: line),
        let t = object.t, t.isFinite
      else {
        diagnostics.append(
          Diagnostic(.warning, "line skipped: expected an object with a time \"t\"", at: location))
        continue
      }
      var known = false
      if let phase = object.pacer {
        known = true
        if let phase = BreathingRecording.Phase(rawValue: phase) {
          recording.pacer.append(.init(t, phase))
        } else {
          diagnostics.append(
            Diagnostic(.warning, "unknown pacer phase '\(phase)' skipped", at: location))
        }
      }
      if let value = object.trace, value.isFinite {
        known = true
        if t < lastTrace { inOrder = false }
        lastTrace = t
        recording.trace.append(.init(t, value))
      }
      if let value = object.pulse, value.isFinite {
        known = true
        recording.pulse.append(.init(t, value))
      }
      if let value = object.rate, value.isFinite {
        known = true
        recording.sdkRate.append(.init(t, value))
      }
      if let value = object.hrv, value.isFinite {
        known = true
        recording.hrv.append(.init(t, value))
      }
      if let label = object.expression {
        known = true
        recording.expressions.append(.init(t, label))
      }
      if !known {
        diagnostics.append(
          Diagnostic(.warning, "line skipped: no field this format knows", at: location))
      }
    }
    if !inOrder {
      recording.trace.sort { $0.t < $1.t }
      diagnostics.append(
        Diagnostic(
          .warning, "waveform timestamps were out of order; put in order",
          at: SourceLocation(file: path)))
    }
    recording.pacer.sort { $0.t < $1.t }
    return (recording, samples, diagnostics)
  }

  /// The fields of one sample line this format reads, each as `JSONSerialization` and an `as?`
  /// cast give it: a time or value is a number (as a double), a phase or label a string.
  struct Sample: Equatable {
    var t: Double?
    var pacer: String?
    var trace: Double?
    var pulse: Double?
    var rate: Double?
    var hrv: Double?
    var expression: String?

    /// The line read through `JSONSerialization`; nil when it is not a JSON object.
    init?(serializing line: [UInt8]) {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
      else { return nil }
      t = object["t"] as? Double
      pacer = object["pacer"] as? String
      trace = object["trace"] as? Double
      pulse = object["pulse"] as? Double
      rate = object["rate"] as? Double
      hrv = object["hrv"] as? Double
      expression = object["expression"] as? String
    }

    /// The keys a sample line may have, in `Sample`'s order.
    private static let keys = ["t", "pacer", "trace", "pulse", "rate", "hrv", "expression"]

    /// The line read by `JSONFlatObject`, when it is sure to give what `init(serializing:)`
    /// gives: an ASCII object of this format's keys only, each once, the times and values plain
    /// numbers that `JSONSerialization` reads as `Double(_:)` does (a whole number of at most
    /// 15 digits; otherwise at most 17 characters before any `e`, finite), the phases and
    /// labels strings without escapes. Nil for any other line, which is then read through
    /// `JSONSerialization`: a number it reads through `Decimal` (a longer one), a value of
    /// another type, a key written twice.
    init?(scanning line: [UInt8]) {
      guard line.allSatisfy({ $0 < 0x80 }), let object = try? JSONFlatObject(parsing: line)
      else { return nil }
      let keys = object.keys
      var seen = 0
      for key in keys {
        guard let index = Self.keys.firstIndex(of: key), seen & (1 << index) == 0 else {
          return nil
        }
        seen |= 1 << index
      }
      func number(_ key: StaticString) -> Double?? {
        guard object.has(key) else { return .some(nil) }
        guard object.kind(key) == .number, let text = object.rawText(key),
          let value = Self.serializedNumber(text)
        else { return nil }
        return .some(value)
      }
      func string(_ key: StaticString) -> String?? {
        guard object.has(key) else { return .some(nil) }
        guard let raw = object.rawString(key) else { return nil }
        return .some(String(decoding: raw, as: UTF8.self))
      }
      guard let t = number("t"), let pacer = string("pacer"), let trace = number("trace"),
        let pulse = number("pulse"), let rate = number("rate"), let hrv = number("hrv"),
        let expression = string("expression")
      else { return nil }
      (self.t, self.pacer, self.trace, self.pulse, self.rate, self.hrv, self.expression) =
        (t, pacer, trace, pulse, rate, hrv, expression)
    }

    /// A JSON number as `JSONSerialization` hands it over and `as? Double` takes it: a whole
    /// number through `Int64` (at most 15 characters, so exactly), any other through
    /// `Double(text)`. Nil when it would go through `Decimal` (more than 17 characters before
    /// the exponent), is not finite, or has an `E` (read otherwise): those are left to
    /// `JSONSerialization`.
    static func serializedNumber(_ text: String) -> Double? {
      let utf8 = text.utf8
      guard !utf8.contains(UInt8(ascii: "E")), text.count <= 40, isStrictNumber(utf8) else {
        return nil
      }
      let mantissa = utf8.prefix { $0 != UInt8(ascii: "e") }
      let isWhole = !utf8.contains(UInt8(ascii: ".")) && mantissa.count == utf8.count
      // A whole number comes as an integer: `-0` is 0, not -0.0.
      if isWhole { return mantissa.count <= 15 ? Int64(text).map(Double.init) : nil }
      guard mantissa.count <= 17, let value = Double(text), value.isFinite else { return nil }
      return value
    }
  }

  /// Whether the bytes are a number as RFC 8259 writes it (`-?(0|[1-9][0-9]*)(.[0-9]+)?`
  /// and an exponent): `JSONSerialization` refuses `01` and `1.`, which `JSONFlatObject` lets by.
  static func isStrictNumber(_ bytes: String.UTF8View) -> Bool {
    var i = bytes.makeIterator()
    var c = i.next()
    func digits() -> Int {
      var n = 0
      while let d = c, d &- 48 < 10 {
        n += 1
        c = i.next()
      }
      return n
    }
    if c == UInt8(ascii: "-") { c = i.next() }
    if c == UInt8(ascii: "0") {
      c = i.next()
    } else if digits() == 0 {
      return false
    }
    if c == UInt8(ascii: ".") {
      c = i.next()
      guard digits() > 0 else { return false }
    }
    if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
      c = i.next()
      if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { c = i.next() }
      guard digits() > 0 else { return false }
    }
    return c == nil
  }

  /// The UTC offsets a recording may state, in seconds: a time zone's are within 18 hours.
  static let utcOffsets = -18 * 3600...18 * 3600

  /// `2022-06-02T14:23:26.561Z` with the header's offset beside it; nil when the text is not
  /// such an instant or the offset is outside `utcOffsets`.
  static func isoTimestamp(_ text: String, offset: Int?) -> Timestamp? {
    let offset = offset ?? 0
    guard utcOffsets.contains(offset) else { return nil }
    return FixedDateParser.isoUTC(text).map {
      Timestamp(millisecondsSinceEpoch: $0, utcOffsetSeconds: Int32(offset))
    }
  }
}
