import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Metadata as JSON")
struct MetadataJSONTests {
  @Test("one entry is an object with one string")
  func single() {
    #expect(
      MetadataJSON.encode([MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "1")])
        == #"{"HKMetadataKeyHeartRateMotionContext":"1"}"#)
    #expect(MetadataJSON.encode([]) == nil)
  }

  @Test("a repeated key holds its values in order; quotes and control characters are escaped")
  func repeatedAndEscaped() {
    let entries = [
      MetadataEntry(key: "a", value: "x\"y\\z"),
      MetadataEntry(key: "b", value: "line\nnext\u{01}\t\r"),
      MetadataEntry(key: "a", value: "é’"),
    ]
    #expect(
      MetadataJSON.encode(entries)
        == #"{"a":["x\"y\\z","é’"],"b":"line\nnext\u0001\t\r"}"#)
    var bytes: [UInt8] = []
    MetadataJSON.append(entries, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == MetadataJSON.encode(entries))
  }

  @Test(
    "distinct keys, same-length ones among them, stay in order, one string each; a repeat later on still gathers"
  )
  func distinctKeysInOrder() {
    let distinct = [
      MetadataEntry(key: "HKTimeZone", value: "Europe/Paris"),
      MetadataEntry(key: "ab", value: "1"), MetadataEntry(key: "cd", value: "2"),
      MetadataEntry(key: "Sync Link", value: "healthsync://open?record=1&kind=2"),
    ]
    #expect(
      MetadataJSON.encode(distinct)
        == #"{"HKTimeZone":"Europe/Paris","ab":"1","cd":"2","Sync Link":"healthsync://open?record=1&kind=2"}"#
    )
    let repeated = distinct + [MetadataEntry(key: "cd", value: "3")]
    #expect(
      MetadataJSON.encode(repeated)
        == #"{"HKTimeZone":"Europe/Paris","ab":"1","cd":["2","3"],"Sync Link":"healthsync://open?record=1&kind=2"}"#
    )
  }
}
