import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// Whether two readings of a line are the same, doubles compared bit for bit (`-0.0` is not
/// `0.0` here).
private func identical(_ a: BreathingRecordingReader.Sample, _ b: BreathingRecordingReader.Sample)
  -> Bool
{
  let x = [a.t, a.trace, a.pulse, a.rate, a.hrv].map { $0?.bitPattern }
  let y = [b.t, b.trace, b.pulse, b.rate, b.hrv].map { $0?.bitPattern }
  return x == y && a.pacer == b.pacer && a.expression == b.expression
}

@Suite("Breathing samples: the scanner reads a line as JSONSerialization does, or leaves it")
struct BreathingSampleScanTests {
  static let lines = [
    #"{"t":0.033,"trace":0.48213}"#, #"{"t":12,"pulse":1,"rate":5.5}"#,
    #"{"t":0,"pacer":"inhale"}"#, #"{"t":3.5,"expression":"calm"}"#, #"{"t":0,"hrv":59.2}"#,
  ]

  static let values = [
    "0", "-0", "-0.0", "1.5", "1e2", "1E2", "1e-400", "1e400", "0.12345678901234567",
    "0.123456789012345678", "123456789012345", "1234567890123456", "12345678901234567890",
    "-9223372036854775808", "0.30000000000000004", "5e-324", "true", "false", "null", #""x""#,
    #""\u0041""#, "[]", "{}", #""é""#, "01", "1.", "-", "NaN",
  ]

  @Test(
    "every value in every field: when the scanner reads a line, it reads what JSONSerialization reads"
  )
  func sameReading() throws {
    var scanned = 0
    var compared = 0
    for line in Self.lines {
      for key in ["t", "trace", "pulse", "rate", "hrv", "pacer", "expression"] {
        for value in Self.values {
          var variants = [
            line.replacingOccurrences(of: "}", with: ",\"\(key)\":\(value)}"),
            "{\"\(key)\":\(value)," + line.dropFirst(),
          ]
          if line.contains("\"\(key)\":") {
            variants.append(
              line.replacingOccurrences(
                of: #""\#(key)":[^,}]*"#, with: "\"\(key)\":\(value)", options: .regularExpression))
          }
          for variant in variants {
            let bytes = Array(variant.utf8)
            let serialized = BreathingRecordingReader.Sample(serializing: bytes)
            compared += 1
            guard let fast = BreathingRecordingReader.Sample(scanning: bytes) else { continue }
            scanned += 1
            guard let reference = serialized else {
              Issue.record("JSONSerialization refuses what the scanner read: \(variant)")
              continue
            }
            #expect(identical(fast, reference), "\(variant)")
          }
        }
      }
    }
    #expect(scanned > 200 && scanned < compared, "\(scanned) of \(compared)")
    for line in Self.lines {
      #expect(BreathingRecordingReader.Sample(scanning: Array(line.utf8)) != nil, "\(line)")
    }
  }

  @Test("a whole number, and -0, read as JSONSerialization's integer gives them")
  func wholeNumbers() {
    #expect(BreathingRecordingReader.Sample.serializedNumber("-0")?.sign == .plus)
    #expect(BreathingRecordingReader.Sample.serializedNumber("-0.0")?.sign == .minus)
    #expect(BreathingRecordingReader.Sample.serializedNumber("12") == 12)
    #expect(BreathingRecordingReader.Sample.serializedNumber("0.123456789012345678") == nil)
  }

  @Test(
    "a recording reads to the same samples and warnings with the scanner as through JSONSerialization alone"
  )
  func sameRecording() throws {
    let header =
      #"{"format":"resonance.breathing","version":1,"session":3,"pattern":"4-7-8","#
      + #""started":"2022-06-02T14:23:26.561Z","offset":-25200,"duration_s":114}"#
    var text = header + "\n"
    for line in Self.lines {
      text += line + "\n"
    }
    text += #"{"t":1,"trace":1E2}"# + "\n" + #"{"t":2,"pacer":"nap"}"# + "\n" + #"{"t":"x"}"# + "\n"
    text += #"{"t":0.5,"trace":0.123456789012345678}"# + "\n" + #"{"u":1}"# + "\n"
    let (recording, diagnostics) = try BreathingRecordingReader.read(
      path: "b.jsonl", data: Data(text.utf8))
    #expect(recording.trace.map(\.t) == [0.033, 0.5, 1])
    // A number of more than 17 characters goes through JSONSerialization, as before: its
    // reading (through Decimal) is not Double's correctly rounded one, and it is kept as it was.
    let long = try #require(
      BreathingRecordingReader.Sample(
        serializing: Array(#"{"t":0.5,"trace":0.123456789012345678}"#.utf8)))
    #expect(recording.trace.map(\.value) == [0.48213, long.trace!, 100])
    #expect(recording.pacer.count == 1 && recording.expressions.count == 1)
    #expect(recording.hrv.count == 1 && recording.pulse.count == 1 && recording.sdkRate.count == 1)
    #expect(diagnostics.map(\.location?.line) == [8, 9, 11, nil])
  }
}
