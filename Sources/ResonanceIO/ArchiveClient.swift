internal import CArchive

#if canImport(Glibc)
  import Glibc
#endif

/// Feeds a ``ByteSource`` to a libarchive reader through libarchive's client callbacks, so an
/// archive or gzip stream can come from anything that reads front to back (a pipe, another
/// archive's member) and not only from a file name or memory.
///
/// libarchive's callbacks are C function pointers, which cannot capture context: the client is
/// passed as the callback data, unretained, and whoever owns the `archive` owns the client too,
/// freeing the archive first.
final class ArchiveClient {
  let source: any ByteSource
  /// Set when the source can seek (a regular file): then libarchive also gets seek and skip
  /// callbacks, which its zip reader needs to start from the central directory.
  private let seekable: (any SeekableByteSource)?
  /// What libarchive reads next; it keeps a pointer into it until the next read callback.
  private let buffer: UnsafeMutableRawBufferPointer
  /// The source's own error, when a callback failed because of it; libarchive only learns that
  /// the callback failed, so this is what the owner reports instead of libarchive's message.
  private(set) var failure: IOError?

  /// - Parameter bufferSize: bytes asked of `source` per read callback.
  init(source: any ByteSource, bufferSize: Int = 1 << 16) {
    self.source = source
    if let candidate = source as? any SeekableByteSource, candidate.isSeekable {
      seekable = candidate
    } else {
      seekable = nil
    }
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// Whether the archive was given seek and skip callbacks.
  var isSeekable: Bool { seekable != nil }

  /// Installs the callbacks on `archive` and opens it (which reads the first bytes to choose
  /// filters and formats).
  ///
  /// - Returns: libarchive's result code.
  func open(_ archive: OpaquePointer) -> Int32 {
    archive_read_set_callback_data(archive, Unmanaged.passUnretained(self).toOpaque())
    archive_read_set_read_callback(archive) { _, data, out in
      ArchiveClient.from(data).read(out)
    }
    if seekable != nil {
      archive_read_set_seek_callback(archive) { _, data, offset, whence in
        ArchiveClient.from(data).seek(offset, whence: whence)
      }
      archive_read_set_skip_callback(archive) { _, data, request in
        ArchiveClient.from(data).skip(request)
      }
    }
    return archive_read_open1(archive)
  }

  private static func from(_ data: UnsafeMutableRawPointer?) -> ArchiveClient {
    // libarchive hands back exactly the pointer `open` installed.
    Unmanaged<ArchiveClient>.fromOpaque(data!).takeUnretainedValue()
  }

  private func read(_ out: UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int {
    do {
      let n = try source.read(into: buffer)
      out?.pointee = UnsafeRawPointer(buffer.baseAddress)
      return n
    } catch {
      failure = error
      return Int(ARCHIVE_FATAL)
    }
  }

  private func seek(_ offset: Int64, whence: Int32) -> Int64 {
    guard let seekable else { return Int64(ARCHIVE_FATAL) }
    let origin: SeekOrigin =
      switch whence {
      case SEEK_CUR: .current
      case SEEK_END: .end
      default: .start
      }
    do {
      return try seekable.seek(to: offset, from: origin)
    } catch {
      failure = error
      return Int64(ARCHIVE_FATAL)
    }
  }

  /// Skips up to `request` bytes without reading them; never past the end.
  private func skip(_ request: Int64) -> Int64 {
    guard let seekable, request > 0 else { return 0 }
    do {
      let here = try seekable.seek(to: 0, from: .current)
      let end = try seekable.seek(to: 0, from: .end)
      let target = min(end, here + request)
      _ = try seekable.seek(to: target, from: .start)
      return target - here
    } catch {
      failure = error
      return Int64(ARCHIVE_FATAL)
    }
  }

  /// The error to report after libarchive failed: the source's own, or libarchive's message
  /// with `context` before it, naming `path`.
  func error(_ archive: OpaquePointer, path: String, context: String) -> IOError {
    if let failure { return failure }
    return IOError(.failed, path: path, reason: "\(context): \(ArchiveClient.message(archive))")
  }

  /// libarchive's last error message, its first letter lowered to match ours.
  static func message(_ archive: OpaquePointer) -> String {
    guard let text = archive_error_string(archive).map({ String(cString: $0) }), !text.isEmpty
    else { return "libarchive error" }
    // "Truncated gzip input" reads as ours once lowered; "ZIP bad CRC" keeps its acronym.
    let second = text.dropFirst().first
    guard let second, second.isLowercase else { return text }
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
