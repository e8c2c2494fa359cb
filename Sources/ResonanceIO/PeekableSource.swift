/// A source whose next bytes can be looked at before they are read: what recognising a file by
/// its content needs on a stream that cannot be rewound.
///
/// `peek(upTo:)` reads ahead from the wrapped source into a buffer, at most
/// ``recognitionLimit`` bytes; `read(into:)` hands out the buffered bytes first and then reads
/// on from the wrapped source, so a reader sees exactly the byte sequence it would have seen
/// without the peek. The buffer is released once it has been read through.
///
/// ```swift
/// let source = PeekableSource(wrapping: try InputFile.open(path: "-"))
/// let head = try source.peek(upTo: 4096)
/// if head.starts(with: Array("<?xml".utf8)) { try source.forEachChunk { … } }  // from byte 0
/// ```
///
/// Over a seekable source (a regular file) it is seekable too; a seek drops whatever was
/// peeked and not yet read.
package final class PeekableSource: SeekableByteSource {
  /// The most a peek looks ahead: 1 MiB, enough to recognise any format we read.
  package static let recognitionLimit = 1 << 20

  private let inner: any ByteSource
  /// Bytes read from `inner` and not yet handed out, from `offset` on.
  private var buffer: [UInt8] = []
  private var offset = 0
  /// The wrapped source has returned 0: nothing follows the buffer.
  package private(set) var hasReachedEnd = false

  /// Wraps `inner`, which must not be read by anyone else from now on.
  package init(wrapping inner: any ByteSource) {
    self.inner = inner
  }

  /// The wrapped source's name.
  package var name: String { inner.name }

  /// The wrapped source's expectation.
  package var expectedByteCount: Int64? { inner.expectedByteCount }

  /// Bytes already peeked and not yet read.
  package var bufferedByteCount: Int { buffer.count - offset }

  /// The next `count` bytes of the stream, or all that is left if fewer, without consuming them.
  ///
  /// Reads from the wrapped source only what the buffer lacks, and never beyond `count` bytes
  /// past the read position. Fewer than `count` bytes back means the stream ends there (see
  /// also ``hasReachedEnd``).
  ///
  /// - Parameter count: how many bytes to look at; a count above ``recognitionLimit`` is
  ///   capped to it.
  /// - Complexity: O(`count`) copies.
  /// - Throws: `IOError` from the wrapped source.
  package func peek(upTo count: Int) throws(IOError) -> [UInt8] {
    precondition(count >= 0, "negative peek")
    let count = min(count, PeekableSource.recognitionLimit)
    try fill(to: count)
    let available = min(count, bufferedByteCount)
    if offset == 0, available == buffer.count { return buffer }
    return Array(buffer[offset..<offset + available])
  }

  /// Whether the stream, from the read position, is shorter than `count` bytes (which peeks
  /// that far).
  ///
  /// - Parameter count: at most ``recognitionLimit``.
  /// - Throws: `IOError` from the wrapped source.
  package func isShorter(than count: Int) throws(IOError) -> Bool {
    precondition(count <= PeekableSource.recognitionLimit, "isShorter beyond recognitionLimit")
    try fill(to: count)
    return bufferedByteCount < count
  }

  /// Hands out peeked bytes first, then reads on from the wrapped source.
  ///
  /// - Throws: `IOError` from the wrapped source.
  package func read(into target: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let buffered = bufferedByteCount
    guard buffered > 0 else {
      if hasReachedEnd { return 0 }
      return try inner.read(into: target)
    }
    let n = min(buffered, target.count)
    buffer.withUnsafeBytes { bytes in
      target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n]))
    }
    offset += n
    if offset == buffer.count {
      // Read through: let the (up to 1 MiB) buffer go rather than hold it for the whole import.
      buffer = []
      offset = 0
    }
    return n
  }

  /// Whether the wrapped source can seek.
  package var isSeekable: Bool {
    (inner as? any SeekableByteSource)?.isSeekable ?? false
  }

  /// Moves the read position of the wrapped source, dropping any peeked bytes.
  ///
  /// Positions count from the wrapped source's start, as if nothing had been peeked.
  ///
  /// - Throws: `IOError` when the wrapped source cannot seek.
  package func seek(to target: Int64, from origin: SeekOrigin) throws(IOError) -> Int64 {
    guard let seekable = inner as? any SeekableByteSource, seekable.isSeekable else {
      throw IOError(.failed, path: name, reason: "cannot seek: not a regular file")
    }
    var target = target
    var origin = origin
    if origin == .current {
      // The inner position is past the buffered bytes; the reader's is where they start.
      target += try seekable.seek(to: 0, from: .current) - Int64(bufferedByteCount)
      origin = .start
    }
    buffer = []
    offset = 0
    hasReachedEnd = false
    return try seekable.seek(to: target, from: origin)
  }

  /// Reads from the wrapped source until `count` bytes are buffered or it ends.
  private func fill(to count: Int) throws(IOError) {
    var missing = count - bufferedByteCount
    guard missing > 0, !hasReachedEnd else { return }
    if offset > 0 {
      buffer.removeFirst(offset)
      offset = 0
    }
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: missing))
    var filled = start
    defer { buffer.removeLast(buffer.count - filled) }
    while missing > 0 {
      // `withUnsafeMutableBytes` rethrows untyped errors: carry the typed one out by hand.
      let result = buffer.withUnsafeMutableBytes { bytes in
        let slot = UnsafeMutableRawBufferPointer(rebasing: bytes[filled..<filled + missing])
        return Result { () throws(IOError) in try inner.read(into: slot) }
      }
      let n = try result.get()
      if n == 0 {
        hasReachedEnd = true
        return
      }
      filled += n
      missing -= n
    }
  }
}
