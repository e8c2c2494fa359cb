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
      guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        let t = object["t"] as? Double, t.isFinite
      else {
        diagnostics.append(
          Diagnostic(.warning, "line skipped: expected an object with a time \"t\"", at: location))
        continue
      }
      var known = false
      if let phase = object["pacer"] as? String {
        known = true
        if let phase = BreathingRecording.Phase(rawValue: phase) {
          recording.pacer.append(.init(t, phase))
        } else {
          diagnostics.append(
            Diagnostic(.warning, "unknown pacer phase '\(phase)' skipped", at: location))
        }
      }
      if let value = object["trace"] as? Double, value.isFinite {
        known = true
        if t < lastTrace { inOrder = false }
        lastTrace = t
        recording.trace.append(.init(t, value))
      }
      if let value = object["pulse"] as? Double, value.isFinite {
        known = true
        recording.pulse.append(.init(t, value))
      }
      if let value = object["rate"] as? Double, value.isFinite {
        known = true
        recording.sdkRate.append(.init(t, value))
      }
      if let value = object["hrv"] as? Double, value.isFinite {
        known = true
        recording.hrv.append(.init(t, value))
      }
      if let label = object["expression"] as? String {
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
