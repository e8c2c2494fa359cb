import ResonanceIO
import Testing

@Suite("LineReader")
struct LineReaderTests {
  func lines(_ text: String, maximum: Int = .max) throws -> [LineReader.Line] {
    var reader = LineReader(MemorySource(Array(text.utf8), name: "t"), maximumLength: maximum)
    var lines: [LineReader.Line] = []
    while let line = try reader.next() { lines.append(line) }
    return lines
  }

  func text(_ line: LineReader.Line) -> String? {
    guard case .text(let bytes) = line.content else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test("lines numbered from 1; CRLF and a last line without a break; empty lines kept")
  func basics() throws {
    let read = try lines("a\r\nbb\n\nccc")
    #expect(read.map(text) == ["a", "bb", "", "ccc"])
    #expect(read.map(\.number) == [1, 2, 3, 4])
    #expect(try lines("").isEmpty)
    #expect(try lines("x\n").map(text) == ["x"])
  }

  @Test("a line longer than the limit is skipped and measured, the next one read")
  func tooLong() throws {
    let long = String(repeating: "z", count: 3_000_000)
    let read = try lines("ok\n" + long + "\nafter\n" + long, maximum: 1000)
    #expect(read.count == 4)
    #expect(text(read[0]) == "ok" && text(read[2]) == "after")
    #expect(read[1].content == .tooLong(bytes: 3_000_000) && read[1].number == 2)
    #expect(read[3].content == .tooLong(bytes: 3_000_000) && read[3].number == 4)
  }

  @Test("lines across many reads come out whole")
  func acrossReads() throws {
    let text = (0..<50_000).map { "line \($0) " + String(repeating: "·", count: $0 % 97) }
      .joined(separator: "\n")
    let read = try lines(text, maximum: 1 << 20)
    #expect(read.count == 50_000)
    #expect(read.map(self.text) == text.split(separator: "\n").map(String.init))
  }
}
