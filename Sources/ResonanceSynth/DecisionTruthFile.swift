import Foundation
import ResonanceIO
import ResonanceModel

/// `decisions-truth.jsonl.gz`, written beside `truth.json`: for every decision the simulated
/// DJ logged, what each admitted candidate would have given (`CandidateTruth`), so that the
/// one-step value of any preferences on the logged decisions is exact (`docs/synth.md`,
/// "One-step truth"; `resonance validate --preferences`).
///
/// The first line is a header, `{"format":"resonance.decisions-truth","version":1,...}`; each
/// line after is one decision: `decision` (the log's number), `time_ms`, `songs` (catalog ids
/// of the admitted candidates in the log's order) and the arrays `skip`, `share` and
/// `response`, one number per song.
package enum DecisionTruthFile {
  package static let format = "resonance.decisions-truth"
  package static let version = 1

  /// One decision's truth.
  package struct Decision: Sendable, Equatable {
    package var decision: Int
    package var timeMs: Int64
    /// Catalog ids, in the log's order of admitted candidates.
    package var songs: [String]
    package var candidates: [CandidateTruth]
  }

  /// Every decision of the file at `path`, by the log's decision number.
  ///
  /// - Throws: `IOError` when it cannot be read (exit 66 when missing), and
  ///   `DecisionTruthFile.Error` at `path:line:1` for a line that is not what this file holds.
  package static func read(path: String) throws -> [Int: Decision] {
    // Read whole first, so that what fails after is the bytes, not the disk.
    let bytes = try InputFile.open(path: path).readAll()
    var lines: LineReader
    do {
      lines = LineReader(
        try GzipSource(wrapping: MemorySource(bytes, name: path)), maximumLength: 1 << 24)
    } catch {
      throw Error(message: "\(path):1:1: expected a gzip stream, found \(error.reason)")
    }
    var decisions: [Int: Decision] = [:]
    while let line = try next(&lines, path: path) {
      func bad(_ expected: String) -> Error {
        Error(message: "\(path):\(line.number):1: expected \(expected)")
      }
      guard case .text(let bytes) = line.content,
        let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
      else { throw bad("a JSON object on one line") }
      if line.number == 1 {
        guard object["format"] as? String == format, object["version"] as? Int == version else {
          throw bad("a header naming format \(format), version \(version)")
        }
        continue
      }
      guard let number = object["decision"] as? Int,
        let time = (object["time_ms"] as? NSNumber)?.int64Value,
        let songs = object["songs"] as? [String], let skip = object["skip"] as? [Double],
        let share = object["share"] as? [Double], let response = object["response"] as? [Double],
        skip.count == songs.count, share.count == songs.count, response.count == songs.count
      else {
        throw bad("decision, time_ms, and songs, skip, share and response of one length")
      }
      decisions[number] = Decision(
        decision: number, timeMs: time, songs: songs,
        candidates: songs.indices.map {
          CandidateTruth(skip: skip[$0], share: share[$0], response: response[$0])
        })
    }
    return decisions
  }

  /// The next line, a corrupt stream as a file that is not a decisions truth.
  private static func next(_ lines: inout LineReader, path: String) throws -> LineReader.Line? {
    do {
      return try lines.next()
    } catch {
      throw Error(message: "\(path): expected a whole gzip stream, found \(error.reason)")
    }
  }

  /// A file that is not a decisions truth, with where and what was expected.
  package struct Error: Swift.Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
  }
}
