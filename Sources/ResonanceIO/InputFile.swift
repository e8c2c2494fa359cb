#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file opened for sequential reading with POSIX calls, closed when the value goes away.
///
/// Reading never loads the whole file: callers pull chunks of a size they choose. The file is
/// opened exactly once, so FIFOs, `/dev/fd/N` from a shell's `<(…)` and standard input (see
/// ``open(path:)``) read the same way as regular files; only a regular file can also seek.
package final class InputFile: SeekableByteSource {
  /// The path as given (`-` for standard input).
  package let path: String
  /// The path, or `standard input`; used in messages.
  package let name: String
  /// Whether the descriptor is a regular file, so that it can seek and be read again by a
  /// ``TrailingFileHasher``; false for pipes, FIFOs, terminals and character devices.
  package let isRegularFile: Bool
  /// Where reading started, in bytes from the start of the file: 0, except for standard input
  /// redirected from a file that something else had already read part of.
  let startOffset: Int64
  let descriptor: Int32

  /// Opens `path` for reading; `-` is the literal file name here (see ``open(path:)``).
  ///
  /// - Throws: `IOError` `.missing` when nothing is at the path, `.unreadable` when it is a
  ///   directory or access is denied (reason `permission denied`), `.failed` for other
  ///   operating-system errors.
  package convenience init(path: String) throws(IOError) {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw InputFile.error(errno, path: path) }
    try self.init(descriptor: fd, path: path, name: path)
  }

  /// Opens `path` for reading, or standard input when `path` is `-`.
  ///
  /// Standard input is read through a duplicate of descriptor 0 (closing the file leaves the
  /// process's standard input alone); its name in messages is `standard input`.
  ///
  /// - Throws: `IOError` as ``init(path:)`` does.
  package static func open(path: String) throws(IOError) -> InputFile {
    try open(path: path, standardInput: STDIN_FILENO)
  }

  /// ``open(path:)`` with the descriptor that stands for `-` given, so tests can use a pipe.
  static func open(path: String, standardInput: Int32) throws(IOError) -> InputFile {
    guard path == "-" else { return try InputFile(path: path) }
    let name = "standard input"
    let fd = fcntl(standardInput, F_DUPFD_CLOEXEC, 0)
    guard fd >= 0 else { throw InputFile.error(errno, path: name) }
    return try InputFile(descriptor: fd, path: path, name: name)
  }

  /// Takes ownership of `fd`, closing it if it is a directory or cannot be examined.
  private init(descriptor fd: Int32, path: String, name: String) throws(IOError) {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw InputFile.error(code, path: name)
    }
    let type = info.st_mode & S_IFMT
    if type == S_IFDIR {
      close(fd)
      throw IOError(.unreadable, path: name, reason: "is a directory")
    }
    self.path = path
    self.name = name
    descriptor = fd
    isRegularFile = type == S_IFREG
    startOffset = isRegularFile ? max(0, Int64(lseek(fd, 0, SEEK_CUR))) : 0
  }

  deinit { close(descriptor) }

  /// The file's size in bytes; 0 when it is not a regular file.
  package var byteCount: Int64 {
    var info = stat()
    guard isRegularFile, fstat(descriptor, &info) == 0 else { return 0 }
    return Int64(info.st_size)
  }

  /// The bytes from where reading started to the end of a regular file; nil for anything else.
  package var expectedByteCount: Int64? {
    isRegularFile ? max(0, byteCount - startOffset) : nil
  }

  /// Whether ``seek(to:from:)`` works: true exactly for a regular file.
  package var isSeekable: Bool { isRegularFile }

  /// Reads up to `buffer.count` bytes into `buffer`, returning how many were read; 0 at the end.
  ///
  /// - Throws: `IOError.failed` when the operating system reports a read error.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    while true {
      let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      throw InputFile.error(errno, path: name)
    }
  }

  /// Moves the read position of a regular file.
  ///
  /// - Returns: the new position in bytes from the start of the file.
  /// - Throws: `IOError.failed` for a pipe or terminal, or a position before the start.
  package func seek(to offset: Int64, from origin: SeekOrigin) throws(IOError) -> Int64 {
    guard isRegularFile else {
      throw IOError(.failed, path: name, reason: "cannot seek: not a regular file")
    }
    let whence =
      switch origin {
      case .start: SEEK_SET
      case .current: SEEK_CUR
      case .end: SEEK_END
      }
    let position = lseek(descriptor, off_t(offset), whence)
    guard position >= 0 else {
      throw IOError(
        .failed, path: name, reason: "cannot seek: " + String(cString: strerror(errno)).lowercased()
      )
    }
    return Int64(position)
  }

  /// The `IOError` for the operating system's error `code` on `path`: nothing there is
  /// `.missing`, no permission (or a directory) `.unreadable`, anything else `.failed`.
  package static func error(_ code: Int32, path: String) -> IOError {
    let reason = String(cString: strerror(code)).lowercased()
    switch code {
    case ENOENT, ENOTDIR: return IOError(.missing, path: path, reason: reason)
    case EACCES, EPERM, EISDIR: return IOError(.unreadable, path: path, reason: reason)
    default: return IOError(.failed, path: path, reason: reason)
    }
  }
}
