#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines of a stream, read as they come (JSON Lines, say), never more than one line and
/// one buffer in memory: a line longer than `maximumLength` is skipped without being held, and
/// reported as such.
///
/// ```swift
/// var lines = LineReader(source, maximumLength: 1 << 20)
/// while let line = try lines.next() {
///   guard case .text(let bytes) = line.content else { continue }  // too long
///   print(line.number, bytes.count)
/// }
/// ```
package struct LineReader {
  /// One line: its number (1-based) and its bytes without the line break, or how long it was
  /// when it was too long to keep.
  package struct Line: Sendable, Equatable {
    package enum Content: Sendable, Equatable {
      case text([UInt8])
      case tooLong(bytes: Int64)
    }

    package var number: Int
    package var content: Content
  }

  private let buffer: LineBuffer
  /// The longest line kept, in bytes.
  package let maximumLength: Int
  private var number = 0

  package init(_ source: any ByteSource, maximumLength: Int) {
    buffer = LineBuffer(source)
    self.maximumLength = maximumLength
  }

  /// The next line, or nil at the end of the stream. A final line without a line break is a
  /// line; a `\r` before the break is removed.
  ///
  /// - Throws: `IOError` from reading the stream.
  package mutating func next() throws(IOError) -> Line? {
    var skipped: Int64 = 0
    while true {
      if let length = buffer.lineLength() {
        number += 1
        defer { buffer.consume(length + 1) }
        if skipped > 0 {
          return Line(number: number, content: .tooLong(bytes: skipped + Int64(length)))
        }
        return Line(number: number, content: .text(buffer.bytes(length, trimmingReturn: true)))
      }
      if buffer.isAtEnd {
        let length = buffer.count
        guard length > 0 || skipped > 0 else { return nil }
        number += 1
        defer { buffer.consume(length) }
        if skipped > 0 {
          return Line(number: number, content: .tooLong(bytes: skipped + Int64(length)))
        }
        return Line(number: number, content: .text(buffer.bytes(length, trimmingReturn: false)))
      }
      // The unfinished line is dropped once it is too long to keep.
      if buffer.count > maximumLength {
        skipped += Int64(buffer.count)
        buffer.consume(buffer.count)
      }
      try buffer.fill()
    }
  }
}

/// The bytes read and not yet handed out, in one buffer that grows only as long as a line
/// needs.
private final class LineBuffer {
  private let source: any ByteSource
  private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
  private var start = 0
  private var end = 0
  /// Bytes before `start + searched` hold no line break.
  private var searched = 0
  private(set) var isAtEnd = false

  init(_ source: any ByteSource) { self.source = source }

  deinit { storage.deallocate() }

  /// Bytes held.
  var count: Int { end - start }

  /// The length of the first line held, when its break is in the buffer.
  func lineLength() -> Int? {
    guard start + searched < end, let base = storage.baseAddress else { return nil }
    let from = base + start + searched
    guard let found = memchr(from, 0x0A, end - start - searched) else {
      searched = end - start
      return nil
    }
    return (found - UnsafeMutableRawPointer(base + start))
  }

  /// The first `length` bytes as an array, without a final `\r` when asked.
  func bytes(_ length: Int, trimmingReturn: Bool) -> [UInt8] {
    var length = length
    if trimmingReturn, length > 0, storage[start + length - 1] == 0x0D { length -= 1 }
    return Array(UnsafeRawBufferPointer(rebasing: storage[start..<(start + length)]))
  }

  /// Drops the first `length` bytes.
  func consume(_ length: Int) {
    start += length
    searched = 0
    if start == end {
      start = 0
      end = 0
    }
  }

  /// Reads more: the held bytes move to the front, and the buffer doubles when they fill it.
  func fill() throws(IOError) {
    if start > 0 {
      if let base = storage.baseAddress { memmove(base, base + start, end - start) }
      end -= start
      start = 0
    }
    if end == storage.count {
      let larger = UnsafeMutableRawBufferPointer.allocate(
        byteCount: storage.count * 2, alignment: 8)
      larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<end]))
      storage.deallocate()
      storage = larger
    }
    let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
    if n == 0 { isAtEnd = true }
    end += n
  }
}

/// Bytes held in memory, read as a stream (a recording made by a test, a decision log built in
/// code).
package final class MemorySource: ByteSource {
  package let name: String
  private let bytes: [UInt8]
  private var offset = 0

  package init(_ bytes: [UInt8], name: String) {
    self.bytes = bytes
    self.name = name
  }

  package var expectedByteCount: Int64? { Int64(bytes.count) }

  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let n = min(buffer.count, bytes.count - offset)
    guard n > 0 else { return 0 }
    bytes.withUnsafeBytes { raw in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)]))
    }
    offset += n
    return n
  }
}
