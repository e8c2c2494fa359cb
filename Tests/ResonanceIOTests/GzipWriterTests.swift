import Foundation
import Testing

@testable import ResonanceIO

@Suite("GzipWriter")
struct GzipWriterTests {
  /// Writes `bytes` in uneven pieces, text and bytes, and returns the file's bytes.
  func gzip(_ bytes: [UInt8], at path: String, level: Int = 6) throws -> [UInt8] {
    let out = try GzipWriter(path: path, compressionLevel: level)
    var start = 0
    var piece = 1
    var asText = false
    while start < bytes.count {
      let end = min(bytes.count, start + piece)
      asText.toggle()
      if asText {
        try out.write(String(decoding: bytes[start..<end], as: UTF8.self))
      } else {
        try out.write(bytes: bytes[start..<end])
      }
      start = end
      piece = piece * 7 % 100_003
    }
    #expect(out.path == path)
    try out.close()
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// ASCII text with some repetition, as the recordings are: pieces cut anywhere in it stay
  /// valid UTF-8.
  func text(_ count: Int) -> [UInt8] {
    (0..<count).map { i in UInt8(ascii: "a") + UInt8((i / 7 + i % 13) % 26) }
  }

  @Test(
    "reads back through GzipSource, with the trailer's CRC-32 and length right",
    arguments: [0, 1, 65_535, 65_536, 300_000])
  func roundTrip(count: Int) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = text(count)
    let stream = try gzip(bytes, at: folder.file("t.jsonl.gz"))
    #expect(GzipSource.hasMagic(stream))
    let source = try GzipSource(wrapping: InputFile.open(path: folder.file("t.jsonl.gz")))
    #expect(try readAll(source, chunk: 4093) == bytes)
    // GzipSource does not check the trailer: check it here.
    var trailer: [UInt8] = []
    trailer.appendLittleEndian32(crc32(bytes))
    trailer.appendLittleEndian32(UInt32(truncatingIfNeeded: bytes.count))
    #expect(Array(stream.suffix(8)) == trailer)
  }

  @Test("counts the bytes written before compression")
  func byteCount() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let out = try GzipWriter(path: folder.file("c.gz"))
    try out.write("héllo\n")
    try out.write(bytes: [1, 2, 3])
    #expect(out.byteCount == 10)
    try out.close()
    try out.close()  // a second close does nothing
  }

  @Test("two writes of the same bytes give the same file: no time and no name in the header")
  func deterministic() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = text(250_000)
    let first = try gzip(bytes, at: folder.file("first.gz"))
    let second = try gzip(bytes, at: folder.file("second.gz"))
    #expect(first == second)
    // ID1 ID2 CM FLG MTIME(4) XFL OS: deflate, no flags (so no FNAME), time zero.
    #expect(Array(first.prefix(4)) == [0x1F, 0x8B, 8, 0])
    #expect(Array(first[4..<8]) == [0, 0, 0, 0])
    #expect(first.count < bytes.count / 2)
  }

  @Test("the level is zlib's: 0 stores, 9 is no larger than 6, and each reads back")
  func levels() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = text(100_000)
    var sizes: [Int: Int] = [:]
    for level in [0, 6, 9] {
      let path = folder.file("l\(level).gz")
      sizes[level] = try gzip(bytes, at: path, level: level).count
      let source = try GzipSource(wrapping: InputFile.open(path: path))
      #expect(try readAll(source, chunk: 1 << 16) == bytes)
    }
    #expect(sizes[0, default: 0] > bytes.count)
    #expect(sizes[9, default: .max] <= sizes[6, default: 0])
  }

  @Test("a folder that does not exist is .missing, naming the file")
  func missingFolder() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("no/such/folder/x.gz")
    do {
      _ = try GzipWriter(path: path)
      Issue.record("opened a file in a folder that does not exist")
    } catch {
      #expect(error.kind == .missing)
      #expect(error.path == path)
    }
  }
}
