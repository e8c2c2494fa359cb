import Foundation
import ResonanceIO
import ResonanceModel

/// Reads the Resonance apps' own recordings (`docs/formats.md`): the DJ's decision log, Watch
/// and Mac traces, mood inputs and breathing sessions. The header names the format; a bad line
/// is skipped with a warning naming its line.
package enum TraceReader {
  /// The formats this reader knows, as headers name them.
  package static let formats = [
    "resonance.decision-log", "resonance.watch-trace", "resonance.mac-context", "resonance.mood",
    "resonance.breathing",
  ]

  /// The format named by the first line, when it is one of ours.
  package static func format(ofFirstLine bytes: some Collection<UInt8>) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
      let format = object["format"] as? String, formats.contains(format)
    else { return nil }
    return format
  }

  /// The header versions this build reads, per format: a file of another version is refused,
  /// never read as if it were one of these.
  package static let versions: [String: ClosedRange<Int>] = [
    "resonance.decision-log": DecisionLogDecoder.versions, "resonance.watch-trace": 1...1,
    "resonance.mac-context": 1...1, "resonance.mood": 1...1, "resonance.breathing": 1...1,
  ]

  /// The header's `"version"`: a whole JSON number this build reads (1 when the header has
  /// none, as the first recordings did not).
  ///
  /// - Throws: `IngestError(.malformed)` naming the versions it knows, for a version out of
  ///   range or one that is not a whole number (`"1"`, `1.5`, `true`).
  static func version(
    of format: String, header: [UInt8], parsed: [String: Any], path: String
  ) throws -> Int {
    struct Field: Decodable { var version: Int? }
    let known = versions[format] ?? 1...1
    let knownText =
      known.count == 1 ? "\(known.lowerBound)" : "\(known.lowerBound) to \(known.upperBound)"
    let decoded = try? JSONDecoder().decode(Field.self, from: Data(header))
    if let decoded, decoded.version == nil, parsed["version"] == nil { return 1 }
    if let version = decoded?.version, known.contains(version) { return version }
    struct Flag: Decodable { var version: Bool }
    let found: String =
      if let flag = try? JSONDecoder().decode(Flag.self, from: Data(header)) {
        "\(flag.version) (a boolean)"
      } else {
        switch parsed["version"] {
        case let text as String: "\"\(text)\" (a string)"
        case let number as NSNumber where decoded?.version == nil:
          "\(number) (not a whole number)"
        case is NSNull, nil: "null"
        case let value?: "\(value)"
        }
      }
    throw IngestError(
      .malformed, at: SourceLocation(file: path, line: 1, column: 1),
      "expected \"version\" \(knownText) for \(format) (the versions this build reads), found \(found)"
        + ((decoded?.version ?? 0) > known.upperBound ? " (written by a newer app?)" : ""))
  }

  /// The longest line a recording may have: a decision with every candidate of a long
  /// playlist is tens of kilobytes; a longer line is skipped with a warning, never held.
  package static let maximumLineLength = 16 << 20

  /// A recording held in memory (tests, and files read whole).
  ///
  /// - Throws: `IngestError` when the header is not one of our formats.
  package static func read(path: String, data: Data) throws -> (TraceFile, [Diagnostic]) {
    var lines = LineReader(MemorySource(Array(data), name: path), maximumLength: .max)
    let (file, log) = try read(path: path, lines: &lines)
    return (file, log.diagnostics)
  }

  /// A recording read line by line from a stream.
  ///
  /// - Throws: `IngestError` when the header is not one of our formats, `IOError` when the
  ///   stream cannot be read.
  package static func read(path: String, lines: inout LineReader) throws -> (
    TraceFile, DiagnosticLog
  ) {
    guard let first = try lines.next(), case .text(let headerLine) = first.content,
      let format = format(ofFirstLine: headerLine),
      let header = try? JSONSerialization.jsonObject(with: Data(headerLine)) as? [String: Any]
    else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected a header naming one of \(formats.joined(separator: ", "))")
    }
    let version = try version(of: format, header: headerLine, parsed: header, path: path)
    if format == "resonance.breathing" {
      let (recording, samples, log) = try BreathingRecordingReader.read(
        path: path, header: header, lines: &lines)
      return (
        TraceFile(
          format: format, version: version, started: recording.started, samples: samples,
          content: .breathing(recording)),
        log
      )
    }
    var diagnostics = DiagnosticLog()
    var decoder: DecisionLogDecoder?
    if format == "resonance.decision-log" {
      do {
        decoder = try DecisionLogDecoder(header: headerLine, version: version)
        if decoder?.statesPreferences == false {
          diagnostics.append(
            Diagnostic(
              .warning,
              "the header gives no \"weights\": its decisions are stored, but cannot be replayed or tuned on",
              at: SourceLocation(file: path, line: 1, column: 1)))
        }
      } catch {
        throw IngestError(
          .malformed, at: SourceLocation(file: path, line: 1, column: 1), error.message)
      }
    }
    var watch: [BiometricReading] = []
    var mac: [MacContextSnapshot] = []
    var mood: [MoodInput] = []
    var decisions: [DecisionRecord] = []
    var samples = 0
    while let next = try lines.next() {
      let location = SourceLocation(file: path, line: next.number)
      guard case .text(let line) = next.content else {
        diagnostics.append(tooLong(next, at: location))
        continue
      }
      guard !line.isEmpty else { continue }
      if var lineDecoder = decoder {
        do {
          var warnings: [String] = []
          decisions.append(try lineDecoder.decode(line, warnings: &warnings))
          samples += 1
          for warning in warnings {
            diagnostics.append(Diagnostic(.warning, warning, at: location))
          }
        } catch {
          diagnostics.append(Diagnostic(.warning, "line skipped: " + error.message, at: location))
        }
        decoder = lineDecoder
        continue
      }
      guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        let text = object["t"] as? String,
        let time = BreathingRecordingReader.isoTimestamp(text, offset: object["offset"] as? Int)
      else {
        diagnostics.append(
          Diagnostic(
            .warning, "line skipped: expected an object with \"t\" (ISO UTC) and \"offset\"",
            at: location))
        continue
      }
      samples += 1
      switch format {
      case "resonance.watch-trace":
        watch.append(
          BiometricReading(
            time: time, heartRate: object["hr"] as? Double, hrv: object["hrv"] as? Double,
            isStationary: object["stationary"] as? Bool, isWorkout: object["workout"] as? Bool))
      case "resonance.mac-context":
        mac.append(
          MacContextSnapshot(
            time: time, focusMode: object["focus"] as? String,
            appCategory: object["app_category"] as? String,
            inMeeting: object["meeting"] as? Bool))
      case "resonance.mood":
        let tap: Int? =
          switch object["tap"] as? String {
          case "😊": 1
          case "😐": 0
          case "😔": -1
          default: nil
          }
        mood.append(
          MoodInput(
            time: time, device: object["device"] as? String ?? "unknown", tap: tap,
            valence: object["valence"] as? Double, energy: object["energy"] as? Double))
      default:
        break
      }
    }
    let content: TraceContent =
      switch format {
      case "resonance.watch-trace": .watch(watch)
      case "resonance.mac-context": .mac(mac)
      case "resonance.mood": .mood(mood)
      default: .decisions(decisions)
      }
    let started = [watch.first?.time, mac.first?.time, mood.first?.time, decisions.first?.time]
      .compactMap { $0 }.first
    return (
      TraceFile(
        format: format, version: version, started: started, samples: samples, content: content),
      diagnostics
    )
  }

  /// The warning for a line too long to read.
  static func tooLong(_ line: LineReader.Line, at location: SourceLocation) -> Diagnostic {
    let length: Int64 =
      switch line.content {
      case .tooLong(let bytes): bytes
      case .text(let bytes): Int64(bytes.count)
      }
    return Diagnostic(
      .warning,
      "line skipped: \(length) bytes long, more than the \(maximumLineLength) a line may have",
      at: location)
  }
}
