#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file opened for sequential reading with POSIX calls, closed when the value goes away.
///
/// Reading never loads the whole file: callers pull chunks of a size they choose.
package final class InputFile {
  /// The path as given; used in messages.
  package let path: String
  private let descriptor: Int32

  /// Opens `path` for reading.
  ///
  /// - Throws: `IOError` `.missing` when nothing is at the path, `.unreadable` when it is a
  ///   directory or access is denied, `.failed` for other operating-system errors.
  package init(path: String) throws(IOError) {
    self.path = path
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw InputFile.error(errno, path: path) }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw IOError(.unreadable, path: path, reason: "is a directory")
    }
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// The file's size in bytes.
  package var byteCount: Int64 {
    var info = stat()
    return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// Reads up to `buffer.count` bytes into `buffer`, returning how many were read; 0 at the end.
  ///
  /// - Throws: `IOError.failed` when the operating system reports a read error.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    while true {
      let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      throw InputFile.error(errno, path: path)
    }
  }

  /// Calls `body` with each successive chunk of the file, in order, until the end.
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

  static func error(_ code: Int32, path: String) -> IOError {
    let reason = String(cString: strerror(code)).lowercased()
    switch code {
    case ENOENT, ENOTDIR: return IOError(.missing, path: path, reason: reason)
    case EACCES, EPERM, EISDIR: return IOError(.unreadable, path: path, reason: reason)
    default: return IOError(.failed, path: path, reason: reason)
    }
  }
}
