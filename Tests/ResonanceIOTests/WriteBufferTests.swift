import Testing

@testable import ResonanceIO

@Suite("WriteBuffer")
struct WriteBufferTests {
  @Test("a write that exactly fills the buffer reports it full; one byte short does not")
  func exactFill() {
    var buffer = WriteBuffer(capacity: 8)
    let short = buffer.append(contentsOf: [UInt8](repeating: 1, count: 7))
    #expect(!short)
    let filled = buffer.append("x")
    #expect(filled)
    #expect(buffer.bytes == [1, 1, 1, 1, 1, 1, 1, UInt8(ascii: "x")])
  }

  @Test("a write larger than the capacity is kept whole, in order")
  func largerThanCapacity() {
    var buffer = WriteBuffer(capacity: 4)
    let first = buffer.append("ab")
    #expect(!first)
    let big = (0..<10).map { UInt8($0) }
    let second = buffer.append(contentsOf: big)
    #expect(second)
    #expect(buffer.bytes == [UInt8(ascii: "a"), UInt8(ascii: "b")] + big)
    #expect(buffer.byteCount == 12)
  }

  @Test("text is appended as UTF-8 and counted in bytes, not characters")
  func utf8() {
    var buffer = WriteBuffer(capacity: 1 << 16)
    let full = buffer.append("héllo\n")
    #expect(!full)
    #expect(buffer.bytes == Array("héllo\n".utf8))
    #expect(buffer.byteCount == 7)
  }

  @Test("removeAll empties the buffer but keeps the count of every byte given")
  func removeAllKeepsCount() {
    var buffer = WriteBuffer(capacity: 4)
    let first = buffer.append(contentsOf: [1, 2, 3, 4, 5])
    #expect(first)
    buffer.removeAll()
    #expect(buffer.bytes.isEmpty)
    let second = buffer.append(contentsOf: [6])
    #expect(!second)
    #expect(buffer.bytes == [6])
    #expect(buffer.byteCount == 6)
  }

  @Test("an empty write changes nothing, and is full only when the buffer already is")
  func emptyWrite() {
    var buffer = WriteBuffer(capacity: 2)
    let emptyText = buffer.append("")
    let emptyBytes = buffer.append(contentsOf: [])
    #expect(!emptyText && !emptyBytes)
    #expect(buffer.byteCount == 0)
    let filled = buffer.append(contentsOf: [1, 2])
    let stillFull = buffer.append("")
    #expect(filled && stillFull)
    #expect(buffer.byteCount == 2)
  }
}
