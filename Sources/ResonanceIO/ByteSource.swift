/// Bytes read once, front to back: a file, standard input, a pipe, an inflated gzip stream or a
/// member of a zip.
///
/// Sources stack: each wrapper reads from the one beneath it and is itself a source, so the
/// import path is one chain built from the first bytes it sees, and nothing on it holds more
/// than a bounded window of the input (``PeekableSource/recognitionLimit`` plus libarchive's own
/// buffers).
///
/// ```swift
/// let raw = PeekableSource(wrapping: try InputFile.open(path: "-"))
/// let hashed = HashingSource(wrapping: raw)  // the file's own bytes, as read
/// let isGzip = GzipSource.hasMagic(try raw.peek(upTo: 2))
/// let text = PeekableSource(wrapping: isGzip ? try GzipSource(wrapping: hashed) : hashed)
/// let head = try text.peek(upTo: PeekableSource.recognitionLimit)  // recognise, then either…
/// try text.forEachChunk { try parser.feed($0) }  // …stream on from byte 0, or drop `text`
/// ```
///
/// Sources are reference types and deliberately not `Sendable`: one thread reads a chain at a
/// time. To read a chain on another thread, either build it on that thread, or move it there
/// whole with ``ByteSourceHandoff``, which takes the chain as a `sending` value so the compiler
/// checks that the sending thread keeps no reference to any part of it.
package protocol ByteSource: AnyObject {
  /// What the bytes are called in messages: a path, `ZIP!MEMBER`, or `standard input`.
  var name: String { get }

  /// How many bytes the source expects to deliver, for a progress bar: a regular file's size or
  /// a zip member's stated size; nil when nothing says (pipes, inflated gzip streams).
  ///
  /// A hint only: readers stop at the real end, never at this count.
  var expectedByteCount: Int64? { get }

  /// Reads up to `buffer.count` bytes into `buffer`, in stream order.
  ///
  /// - Returns: how many bytes were read; 0 only at the end of the stream (or when
  ///   `buffer` is empty).
  /// - Throws: `IOError` naming the source when it cannot be read or its data is corrupt.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int
}

/// Where a ``SeekableByteSource/seek(to:from:)`` offset counts from.
package enum SeekOrigin: Sendable, Equatable {
  /// The first byte of the source.
  case start
  /// The current read position.
  case current
  /// Just past the last byte.
  case end
}

/// A source that can also move its read position: a regular file, possibly seen through a
/// ``PeekableSource``.
///
/// Only ``ZipStream`` seeks, so that it can read a zip on disk by its central directory.
/// Wrappers whose meaning depends on reading front to back (``HashingSource``, ``GzipSource``)
/// do not conform, and a zip read through them is streamed instead.
package protocol SeekableByteSource: ByteSource {
  /// Whether `seek` works right now (a regular file); false for pipes and terminals.
  var isSeekable: Bool { get }

  /// Moves the read position to `offset` bytes from `origin`.
  ///
  /// - Returns: the new position, in bytes from the start.
  /// - Throws: `IOError` when the source cannot seek or the position would be negative.
  func seek(to offset: Int64, from origin: SeekOrigin) throws(IOError) -> Int64
}

extension ByteSource {
  /// Appends the source's next bytes to `window`: up to `chunkSize`, or up to the window's own
  /// size when that is larger (so that an item longer than the window doubles it). The window
  /// readers (`CSVReader`, `JSONObjectStream`) hold a file this way, a window at a time.
  ///
  /// The room is filled by as many reads as it takes (a decompressor hands out far less than a
  /// chunk per read), so it is made, and trimmed, once per chunk rather than once per read.
  ///
  /// - Returns: how many bytes were appended; 0 only at the end of the source.
  /// - Throws: `IOError` from reading; `window` is then as it was.
  package func append(to window: inout [UInt8], chunkSize: Int) throws(IOError) -> Int {
    let old = window.count
    let room = max(chunkSize, old)
    window.append(contentsOf: [UInt8](repeating: 0, count: room))
    var filled = 0
    while filled < room {
      let start = old + filled
      let read = window.withUnsafeMutableBytes { buffer in
        Result { () throws(IOError) in
          try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
        }
      }
      do {
        let n = try read.get()
        if n == 0 { break }
        filled += n
      } catch {
        window.removeLast(room)
        throw error
      }
    }
    window.removeLast(room - filled)
    return filled
  }

  /// Calls `body` with each successive chunk of the source, in order, until the end.
  ///
  /// One buffer of `chunkSize` bytes is reused; a chunk is valid only during its call.
  ///
  /// - Parameter chunkSize: bytes per read; 1 MiB by default.
  /// - Throws: `IOError` from reading, or rethrows what `body` throws.
  package func forEachChunk(
    chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = try read(into: buffer)
      if n == 0 { return }
      try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
  }

  /// The rest of the source, in memory: for formats whose readers parse a whole file (the
  /// listening files and the apps' recordings, read once their first bytes were recognised).
  ///
  /// - Complexity: O(*n*) time and memory in the bytes left.
  /// - Throws: `IOError` from reading.
  package func readAll() throws(IOError) -> [UInt8] {
    var bytes: [UInt8] = []
    if let expected = expectedByteCount, expected > 0, expected < Int64(Int32.max) {
      bytes.reserveCapacity(Int(expected))
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = try read(into: buffer)
      if n == 0 { return bytes }
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
  }

  /// Reads and discards the rest of the source.
  ///
  /// - Complexity: O(*n*) in the bytes left, in constant memory.
  /// - Returns: how many bytes were discarded.
  /// - Throws: `IOError` from reading.
  @discardableResult
  package func discardRemaining() throws(IOError) -> Int64 {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    var total: Int64 = 0
    while true {
      let n = try read(into: buffer)
      if n == 0 { return total }
      total += Int64(n)
    }
  }
}
