import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel

/// What the harnesses do with libFuzzer's bytes: hand them to one reader the way the tool does,
/// and take a thrown error as an answer.
///
/// A harness reports a bug only by crashing: a trap (an overflow, an index out of range, a
/// failed `precondition`), a sanitizer report, or libFuzzer's own limits on time and memory.
package enum FuzzInput {
  /// The name messages give the input.
  package static let name = "fuzz-input"

  /// The input as an array.
  package static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
  }

  /// Reads the input as `format`, as `resonance ingest` does once recognition (or `--as`) has
  /// chosen the reader: the registry's reader, fed from a stream, sending into a sink.
  package static func read(_ data: UnsafePointer<UInt8>?, _ size: Int, as format: ImportFormat) {
    let source = ChunkedSource(bytes(data, size), name: name)
    do {
      let summary = try ImportRegistry.reader(for: format).read(source, into: DiscardingSink())
      describe(summary.diagnostics)
    } catch let broken as BrokenFile {
      _ = broken.description
      describe(broken.summary.diagnostics)
    } catch {
      _ = String(describing: error)
    }
  }

  /// Reads the input as `resonance hrv FILE` does: the whole file, through `RRFileReader`.
  package static func readRR(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    do {
      let (_, diagnostics) = try RRFileReader.read(path: name, data: Data(bytes(data, size)))
      describe(diagnostics)
    } catch {
      _ = String(describing: error)
    }
  }

  /// Reads the input as `resonance breathing FILE` does: line by line, through
  /// `BreathingRecordingReader`.
  package static func readBreathing(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    var lines = LineReader(
      ChunkedSource(bytes(data, size), name: name), maximumLength: TraceReader.maximumLineLength)
    do {
      let (_, diagnostics) = try BreathingRecordingReader.read(path: name, lines: &lines)
      describe(diagnostics)
    } catch {
      _ = String(describing: error)
    }
  }

  /// Makes each diagnostic's message, as the tool prints it.
  package static func describe(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics { _ = diagnostic.description }
  }
}
