import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The SHA-256 of a file that another thread is parsing, computed on a thread of its own that
/// reads the file again (from the page cache) and trails the parser: it hashes exactly the
/// bytes the parser has been handed, so the digest is the one hashing them in line would give,
/// even when parsing stops part-way. Hashing a gigabyte is about a tenth of the parsing
/// thread's work; here it runs wherever a core has room.
///
/// Only a regular file can be read again (``InputFile/isRegularFile``); for a pipe, hash in
/// line with ``HashingSource``. ``init(file:)`` re-reads through a duplicate of the open
/// descriptor with `pread`, so it works for standard input redirected from a file and never
/// opens the path a second time.
///
/// ```swift
/// let file = try InputFile.open(path: path)
/// let trailing = file.isRegularFile ? TrailingFileHasher(file: file) : nil
/// try file.forEachChunk { chunk in trailing?.advance(by: chunk.count); try parser.feed(chunk) }
/// let digest = try trailing?.finish()
/// ```
package final class TrailingFileHasher: Sendable {
  /// Where the trailing thread reads the file again.
  private enum Origin: Sendable {
    /// Opened again by path, on the hashing thread.
    case path(String)
    /// A duplicate descriptor (owned, closed when hashing ends), read with `pread` from
    /// `start`.
    case descriptor(Int32, start: Int64, name: String)
    /// The descriptor could not be duplicated.
    case unavailable(IOError)
  }

  /// Bytes the parser has been handed so far.
  private let handed = Atomic<Int64>(0)
  private let isFinished = Atomic<Bool>(false)
  /// Signalled whenever `handed` grows or the parser finishes.
  private let wake = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)
  private let outcome = Mutex<Result<String, IOError>?>(nil)

  /// Starts hashing the file at `path` as the parser is handed its bytes.
  package convenience init(path: String) {
    self.init(origin: .path(path))
  }

  /// Starts hashing the regular file `file` reads, from where its reading started, as the
  /// parser is handed its bytes; `file` itself is neither read nor moved.
  package convenience init(file: InputFile) {
    precondition(file.isRegularFile, "TrailingFileHasher needs a regular file")
    let copy = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
    if copy >= 0 {
      self.init(origin: .descriptor(copy, start: file.startOffset, name: file.name))
    } else {
      self.init(origin: .unavailable(InputFile.error(errno, path: file.name)))
    }
  }

  private init(origin: Origin) {
    WorkerThread.start { [self] in
      let result: Result<String, IOError>
      do throws(IOError) {
        result = .success(try digest(origin))
      } catch {
        result = .failure(error)
      }
      outcome.withLock { $0 = result }
      done.signal()
    }
  }

  /// The parser has been handed the next `count` bytes of the file.
  package func advance(by count: Int) {
    handed.add(Int64(count), ordering: .releasing)
    wake.signal()
  }

  /// The parser will be handed nothing more: waits for the hash of what it was handed.
  ///
  /// - Throws: `IOError` when the file could not be read again.
  package func finish() throws(IOError) -> String {
    isFinished.store(true, ordering: .releasing)
    wake.signal()
    done.wait()
    return try outcome.withLock { $0 ?? .success("") }.get()
  }

  private func digest(_ origin: Origin) throws(IOError) -> String {
    let name: String
    let next: (UnsafeMutableRawBufferPointer, Int64) throws(IOError) -> Int
    var file: InputFile?
    switch origin {
    case .unavailable(let error):
      throw error
    case .path(let path):
      let opened = try InputFile(path: path)
      file = opened
      name = path
      next = { (buffer, _) throws(IOError) in try opened.read(into: buffer) }
    case .descriptor(let descriptor, let start, let label):
      name = label
      next = { (buffer, hashed) throws(IOError) in
        while true {
          let n = pread(descriptor, buffer.baseAddress, buffer.count, off_t(start + hashed))
          if n >= 0 { return n }
          if errno != EINTR { throw InputFile.error(errno, path: label) }
        }
      }
    }
    defer {
      if case .descriptor(let descriptor, _, _) = origin { close(descriptor) }
      withExtendedLifetime(file) {}
    }
    let hasher = SHA256()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var hashed: Int64 = 0
    while true {
      // Finished first: once it is set, `handed` is final.
      let finished = isFinished.load(ordering: .acquiring)
      let target = handed.load(ordering: .acquiring)
      guard hashed < target else {
        if finished { return hasher.finalize() }
        wake.wait()
        continue
      }
      let wanted = min(buffer.count, Int(target - hashed))
      let count = try next(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), hashed)
      guard count > 0 else {
        throw IOError(.failed, path: name, reason: "the file became shorter while it was read")
      }
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      hashed += Int64(count)
    }
  }
}
