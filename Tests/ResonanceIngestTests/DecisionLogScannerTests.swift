import Foundation
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// What decoding one line gives: the record and its warnings, or the failure's message.
private enum Decoded: Equatable {
  case record(DecisionRecord, [String])
  case failure(String)
}

/// One line decoded with the scanner first (as `resonance ingest` reads) and with
/// `JSONDecoder` alone (as the reader did before the scanner).
private func decodedBothWays(_ line: String, header: String = DecisionLogVersion2Tests.header)
  throws -> (scanned: Decoded, decoded: Decoded)
{
  func decode(usesScanner: Bool) throws -> Decoded {
    var decoder = try DecisionLogDecoder(header: Array(header.utf8), version: 2)
    decoder.usesScanner = usesScanner
    var warnings: [String] = []
    do {
      let record = try decoder.decode(Array(line.utf8), warnings: &warnings)
      return .record(record, warnings)
    } catch {
      return .failure(error.message)
    }
  }
  return (try decode(usesScanner: true), try decode(usesScanner: false))
}

/// Where each `"key":` of a line is, with its value's span: a small skipper of well-formed
/// JSON, for building variants of a line in the tests.
private struct KeyedValue {
  var key: String
  var keyRange: Range<Int>
  var valueRange: Range<Int>
}

private func keyedValues(_ text: String) -> [KeyedValue] {
  let b = Array(text.utf8)
  var found: [KeyedValue] = []
  func skipString(_ i: Int) -> Int {
    var k = i + 1
    while b[k] != UInt8(ascii: "\"") { k += b[k] == UInt8(ascii: "\\") ? 2 : 1 }
    return k + 1
  }
  func skipValue(_ i: Int) -> Int {
    switch b[i] {
    case UInt8(ascii: "\""): return skipString(i)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var k = i
      repeat {
        switch b[k] {
        case UInt8(ascii: "\""):
          k = skipString(k)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
        k += 1
      } while depth > 0
      return k
    default:
      var k = i
      while k < b.count, !",}]".utf8.contains(b[k]) { k += 1 }
      return k
    }
  }
  var i = 0
  while i < b.count {
    if b[i] == UInt8(ascii: "\"") {
      let end = skipString(i)
      if end < b.count, b[end] == UInt8(ascii: ":") {
        let key = String(decoding: b[(i + 1)..<(end - 1)], as: UTF8.self)
        found.append(
          KeyedValue(key: key, keyRange: i..<end, valueRange: (end + 1)..<skipValue(end + 1)))
      }
      i = end
    } else {
      i += 1
    }
  }
  return found
}

private func replacing(_ text: String, _ range: Range<Int>, with new: String) -> String {
  let b = Array(text.utf8)
  return String(decoding: b[..<range.lowerBound], as: UTF8.self) + new
    + String(decoding: b[range.upperBound...], as: UTF8.self)
}

/// The key in the other spelling: snake case for camel case and back.
private func otherSpelling(_ key: String) -> String {
  if key.contains("_") {
    let words = key.split(separator: "_")
    return words[0].lowercased() + words.dropFirst().map { $0.capitalized }.joined()
  }
  var out = ""
  for c in key {
    if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
  }
  return out
}

@Suite("Decision log scanner: the same records and the same messages as JSONDecoder")
struct DecisionLogScannerTests {
  static let lines = [
    DecisionLogVersion2Tests.line(1), DecisionLogVersion2Tests.line(2),
    DecisionLogVersion1Tests.first, DecisionLogVersion1Tests.second,
    DecisionLogVersion2Tests.line(
      3, extra: #""preferences":"# + DecisionLogVersion2Tests.preferences + ","),
  ]

  @Test("well-formed decisions are read by the scanner, to the decoder's very records")
  func wellFormed() throws {
    for line in Self.lines {
      #expect(DecisionLogDecoder.scannedLine(Array(line.utf8)) != nil, "\(line)")
      let (scanned, decoded) = try decodedBothWays(line)
      #expect(scanned == decoded)
      guard case .record = scanned else {
        Issue.record("expected a record, found \(scanned)")
        continue
      }
    }
  }

  static let replacementValues = [
    "null", #""x""#, "1.5", "1e2", "1E+2", "-0", "0.1e1", "true", "false", "[]", "{}", "[1,2]",
    #"["a",null]"#, #"{"bpm":1}"#, #""\u00e9\ud83c\udfb5\n\"""#, #""\ud800""#, #""\udc00x""#,
    "1E400", "-1e-400", "12345678901234567890", "-9223372036854775808", "7", "-3",
    "0.30000000000000004", "5e-324", #""2022-06-01T15:00:00Z""#, "01", "1.", ".5", "+1", "-",
    "tru", "nul", #""unterminated"#, "NaN", "\"tab\tinside\"",
  ]

  @Test("every key given every kind of value decodes alike, to a record or to the same message")
  func valuesSwapped() throws {
    var scannerRead = 0
    var compared = 0
    for line in Self.lines {
      for found in keyedValues(line) {
        for value in Self.replacementValues {
          let variant = replacing(line, found.valueRange, with: value)
          let (scanned, decoded) = try decodedBothWays(variant)
          #expect(scanned == decoded, "\(found.key): \(value)")
          compared += 1
          if DecisionLogDecoder.scannedLine(Array(variant.utf8)) != nil { scannerRead += 1 }
        }
      }
    }
    #expect(compared > 3000)
    // The scanner took a good share (numbers for numbers, null for optionals, unknown keys'
    // values) and gave the rest back.
    #expect(scannerRead > compared / 10 && scannerRead < compared, "\(scannerRead) of \(compared)")
  }

  @Test("keys respelled, escaped, doubled or dropped decode alike")
  func keysChanged() throws {
    var scannerRead = 0
    for line in Self.lines {
      for found in keyedValues(line) {
        let key = found.key
        let value = String(decoding: Array(line.utf8)[found.valueRange], as: UTF8.self)
        let respelled = [
          otherSpelling(key), key.uppercased(), "_" + key, key + "_", key.capitalized,
          key.replacingOccurrences(of: "_", with: "__"),
          "\\u00" + String(key.utf8.first!, radix: 16)
            + key.dropFirst(), key + "x", "K" + key, "\u{212A}_" + key,
        ]
        var variants = respelled.map {
          replacing(line, found.keyRange, with: "\"\($0)\":")
        }
        // Doubled (the same spelling, and the other spelling) and dropped.
        let member = "\"\(key)\":" + value
        variants.append(
          replacing(line, found.keyRange.lowerBound..<found.keyRange.lowerBound, with: member + ",")
        )
        variants.append(
          replacing(
            line, found.keyRange.lowerBound..<found.keyRange.lowerBound,
            with: "\"\(otherSpelling(key))\":" + value + ","))
        let bytes = Array(line.utf8)
        if found.valueRange.upperBound < bytes.count,
          bytes[found.valueRange.upperBound] == UInt8(ascii: ",")
        {
          variants.append(
            replacing(line, found.keyRange.lowerBound..<(found.valueRange.upperBound + 1), with: "")
          )
        }
        for variant in variants {
          let (scanned, decoded) = try decodedBothWays(variant)
          #expect(scanned == decoded, "\(variant)")
          if DecisionLogDecoder.scannedLine(Array(variant.utf8)) != nil { scannerRead += 1 }
        }
      }
    }
    #expect(scannerRead > 100)
  }

  @Test("malformed lines give the decoder's message: cut short, wrapped, or with bytes after")
  func malformedLines() throws {
    let line = DecisionLogVersion2Tests.line(1)
    var variants = stride(from: 0, to: line.utf8.count, by: 5).map {
      String(decoding: Array(line.utf8).prefix($0), as: UTF8.self)
    }
    variants += [
      line + "x", line + " ", " \t" + line + "\r", "[" + line + "]", "\u{FEFF}" + line, "null",
      #""text""#, "12", "{}", line.replacingOccurrences(of: ",", with: " , "),
      line.replacingOccurrences(of: ":", with: " :\n "),
      line.replacingOccurrences(of: #""Ana""#, with: "\"A\u{1}\""),
      line.replacingOccurrences(of: "}", with: ",}"),
    ]
    var bytes = Array(line.utf8)
    bytes[bytes.count / 2] = 0xFF
    let invalidUTF8 = bytes
    for variant in variants {
      let (scanned, decoded) = try decodedBothWays(variant)
      #expect(scanned == decoded, "\(variant)")
    }
    #expect(DecisionLogDecoder.scannedLine(invalidUTF8) == nil)
    // Spaces and newlines between tokens are JSON's: the scanner reads them.
    #expect(
      DecisionLogDecoder.scannedLine(Array(line.replacingOccurrences(of: ",", with: " ,\t").utf8))
        != nil)
  }

  @Test("numbers with exponents and at the edges of a double read back to the same bits")
  func numbers() throws {
    var generator = SplitMix64(seed: 30)
    var written: [String] = [
      "1e-05", "1E-5", "2.5e+3", "-0.0", "0e0", "4.9406564584124654e-324",
      "2.2250738585072014e-308",
      "1.7976931348623157e308", "0.1", "123456789012345678901234567890", "9007199254740993",
      "0e1", "0e0", "-0e5", "0.0e1", "0.00e2", "0.0000E+5", "-1e-400", "5e-325", "3e-324",
      "1.8e308",
      "2.4703282292062327e-324", "2.4703282292062328e-324", "0.000", "-0",
    ]
    for _ in 0..<400 {
      let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
      written.append("\(value)")
      written.append(String(format: "%.17g", value))
      written.append(String(format: "%.6e", value))
    }
    // Up to 15 significant digits and up to 22 decimals, signs and leading zeros: the
    // scanner's short way (one correctly rounded division), which must agree with strtod.
    for _ in 0..<2000 {
      let digits = String(
        generator.next() % (generator.next() % 2 == 0 ? 1_000_000_000_000_000 : 10_000))
      let decimals = Int(generator.next() % 23)
      let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
      let point = padded.index(padded.endIndex, offsetBy: -decimals)
      let sign = generator.next() % 4 == 0 ? "-" : ""
      written.append(sign + padded[..<point] + (decimals > 0 ? "." + padded[point...] : ""))
    }
    written += [
      "0.1", "0.2", "0.3", "1.15", "123456789012345", "1234567890123456", "0.000000000000000000001",
      "9007199254740993.0",
    ]
    var accepted = 0
    for text in written {
      let line = DecisionLogVersion2Tests.line(1).replacingOccurrences(
        of: #""score":0.5"#, with: #""score":\#(text)"#)
      let (scanned, decoded) = try decodedBothWays(line)
      guard case .record(let a, _) = scanned, case .record(let b, _) = decoded else {
        #expect(scanned == decoded, "\(text)")
        continue
      }
      #expect(
        a.candidates[0].finalScore.bitPattern == b.candidates[0].finalScore.bitPattern, "\(text)")
      #expect(a.candidates[0].finalScore.bitPattern == Double(text)!.bitPattern, "\(text)")
      accepted += 1
    }
    #expect(accepted > 3000)
  }

  @Test("escaped strings decode alike: surrogate pairs, every short escape, a lone surrogate")
  func escapes() throws {
    let songs = [
      #"a\ud83c\udfb5b"#, #"\"\\\/\b\f\n\r\t"#, #"\u00e9\u0000"#, #"\ud83c"#, #"\udfb5"#,
      #"\ud83cx"#, #"\ud83c\u0041"#, "é🎵",
    ]
    for song in songs {
      let line = DecisionLogVersion2Tests.line(1).replacingOccurrences(
        of: #""artist":"Ana""#, with: #""artist":"\#(song)""#)
      let (scanned, decoded) = try decodedBothWays(line)
      #expect(scanned == decoded, "\(song)")
    }
    let line = DecisionLogVersion2Tests.line(1).replacingOccurrences(
      of: #""artist":"Ana""#, with: #""artist":"\ud83c\udfb5 \u00e9""#)
    let scanned = try #require(DecisionLogDecoder.scannedLine(Array(line.utf8)))
    #expect(scanned.candidates.first?.artist == "🎵 é")
  }
}
