/// A source that computes the SHA-256 of every byte read through it, in line.
///
/// Each byte is hashed once, when it passes through `read(into:)`, so where the hashing source
/// sits in a chain decides what the digest is of:
/// - a file's own bytes (the ingest ledger's digest for a file, gzip or not): put it on the
///   file's raw bytes, *beneath* any ``GzipSource`` —
///   `GzipSource(wrapping: HashingSource(wrapping: raw))`;
/// - a zip member's inflated bytes (the ledger's digest for a member): wrap the member's
///   source from ``ZipStream``;
/// - with peeking: above a ``PeekableSource`` the peeked bytes are hashed when they are read
///   (replayed), beneath it when they are first fetched; either way once. Above it, the digest
///   covers exactly the bytes the reader consumed, as ``TrailingFileHasher``'s does.
///
/// The digest equals the SHA-256 of the whole file only once the chain above has read to the
/// end (a ``GzipSource`` does: it looks for a further member); ``ByteSource/discardRemaining()``
/// finishes a partial read. A hashing source cannot seek, so a zip read through one is
/// streamed rather than read by its central directory.
///
/// For a regular file, ``TrailingFileHasher`` does the same work on another thread.
package final class HashingSource: ByteSource {
  private let inner: any ByteSource
  private let hasher = SHA256()
  /// Bytes hashed so far.
  package private(set) var byteCount: Int64 = 0

  /// Wraps `inner`, which must not be read by anyone else from now on.
  package init(wrapping inner: any ByteSource) {
    self.inner = inner
  }

  /// The wrapped source's name.
  package var name: String { inner.name }

  /// The wrapped source's expectation.
  package var expectedByteCount: Int64? { inner.expectedByteCount }

  /// Reads from the wrapped source and hashes what was read.
  ///
  /// Reading after ``finalize()`` is a programmer error.
  ///
  /// - Throws: `IOError` from the wrapped source.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let n = try inner.read(into: buffer)
    if n > 0 {
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      byteCount += Int64(n)
    }
    return n
  }

  /// The SHA-256 of the bytes read so far, as 64 lower-case hex digits; ends the digest (later
  /// calls return the same).
  package func finalize() -> String {
    hasher.finalize()
  }
}
