import Foundation
import Testing

@testable import ResonanceIO

@Suite("OutputFile")
struct OutputFileTests {
  func contents(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test(
    "writes below, exactly at and beyond the 1 MiB buffer all reach the file, in order",
    arguments: [1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20])
  func sizes(count: Int) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("out.bin")
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
    let out = try OutputFile(path: path)
    try out.write(bytes: bytes)
    try out.write("tail\n")
    #expect(out.byteCount == Int64(count + 5))
    try out.close()
    #expect(try contents(path) == bytes + Array("tail\n".utf8))
  }

  @Test("close writes what is still buffered; before it, a small write is only buffered")
  func flushOnClose() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("small.txt")
    let out = try OutputFile(path: path)
    try out.write("héllo\n")
    #expect(try contents(path).isEmpty)
    try out.close()
    #expect(try contents(path) == Array("héllo\n".utf8))
    #expect(out.byteCount == 7)
  }

  @Test("a file dropped without close is flushed")
  func flushOnDeinit() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("dropped.txt")
    do {
      let out = try OutputFile(path: path)
      try out.write(bytes: [1, 2, 3])
    }
    #expect(try contents(path) == [1, 2, 3])
  }

  @Test("a folder that does not exist is .missing, naming the file")
  func missingFolder() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("no/such/folder/x.txt")
    do {
      _ = try OutputFile(path: path)
      Issue.record("opened a file in a folder that does not exist")
    } catch {
      #expect(error.kind == .missing)
      #expect(error.path == path)
    }
  }
}
