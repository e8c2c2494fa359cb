import Foundation
import Testing

@testable import ResonanceIO

@Suite("HashingSource")
struct HashingSourceTests {
  @Test("the digest equals SHA256 of the same bytes, and counts them")
  func equalsSHA256() throws {
    let bytes = patternBytes(1_000_003)
    let source = HashingSource(wrapping: MemorySource(bytes, name: "m"))
    #expect(source.name == "m")
    #expect(try readAll(source, chunk: 65_536) == bytes)
    #expect(source.byteCount == 1_000_003)
    #expect(source.finalize() == sha256(bytes))
    #expect(HashingSource(wrapping: MemorySource([])).finalize() == sha256([]))
  }

  @Test("above or beneath a peek, each byte is hashed once")
  func withPeeking() throws {
    let bytes = patternBytes(400_000)
    let beneath = HashingSource(wrapping: MemorySource(bytes))
    let peekAbove = PeekableSource(wrapping: beneath)
    _ = try peekAbove.peek(upTo: 300_000)
    #expect(try readAll(peekAbove, chunk: 50_000) == bytes)
    #expect(beneath.finalize() == sha256(bytes))

    let peekBeneath = PeekableSource(wrapping: MemorySource(bytes))
    _ = try peekBeneath.peek(upTo: 300_000)
    let above = HashingSource(wrapping: peekBeneath)
    #expect(try readAll(above, chunk: 50_000) == bytes)
    #expect(above.finalize() == sha256(bytes))
    #expect(above.byteCount == 400_000)
  }

  @Test("beneath a gzip source it hashes the file's raw bytes, all of them")
  func rawBytesOfGzip() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let raw = [Array("one\n".utf8), patternBytes(90_000)].flatMap(gzipMember)
    let path = try folder.write("t.jsonl.gz", raw)
    let hashing = HashingSource(wrapping: try InputFile.open(path: path))
    let text = PeekableSource(wrapping: try GzipSource(wrapping: hashing))
    #expect(try text.peek(upTo: 4) == Array("one\n".utf8))
    _ = try readAll(text)
    #expect(hashing.byteCount == Int64(raw.count))
    #expect(hashing.finalize() == sha256(raw))
    #expect(try SHA256.hexDigest(ofFileAt: path) == sha256(raw))
  }

  @Test("discardRemaining finishes the digest of a partly read source")
  func discardRemaining() throws {
    let bytes = patternBytes(70_000)
    let source = HashingSource(wrapping: MemorySource(bytes))
    _ = try readAll(PrefixSource(source, count: 1000))
    #expect(try source.discardRemaining() == 69_000)
    #expect(source.finalize() == sha256(bytes))
  }
}
