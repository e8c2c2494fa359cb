import Testing

@testable import ResonanceIO

@Suite("PeekableSource")
struct PeekableSourceTests {
  @Test(
    "peek then read gives the identical byte sequence",
    arguments: [(0, 1000), (1, 1), (10, 3), (4096, 4096), (65_536, 1000), (1 << 20, 65_536)])
  func peekThenRead(peek: Int, chunk: Int) throws {
    let bytes = patternBytes(300_000)
    let source = PeekableSource(wrapping: MemorySource(bytes, maxRead: 1531))
    let head = try source.peek(upTo: peek)
    #expect(head == Array(bytes.prefix(peek)))
    #expect(try readAll(source, chunk: chunk) == bytes)
  }

  @Test("a peek reads no more than it was asked for from the wrapped source")
  func peekReadsOnlyWhatItNeeds() throws {
    let inner = MemorySource(patternBytes(10_000), maxRead: 10_000)
    let source = PeekableSource(wrapping: inner)
    #expect(try source.peek(upTo: 100).count == 100)
    #expect(source.bufferedByteCount == 100)
    #expect(try source.peek(upTo: 40).count == 40)
    #expect(source.bufferedByteCount == 100)
    #expect(try source.peek(upTo: 250) == Array(patternBytes(10_000).prefix(250)))
    #expect(source.bufferedByteCount == 250)
  }

  @Test("a peek after part has been read looks from the read position")
  func peekAfterRead() throws {
    let bytes = patternBytes(5_000)
    let source = PeekableSource(wrapping: MemorySource(bytes, maxRead: 333))
    _ = try source.peek(upTo: 100)
    let first = try readAll(PrefixSource(source, count: 60))
    #expect(first == Array(bytes.prefix(60)))
    #expect(try source.peek(upTo: 200) == Array(bytes[60..<260]))
    #expect(try readAll(source) == Array(bytes[60...]))
    #expect(source.bufferedByteCount == 0)
  }

  @Test("a short stream: the peek comes back short and says the stream has ended")
  func shortStream() throws {
    let source = PeekableSource(wrapping: MemorySource(Array("{\"a\":1}".utf8)))
    #expect(try source.isShorter(than: 100))
    #expect(try source.isShorter(than: 8))
    #expect(try !source.isShorter(than: 7))
    #expect(source.hasReachedEnd)
    #expect(try source.peek(upTo: 1 << 20) == Array("{\"a\":1}".utf8))
    #expect(try readAll(source) == Array("{\"a\":1}".utf8))
  }

  @Test("an empty stream peeks as nothing and reads as nothing")
  func empty() throws {
    let source = PeekableSource(wrapping: MemorySource([]))
    #expect(try source.peek(upTo: 10).isEmpty)
    #expect(try source.isShorter(than: 1))
    #expect(try readAll(source).isEmpty)
  }

  @Test("a peek is capped at the recognition limit of 1 MiB")
  func capped() throws {
    let source = PeekableSource(wrapping: MemorySource(patternBytes(3 << 20), maxRead: 1 << 20))
    #expect(try source.peek(upTo: 2 << 20).count == PeekableSource.recognitionLimit)
    #expect(!source.hasReachedEnd)
    #expect(try readAll(source, chunk: 1 << 16) == patternBytes(3 << 20))
  }

  @Test("the wrapped source's error comes through a peek")
  func errors() {
    let failure = IOError(.failed, path: "memory", reason: "input/output error")
    let source = PeekableSource(
      wrapping: MemorySource(patternBytes(100), failure: failure, failAfter: 50))
    #expect(throws: failure) { try source.peek(upTo: 80) }
  }

  @Test("over a regular file it seeks, dropping what was peeked")
  func seeks() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = patternBytes(20_000)
    let source = PeekableSource(
      wrapping: try InputFile.open(path: try folder.write("f.bin", bytes)))
    #expect(source.isSeekable)
    #expect(source.expectedByteCount == 20_000)
    _ = try source.peek(upTo: 1000)
    _ = try readAll(PrefixSource(source, count: 10))
    #expect(try source.seek(to: 0, from: .current) == 10)
    #expect(try source.seek(to: 5, from: .current) == 15)
    #expect(try readAll(PrefixSource(source, count: 5)) == Array(bytes[15..<20]))
    #expect(try source.seek(to: -3, from: .end) == 19_997)
    #expect(try readAll(source) == Array(bytes.suffix(3)))
    #expect(!PeekableSource(wrapping: MemorySource([])).isSeekable)
  }
}

/// The first `count` bytes of a source, leaving the rest unread.
final class PrefixSource: ByteSource {
  private let inner: any ByteSource
  private var left: Int
  init(_ inner: any ByteSource, count: Int) {
    self.inner = inner
    left = count
  }
  var name: String { inner.name }
  var expectedByteCount: Int64? { nil }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    guard left > 0 else { return 0 }
    let n = try inner.read(
      into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(left, buffer.count)]))
    left -= n
    return n
  }
}
