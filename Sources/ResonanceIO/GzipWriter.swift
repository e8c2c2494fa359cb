internal import CArchive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a gzip file through libarchive (the raw format under its gzip filter), deflating as
/// the bytes arrive, with no time or name in the header so that the same content always gives
/// the same bytes.
///
/// Memory stays at a 64 KiB buffer plus zlib's state however large the file grows. The header's
/// modification time is zero (libarchive's `gzip:!timestamp` option; otherwise it stores the
/// current time), and no original file name is stored. Call `close()` to finish the stream
/// (the last deflate block and the CRC-32 and length trailer); a writer dropped without it is
/// finished best-effort.
///
/// ```swift
/// let out = try GzipWriter(path: "watch-2022-06.jsonl.gz")
/// try out.write("{\"format\":\"resonance.watch-trace\",\"version\":1}\n")
/// try out.close()
/// ```
package final class GzipWriter {
  package let path: String
  /// Bytes written so far, before compression.
  package var byteCount: Int64 { buffer.byteCount }
  private let archive: OpaquePointer
  private var buffer = WriteBuffer(capacity: 1 << 16)
  private var isClosed = false

  /// Creates (truncating) the file at `path`.
  ///
  /// - Parameter compressionLevel: zlib's level, 0 (stored) to 9 (smallest); 6 is what `gzip`
  ///   itself uses by default.
  /// - Throws: `IOError` when libarchive cannot set up the filter or open the file.
  package init(path: String, compressionLevel: Int = 6) throws(IOError) {
    precondition((0...9).contains(compressionLevel), "gzip levels run from 0 to 9")
    // Set up before `self` is whole: once it is, a throw would run `deinit` on the archive.
    archive = try Self.open(path: path, compressionLevel: compressionLevel)
    self.path = path
    buffer.reserveCapacity(buffer.capacity)
  }

  /// A libarchive writer open on `path`, its one raw entry begun; freed again if any step
  /// fails.
  private static func open(path: String, compressionLevel: Int) throws(IOError) -> OpaquePointer {
    guard let archive = archive_write_new() else {
      throw IOError(.failed, path: path, reason: "cannot start a gzip stream")
    }
    func fail(_ kind: IOError.Kind = .failed) -> IOError {
      let error = IOError(kind, path: path, reason: ArchiveClient.message(archive))
      archive_write_free(archive)
      return error
    }
    // A failed option would silently cost determinism (a timestamp in every header): each is
    // checked. A NULL value is libarchive's `!timestamp`, the option turned off.
    guard archive_write_add_filter_gzip(archive) == ARCHIVE_OK,
      archive_write_set_format_raw(archive) == ARCHIVE_OK,
      archive_write_set_filter_option(archive, "gzip", "timestamp", nil) == ARCHIVE_OK,
      archive_write_set_filter_option(
        archive, "gzip", "compression-level", String(compressionLevel)) == ARCHIVE_OK,
      // No padding of the last block with zeros after the gzip trailer.
      archive_write_set_bytes_in_last_block(archive, 1) == ARCHIVE_OK
    else { throw fail() }
    guard archive_write_open_filename(archive, path) == ARCHIVE_OK else {
      throw fail(archive_errno(archive) == ENOENT ? .missing : .failed)
    }
    // The raw format holds exactly one entry, a regular file; its name and size are not
    // written anywhere, so the stream need not know its length in advance.
    guard let entry = archive_entry_new() else { throw fail() }
    defer { archive_entry_free(entry) }
    archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG, a macro Swift does not import
    archive_entry_set_perm(entry, 0o644)
    guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw fail() }
    return archive
  }

  deinit {
    if !isClosed {
      try? flush()
      archive_write_close(archive)
    }
    archive_write_free(archive)
  }

  /// Appends the UTF-8 bytes of `text`.
  package func write(_ text: String) throws(IOError) {
    if buffer.append(text) { try flush() }
  }

  /// Appends raw bytes.
  package func write(bytes: some Collection<UInt8>) throws(IOError) {
    if buffer.append(contentsOf: bytes) { try flush() }
  }

  /// Hands the buffered bytes to the compressor (which writes whole deflate blocks as they
  /// fill; the file is complete only after `close()`).
  package func flush() throws(IOError) {
    precondition(!isClosed, "write after close")
    guard !buffer.bytes.isEmpty else { return }
    let written = buffer.bytes.withUnsafeBytes {
      archive_write_data(archive, $0.baseAddress, $0.count)
    }
    guard written == buffer.bytes.count else {
      throw IOError(.failed, path: path, reason: ArchiveClient.message(archive))
    }
    buffer.removeAll()
  }

  /// Compresses what is buffered, ends the stream and closes the file.
  ///
  /// - Throws: `IOError` when the last bytes cannot be compressed or written.
  package func close() throws(IOError) {
    guard !isClosed else { return }
    try flush()
    isClosed = true
    if archive_write_close(archive) != ARCHIVE_OK {
      throw IOError(.failed, path: path, reason: ArchiveClient.message(archive))
    }
  }
}
