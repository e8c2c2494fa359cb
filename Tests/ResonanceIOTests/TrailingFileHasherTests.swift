import Foundation
import Testing

@testable import ResonanceIO

@Suite("TrailingFileHasher")
struct TrailingFileHasherTests {
  @Test("the trailing hasher hashes exactly the bytes handed, re-reading by path")
  func trailingByPath() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = patternBytes((2 << 20) + 5)
    let path = try folder.write("t.bin", bytes)
    let trailing = TrailingFileHasher(path: path)
    let file = try InputFile.open(path: path)
    var handed = 0
    try file.forEachChunk(chunkSize: 300_000) { chunk in
      guard handed < 1_500_000 else { return }
      trailing.advance(by: chunk.count)
      handed += chunk.count
    }
    #expect(try trailing.finish() == sha256(Array(bytes.prefix(handed))))
  }

  @Test("the trailing hasher re-reads an open file through a duplicate, from its start offset")
  func trailingByDescriptor() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = patternBytes(3 << 20)
    let path = try folder.write("t.bin", bytes)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(fd) }
    #expect(lseek(fd, 1000, SEEK_SET) == 1000)
    let file = try InputFile.open(path: "-", standardInput: fd)
    let trailing = TrailingFileHasher(file: file)
    let hashing = HashingSource(wrapping: file)
    try hashing.forEachChunk(chunkSize: 1 << 20) { trailing.advance(by: $0.count) }
    #expect(try trailing.finish() == sha256(Array(bytes[1000...])))
    #expect(hashing.finalize() == sha256(Array(bytes[1000...])))
  }

  @Test("the trailing hasher reports a file that cannot be read again")
  func trailingMissing() {
    let trailing = TrailingFileHasher(path: "/no/such/file")
    trailing.advance(by: 10)
    #expect(throws: IOError.self) { try trailing.finish() }
  }
}
