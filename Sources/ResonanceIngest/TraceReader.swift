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

  /// A recording read line by line from a stream, held whole (tests, and small files); the
  /// import streams it instead (`stream(path:lines:emit:)`).
  ///
  /// - Throws: `IngestError` when the header is not one of our formats, `IOError` when the
  ///   stream cannot be read.
  package static func read(path: String, lines: inout LineReader) throws -> (
    TraceFile, DiagnosticLog
  ) {
    var whole: TraceFile?
    let log = try stream(path: path, lines: &lines) { part in
      guard var file = whole else {
        whole = part
        return true
      }
      file.samples += part.samples
      switch (file.content, part.content) {
      case (.watch(let a), .watch(let b)): file.content = .watch(a + b)
      case (.mac(let a), .mac(let b)): file.content = .mac(a + b)
      case (.mood(let a), .mood(let b)): file.content = .mood(a + b)
      case (.decisions(let a), .decisions(let b)): file.content = .decisions(a + b)
      default: break
      }
      whole = file
      return true
    }
    return (whole!, log)
  }

  /// Samples per part a recording is sent in: a part of Watch, Mac or mood lines is a few
  /// hundred kilobytes; a decision carries its candidates, so its parts are smaller.
  static let samplesPerPart = 8192
  static let decisionsPerPart = 256

  /// Reads a recording line by line, handing it to `emit` in parts as it goes (it returns
  /// false to stop): the first part names the recording (format, version, first instant),
  /// and each later one (`continues`) adds its samples. Memory holds one part, whatever the
  /// recording's length. A breathing session (minutes long) is one part. A recording with no
  /// samples is one empty part.
  ///
  /// - Returns: the warnings.
  /// - Throws: `IngestError` when the header is not one of our formats, `IOError` when the
  ///   stream cannot be read.
  package static func stream(
    path: String, lines: inout LineReader, emit: (TraceFile) throws -> Bool
  ) throws -> DiagnosticLog {
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
      _ = try emit(
        TraceFile(
          format: format, version: version, started: recording.started, samples: samples,
          content: .breathing(recording)))
      return log
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
    var part = Part(format: format, version: version)
    var stopped = false
    let perPart = decoder == nil ? samplesPerPart : decisionsPerPart
    func send() throws {
      guard !stopped else { return }
      stopped = !(try emit(part.take()))
    }
    while !stopped, let next = try lines.next() {
      let location = SourceLocation(file: path, line: next.number)
      guard case .text(let line) = next.content else {
        diagnostics.append(tooLong(next, at: location))
        continue
      }
      guard !line.isEmpty else { continue }
      if var lineDecoder = decoder {
        do {
          var warnings: [String] = []
          part.add(.decision(try lineDecoder.decode(line, warnings: &warnings)))
          for warning in warnings {
            diagnostics.append(Diagnostic(.warning, warning, at: location))
          }
        } catch {
          diagnostics.append(Diagnostic(.warning, "line skipped: " + error.message, at: location))
        }
        decoder = lineDecoder
      } else if let sample = sample(line, format: format) {
        part.add(sample)
      } else {
        diagnostics.append(
          Diagnostic(
            .warning, "line skipped: expected an object with \"t\" (ISO UTC) and \"offset\"",
            at: location))
      }
      if part.samples >= perPart { try send() }
    }
    if !part.isSent || part.samples > 0 { try send() }
    return diagnostics
  }

  /// One line of a Watch, Mac or mood recording; nil when it has no readable `t` and `offset`.
  ///
  /// Read by `JSONFlatObject`, the listening readers' scanner, not `JSONSerialization`: no
  /// dictionary of bridged values per line. A number must be finite, a flag `true` or `false`,
  /// text a string; a value of another type is absent, as it was.
  private static func sample(_ line: [UInt8], format: String) -> Part.Sample? {
    guard let object = try? JSONFlatObject(parsing: line), let text = object.string("t"),
      let time = BreathingRecordingReader.isoTimestamp(
        text, offset: object.int64("offset").flatMap { Int(exactly: $0) })
    else { return nil }
    func number(_ key: StaticString) -> Double? {
      object.number(key).flatMap { $0.isFinite ? $0 : nil }
    }
    switch format {
    case "resonance.watch-trace":
      return .watch(
        BiometricReading(
          time: time, heartRate: number("hr"), hrv: number("hrv"),
          isStationary: object.bool("stationary"), isWorkout: object.bool("workout")))
    case "resonance.mac-context":
      return .mac(
        MacContextSnapshot(
          time: time, focusMode: object.string("focus"), appCategory: object.string("app_category"),
          inMeeting: object.bool("meeting")))
    default:
      let tap: Int? =
        switch object.string("tap") {
        case "😊": 1
        case "😐": 0
        case "😔": -1
        default: nil
        }
      return .mood(
        MoodInput(
          time: time, device: object.string("device") ?? "unknown", tap: tap,
          valence: number("valence"), energy: number("energy")))
    }
  }

  /// The samples read since the last part was sent.
  private struct Part {
    enum Sample {
      case watch(BiometricReading)
      case mac(MacContextSnapshot)
      case mood(MoodInput)
      case decision(DecisionRecord)
    }

    let format: String
    let version: Int
    private var watch: [BiometricReading] = []
    private var mac: [MacContextSnapshot] = []
    private var mood: [MoodInput] = []
    private var decisions: [DecisionRecord] = []
    private(set) var samples = 0
    /// Whether a part was sent: the later ones continue it.
    private(set) var isSent = false
    private var started: Timestamp?

    init(format: String, version: Int) {
      self.format = format
      self.version = version
    }

    mutating func add(_ sample: Sample) {
      samples += 1
      let time: Timestamp
      switch sample {
      case .watch(let r):
        watch.append(r)
        time = r.time
      case .mac(let m):
        mac.append(m)
        time = m.time
      case .mood(let m):
        mood.append(m)
        time = m.time
      case .decision(let d):
        decisions.append(d)
        time = d.time
      }
      if started == nil { started = time }
    }

    /// The part to send, and a fresh start for the next.
    mutating func take() -> TraceFile {
      let content: TraceContent =
        switch format {
        case "resonance.watch-trace": .watch(watch)
        case "resonance.mac-context": .mac(mac)
        case "resonance.mood": .mood(mood)
        default: .decisions(decisions)
        }
      var file = TraceFile(
        format: format, version: version, started: started, samples: samples, content: content)
      file.continues = isSent
      isSent = true
      watch.removeAll(keepingCapacity: true)
      mac.removeAll(keepingCapacity: true)
      mood.removeAll(keepingCapacity: true)
      decisions.removeAll(keepingCapacity: true)
      samples = 0
      return file
    }
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
