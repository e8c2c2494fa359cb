import Testing

@testable import ResonanceIO

@Suite("GzipSource")
struct GzipSourceTests {
  @Test("inflates a gzip stream read in small pieces", arguments: [0, 1, 65_535, 200_000])
  func inflates(count: Int) throws {
    let bytes = patternBytes(count)
    let source = try GzipSource(wrapping: MemorySource(gzipMember(bytes), name: "t.gz"))
    #expect(source.name == "t.gz")
    #expect(source.expectedByteCount == nil)
    #expect(try readAll(source, chunk: 4000) == bytes)
    #expect(try readAll(source).isEmpty)
  }

  @Test("a multi-member stream (cat a.gz b.gz c.gz) reads as one")
  func multiMember() throws {
    let parts = [Array("first\n".utf8), patternBytes(100_000), Array("last\n".utf8)]
    let stream = parts.flatMap(gzipMember)
    let source = try GzipSource(wrapping: MemorySource(stream, maxRead: 777))
    #expect(try readAll(source, chunk: 1 << 16) == parts.flatMap { $0 })
  }

  @Test("a gzip of a gzip on disk inflates through both layers at once")
  func nestedLayers() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = patternBytes(123_456)
    let path = try folder.write("twice.gz.gz", gzipMember(gzipMember(bytes)))
    // libarchive bids its filters again on what it inflated, so one source undoes both.
    let source = try GzipSource(wrapping: InputFile.open(path: path))
    #expect(source.name == path)
    #expect(try readAll(source, chunk: 10_000) == bytes)
  }

  @Test("bytes that are not gzip are refused, naming the source")
  func notGzip() {
    #expect(throws: IOError(.failed, path: "notes.txt", reason: "not a gzip stream")) {
      try GzipSource(wrapping: MemorySource(Array("plain text\n".utf8), name: "notes.txt"))
    }
    #expect(GzipSource.hasMagic([0x1F, 0x8B, 8]))
    #expect(!GzipSource.hasMagic([0x1F]))
  }

  @Test("a corrupt deflate block fails with .failed naming the source")
  func corrupt() {
    var stream = gzipMember(patternBytes(200_000))
    // The second stored block's header: BTYPE 11 does not exist.
    stream[10 + 5 + 65_535] = 0x06
    do {
      let source = try GzipSource(wrapping: MemorySource(stream, name: "bad.gz"))
      _ = try readAll(source)
      Issue.record("a corrupt stream read without error")
    } catch {
      #expect(error.kind == .failed)
      #expect(error.path == "bad.gz")
    }
  }

  @Test("a truncated stream fails rather than ending quietly")
  func truncated() {
    let stream = Array(gzipMember(patternBytes(200_000)).prefix(150_000))
    do {
      let source = try GzipSource(wrapping: MemorySource(stream, name: "cut.gz"))
      _ = try readAll(source)
      Issue.record("a truncated stream read without error")
    } catch {
      #expect(error.kind == .failed)
      #expect(error.path == "cut.gz")
    }
  }

  @Test("the wrapped source's own error comes through unchanged")
  func innerError() {
    let failure = IOError(.failed, path: "pipe", reason: "input/output error")
    let stream = gzipMember(patternBytes(300_000))
    do {
      let source = try GzipSource(
        wrapping: MemorySource(stream, name: "pipe", failure: failure, failAfter: 100_000))
      _ = try readAll(source)
      Issue.record("the failure was lost")
    } catch {
      #expect(error == failure)
    }
  }
}
