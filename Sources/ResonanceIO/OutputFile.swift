#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written through a 1 MiB buffer with POSIX calls: the writer for large generated
/// files, where per-line `String` writes would dominate.
///
/// Call `close()` to flush; a file dropped without `close()` is flushed best-effort.
package final class OutputFile {
  package let path: String
  private var descriptor: Int32
  private var buffer = WriteBuffer(capacity: 1 << 20)
  /// Bytes written so far, buffered or not.
  package var byteCount: Int64 { buffer.byteCount }

  /// Creates (truncating) the file at `path`.
  ///
  /// - Throws: `IOError` when it cannot be created.
  package init(path: String) throws(IOError) {
    self.path = path
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let code = errno
      throw IOError(
        code == ENOENT ? .missing : .failed, path: path,
        reason: String(cString: strerror(code)).lowercased())
    }
    buffer.reserveCapacity(buffer.capacity + 4096)
  }

  deinit {
    if descriptor >= 0 {
      try? flush()
      Glibc.close(descriptor)
    }
  }

  /// Appends the UTF-8 bytes of `text`.
  package func write(_ text: String) throws(IOError) {
    if buffer.append(text) { try flush() }
  }

  /// Appends raw bytes.
  package func write(bytes: some Collection<UInt8>) throws(IOError) {
    if buffer.append(contentsOf: bytes) { try flush() }
  }

  /// Writes the buffered bytes to the file.
  package func flush() throws(IOError) {
    var offset = 0
    while offset < buffer.bytes.count {
      let n = buffer.bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw IOError(.failed, path: path, reason: String(cString: strerror(errno)).lowercased())
      }
      offset += n
    }
    buffer.removeAll()
  }

  /// Flushes and closes the file.
  package func close() throws(IOError) {
    try flush()
    if Glibc.close(descriptor) != 0 {
      descriptor = -1
      throw IOError(.failed, path: path, reason: String(cString: strerror(errno)).lowercased())
    }
    descriptor = -1
  }
}
