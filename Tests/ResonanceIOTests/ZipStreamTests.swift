import Foundation
import Testing

@testable import ResonanceIO

#if canImport(Glibc)
  import Glibc
#endif

@Suite("ZipStream")
struct ZipStreamTests {
  static let members: [(name: String, bytes: [UInt8])] = [
    ("a.txt", Array("alpha\n".utf8)),
    ("folder/b.bin", patternBytes(150_000)),
    ("empty", []),
    ("folder/c.csv", Array("x,y\n1,2\n".utf8)),
  ]

  /// The same zip read by its central directory (a file) and streamed (a pipe-like source).
  static func bothWays(_ zip: [UInt8], folder: TemporaryFolder) throws -> [ZipStream] {
    let path = try folder.write("z-\(UUID().uuidString).zip", zip)
    // Recognised first, as the import path does: the peeked bytes are replayed, then dropped
    // when libarchive seeks to the central directory.
    let file = PeekableSource(wrapping: try InputFile.open(path: path))
    #expect(try file.peek(upTo: 4) == [0x50, 0x4B, 0x03, 0x04])
    let seekable = try ZipStream(reading: file)
    let streamed = try ZipStream(reading: MemorySource(zip, name: path, maxRead: 3001))
    #expect(seekable.isReadByCentralDirectory)
    #expect(!streamed.isReadByCentralDirectory)
    return [seekable, streamed]
  }

  @Test("members come in archive order with their inflated bytes, either way")
  func members() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try writeZip(folder.file("m.zip"), Self.members)
    let zip = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    for stream in try Self.bothWays(zip, folder: folder) {
      let read = try readMembers(stream)
      #expect(read.map(\.name) == Self.members.map(\.name))
      #expect(read.map(\.bytes) == Self.members.map(\.bytes))
    }
  }

  @Test("a member's source is named ZIP!MEMBER and states its size when the archive does")
  func metadata() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try writeZip(folder.file("m.zip"), Self.members)
    let zip = try ZipStream(reading: try InputFile.open(path: path))
    var seen: [(String, Int64?)] = []
    try zip.forEachMember { member, source in
      #expect(source.name == "\(path)!\(member.name)")
      #expect(!member.isDirectory)
      seen.append((member.name, source.expectedByteCount))
    }
    #expect(seen.map(\.1) == [6, 150_000, 0, 8])
  }

  @Test("stored members with data descriptors read by central directory and streamed")
  func storedWithDataDescriptors() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let zip = storedZip(Self.members, dataDescriptor: true)
    for stream in try Self.bothWays(zip, folder: folder) {
      let read = try readMembers(stream)
      #expect(read.map(\.name) == Self.members.map(\.name))
      #expect(read.map(\.bytes) == Self.members.map(\.bytes))
    }
  }

  @Test("a zip after a preamble reads from a file, by its central directory, but not streamed")
  func preamble() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let zip = Array("#!/bin/sh\nexit 0\n".utf8) + storedZip(Self.members, dataDescriptor: true)
    let path = try folder.write("sfx.zip", zip)
    let read = try readMembers(try ZipStream(reading: try InputFile.open(path: path)))
    #expect(read.map(\.name) == Self.members.map(\.name))
    #expect(read.map(\.bytes) == Self.members.map(\.bytes))
    #expect(throws: IOError.self) {
      try readMembers(try ZipStream(reading: MemorySource(zip, name: path)))
    }
  }

  @Test("a member read in part, or not at all, is skipped to the next", arguments: [0, 1, 70_000])
  func partialReads(readFirst: Int) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try writeZip(folder.file("m.zip"), Self.members)
    let zip = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    for stream in try Self.bothWays(zip, folder: folder) {
      var out: [String: [UInt8]] = [:]
      try stream.forEachMember { member, source in
        let whole = member.name == "folder/c.csv" || member.name == "a.txt"
        out[member.name] = try readAll(whole ? source : PrefixSource(source, count: readFirst))
      }
      #expect(out["folder/b.bin"] == Array(patternBytes(150_000).prefix(readFirst)))
      #expect(out["folder/c.csv"] == Array("x,y\n1,2\n".utf8))
    }
  }

  @Test("a zip inside a zip inside a zip is streamed from the outer members")
  func nested() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let deepest = patternBytes(400_000, seed: 9)
    let inner = try writeZip(
      folder.file("inner.zip"), [("deep/data.bin", deepest), ("note.txt", Array("n\n".utf8))])
    let middle = try ZipWriter(path: folder.file("middle.zip"), modificationTime: 0)
    try middle.add(name: "readme", bytes: Array("middle\n".utf8))
    try middle.add(name: "inner.zip", contentsOfFile: inner)
    try middle.close()
    let outer = try ZipWriter(path: folder.file("outer.zip"), modificationTime: 0)
    try outer.add(name: "exports/middle.zip", contentsOfFile: folder.file("middle.zip"))
    try outer.add(name: "after.txt", bytes: Array("after\n".utf8))
    try outer.close()

    var found: [String: [UInt8]] = [:]
    func walk(_ zip: ZipStream) throws {
      try zip.forEachMember { member, source in
        if member.name.hasSuffix(".zip") {
          let nested = try ZipStream(reading: source)
          #expect(!nested.isReadByCentralDirectory)
          try walk(nested)
        } else {
          found[source.name] = try readAll(source, chunk: 65_536)
        }
      }
    }
    let path = folder.file("outer.zip")
    try walk(try ZipStream(reading: try InputFile.open(path: path)))
    #expect(found["\(path)!exports/middle.zip!inner.zip!deep/data.bin"] == deepest)
    #expect(found["\(path)!exports/middle.zip!inner.zip!note.txt"] == Array("n\n".utf8))
    #expect(found["\(path)!exports/middle.zip!readme"] == Array("middle\n".utf8))
    #expect(found["\(path)!after.txt"] == Array("after\n".utf8))
    #expect(found.count == 4)
  }

  @Test("50 MB of zeros is peeked (1 MiB) and abandoned; the next member still reads")
  func abandonLargeMember() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let zeros = folder.file("zeros.bin")
    let output = try OutputFile(path: zeros)
    let block = [UInt8](repeating: 0, count: 1 << 20)
    for _ in 0..<50 { try output.write(bytes: block) }
    try output.close()
    let zip = try ZipWriter(path: folder.file("big.zip"), modificationTime: 0)
    try zip.add(name: "zeros.bin", contentsOfFile: zeros)
    try zip.add(name: "next.txt", bytes: Array("still here\n".utf8))
    try zip.close()
    try FileManager.default.removeItem(atPath: zeros)

    let path = folder.file("big.zip")
    let sources: [any ByteSource] = [
      try InputFile.open(path: path),
      HashingSource(wrapping: try InputFile.open(path: path)),  // not seekable: streamed
    ]
    for source in sources {
      var next: [UInt8]?
      try ZipStream(reading: source).forEachMember { member, source in
        if member.name == "zeros.bin" {
          let peekable = PeekableSource(wrapping: source)
          let head = try peekable.peek(upTo: PeekableSource.recognitionLimit)
          #expect(head.count == 1 << 20)
          #expect(head.allSatisfy { $0 == 0 })
        } else {
          next = try readAll(source)
        }
      }
      #expect(next == Array("still here\n".utf8))
    }
  }

  @Test("UTF-8 names come out right with this thread in the C locale")
  func utf8NamesUnderCLocale() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let names = ["apple_health_export/导出.xml", "エクスポート/書き出し.xml", "Größe/Übung.csv"]
    let members = names.map { (name: $0, bytes: Array($0.utf8)) }
    // libarchive follows the thread's locale (`uselocale`), which a test may set without
    // touching the process: force plain C here, as `LC_ALL=C` would for the whole process.
    try withCLocale {
      #expect(String(cString: nl_langinfo(nl_item(CODESET))) == "ANSI_X3.4-1968")
      let written = try writeZip(folder.file("written.zip"), members)
      let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: written)))
      // ZipWriter sets the UTF-8 flag (bit 11) on each member.
      #expect(bytes[7] & 0x08 != 0)
      let zips = [bytes, storedZip(members, dataDescriptor: false)]
      for zip in zips {
        for stream in try Self.bothWays(zip, folder: folder) {
          let read = try readMembers(stream)
          #expect(read.map(\.name) == names)
          #expect(read.map(\.bytes) == members.map(\.bytes))
        }
        let old = try ZipReader(bytes: zip, path: "old.zip").entries().map(\.name)
        #expect(old == names)
      }
      #expect(String(cString: nl_langinfo(nl_item(CODESET))) == "ANSI_X3.4-1968")
    }
  }

  @Test("bytes that are not a zip are refused with .failed naming the source")
  func notZip() {
    do {
      _ = try ZipStream(reading: MemorySource(Array("just text, no zip\n".utf8), name: "n.txt"))
      Issue.record("text read as a zip")
    } catch {
      #expect(error.kind == .failed)
      #expect(error.path == "n.txt")
    }
  }

  @Test("a corrupt member fails with .failed naming ZIP!MEMBER")
  func corruptMember() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    var zip = storedZip(
      [("ok.txt", Array("fine\n".utf8)), ("bad.bin", patternBytes(5000))],
      dataDescriptor: false)
    // Damage the second member's data: its CRC-32 no longer matches.
    zip[30 + 6 + 5 + 30 + 7 + 100] ^= 0xFF
    for stream in try Self.bothWays(zip, folder: folder) {
      var good: [UInt8]?
      do {
        try stream.forEachMember { member, source in
          let bytes = try readAll(source)
          if member.name == "ok.txt" { good = bytes }
        }
        Issue.record("a bad CRC read without error")
      } catch let error as IOError {
        #expect(error.kind == .failed)
        #expect(error.path.hasSuffix("!bad.bin"))
      }
      #expect(good == Array("fine\n".utf8))
    }
  }

  @Test("a zip on a pipe that ends inside a member fails with .failed")
  func truncated() throws {
    // Streamed, a zip cut in its central directory still reads: the members are whole.
    let zip = Array(storedZip(Self.members, dataDescriptor: false).prefix(50_000))
    do {
      _ = try readMembers(try ZipStream(reading: MemorySource(zip, name: "cut.zip")))
      Issue.record("a truncated zip read without error")
    } catch let error as IOError {
      #expect(error.kind == .failed)
      #expect(error.path.hasPrefix("cut.zip"))
    }
  }

  @Test("reading a member after moving on is a programmer error")
  func staleMember() async {
    await #expect(processExitsWith: .failure) {
      let zip = try ZipStream(
        reading: MemorySource(storedZip(ZipStreamTests.members, dataDescriptor: false)))
      let (_, first) = try #require(try zip.nextMember())
      _ = try zip.nextMember()
      _ = try readAll(first)
    }
  }
}

/// Runs `body` with this thread, and only this thread, in the C locale.
private func withCLocale<R>(_ body: () throws -> R) rethrows -> R {
  let c = newlocale(Int32(LC_CTYPE_MASK), "C", nil)!
  let previous = uselocale(c)
  defer {
    uselocale(previous)
    freelocale(c)
  }
  return try body()
}
