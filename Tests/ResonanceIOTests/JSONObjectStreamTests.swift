import Testing

@testable import ResonanceIO

@Suite("JSON objects: one held whole, and objects inside objects")
struct JSONObjectStreamTests {
  static func object(_ text: String) throws(JSONScanError) -> JSONFlatObject {
    try JSONFlatObject(parsing: Array(text.utf8))
  }

  @Test("one object, whitespace and a byte-order mark around it, values on demand")
  func single() throws {
    let object = try Self.object(#"  {"a": "x\u00e9", "n": 12, "t": true, "z": null}  "#)
    #expect(object.keys == ["a", "n", "t", "z"])
    #expect(object.string("a") == "xé" && object.int64("n") == 12 && object.bool("t") == true)
    #expect(object.kind("z") == .null && object.string("z") == nil)
    let marked = try JSONFlatObject(parsing: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
    #expect(marked.int64("a") == 1)
    #expect(try Self.object("{}").keys.isEmpty)
  }

  @Test("what is not one object is an error at its column")
  func notOne() {
    for (text, column) in [
      (#"{"a": 1} {"b": 2}"#, 10), (#"[{"a": 1}]"#, 1), (#"{"a": 1"#, 8), ("", 1),
      (#"{"a" 1}"#, 6),
    ] {
      do {
        _ = try Self.object(text)
        Issue.record("expected an error for \(text)")
      } catch {
        #expect(error.line == 1 && error.column == column, "\(text): \(error)")
      }
    }
  }

  @Test("an object inside an object, and one inside that; arrays and null are no objects")
  func nested() throws {
    let object = try Self.object(
      #"{"m": {"a": "b", "info": {"d": 200000, "list": [1, {"x": 2}]}}, "l": [1], "n": null, "s": "{}"}"#
    )
    let inner = try #require(try object.object("m"))
    #expect(inner.string("a") == "b")
    let info = try #require(try inner.object("info"))
    #expect(info.int64("d") == 200_000 && info.kind("list") == .nested)
    #expect(try info.object("list") == nil)
    #expect(try object.object("l") == nil && object.object("n") == nil)
    #expect(try object.object("s") == nil && object.object("missing") == nil)
  }

  @Test("a nested object that is not well-formed is found when it is read")
  func brokenInside() throws {
    // The outer read only balances the braces of a nested value.
    let object = try Self.object(#"{"m": {"a" "b"}}"#)
    #expect(throws: JSONScanError.self) { try object.object("m") }
  }

  @Test("an array's objects have their objects too")
  func inArray() throws {
    var stream = try JSONObjectStream(bytes: Array(#"[{"m": {"a": 1}}, {"m": {"a": 2}}]"#.utf8))
    var values: [Int64?] = []
    while let object = try stream.next() { values.append(try object.object("m")?.int64("a")) }
    #expect(values == [1, 2])
  }
}
