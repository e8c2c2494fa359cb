import Foundation
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

  /// - Throws: `IngestError` when the header is not one of our formats.
  package static func read(path: String, data: Data) throws -> (TraceFile, [Diagnostic]) {
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    guard let first = lines.first, let format = format(ofFirstLine: first),
      let header = try? JSONSerialization.jsonObject(with: Data(first)) as? [String: Any]
    else {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected a header naming one of \(formats.joined(separator: ", "))")
    }
    let version = header["version"] as? Int ?? 1
    if format == "resonance.breathing" {
      let (recording, diagnostics) = try BreathingRecordingReader.read(path: path, data: data)
      let samples = lines.dropFirst().filter { !$0.isEmpty }.count
      return (
        TraceFile(
          format: format, version: version, started: recording.started, samples: samples,
          content: .breathing(recording)),
        diagnostics
      )
    }
    var diagnostics: [Diagnostic] = []
    var watch: [BiometricReading] = []
    var mac: [MacContextSnapshot] = []
    var mood: [MoodInput] = []
    var decisions: [DecisionRecord] = []
    var samples = 0
    for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      let location = SourceLocation(file: path, line: index + 1)
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
        guard let decision = object["decision"] as? Int else {
          samples -= 1
          diagnostics.append(
            Diagnostic(.warning, "line skipped: a decision without its number", at: location))
          continue
        }
        let chosen = object["chosen"] as? String
        let candidates = object["candidates"] as? [[String: Any]] ?? []
        let chosenArtist =
          candidates.first { $0["song"] as? String == chosen }?["artist"] as? String
        var outcome: DecisionOutcome?
        if let o = object["outcome"] as? [String: Any], let listened = o["listened_ms"] as? Int {
          outcome = DecisionOutcome(
            listenedMs: Int64(max(0, listened)),
            durationMs: (o["duration_ms"] as? Int).map(Int64.init),
            skipped: o["skipped"] as? Bool ?? false, completed: o["completed"] as? Bool)
        }
        decisions.append(
          DecisionRecord(
            time: time, decision: decision, session: object["session"] as? Int,
            need: object["need"] as? String, context: object["context"] as? String,
            chosen: chosen, chosenArtist: chosenArtist, outcome: outcome,
            line: String(decoding: line, as: UTF8.self)))
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
}
