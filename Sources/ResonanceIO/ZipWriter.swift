internal import CArchive

/// Writes a zip archive through libarchive, with fixed entry times so that the same content
/// always gives the same bytes.
///
/// Zip stores entry times as DOS local time, which libarchive derives through the process's
/// time zone: callers that need identical bytes on every machine run with `TZ=UTC`.
///
/// ```swift
/// let zip = try ZipWriter(path: "export.zip", modificationTime: 1_685_000_000)
/// try zip.add(name: "apple_health_export/export.xml", contentsOfFile: "/tmp/export.xml")
/// try zip.close()
/// ```
package final class ZipWriter {
  private let archive: OpaquePointer
  package let path: String
  /// Seconds since the epoch stamped on every entry.
  private let modificationTime: Int
  private var isClosed = false

  /// Creates (truncating) the archive at `path`.
  ///
  /// - Throws: `IOError` when libarchive cannot open the file.
  package init(path: String, modificationTime: Int) throws(IOError) {
    guard let archive = archive_write_new() else {
      throw IOError(.failed, path: path, reason: "cannot start a zip archive")
    }
    archive_write_set_format_zip(archive)
    archive_write_set_options(archive, "zip:compression=deflate")
    // Opened before any property is set: a throw from a fully initialised object would run
    // deinit, which would free the archive a second time.
    if archive_write_open_filename(archive, path) != ARCHIVE_OK {
      let reason = ZipWriter.message(archive)
      archive_write_free(archive)
      throw IOError(.failed, path: path, reason: reason)
    }
    self.archive = archive
    self.path = path
    self.modificationTime = modificationTime
  }

  deinit {
    if !isClosed { archive_write_close(archive) }
    archive_write_free(archive)
  }

  /// Adds an entry holding `bytes`.
  package func add(name: String, bytes: [UInt8]) throws(IOError) {
    try header(name: name, size: Int64(bytes.count))
    var failure: IOError?
    bytes.withUnsafeBytes { raw in
      do throws(IOError) { try write(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Adds an entry holding the contents of the file at `source`, streamed in 1 MiB chunks.
  package func add(name: String, contentsOfFile source: String) throws(IOError) {
    let file = try InputFile(path: source)
    try header(name: name, size: file.byteCount)
    do {
      try file.forEachChunk { try self.write($0) }
    } catch let error as IOError {
      throw error
    } catch {
      throw IOError(.failed, path: path, reason: "\(error)")
    }
  }

  /// Adds an entry of `size` bytes produced piece by piece, so that an entry far larger than
  /// memory can be written: `next` is called until it returns nil.
  ///
  /// ```swift
  /// var left = 1 << 30
  /// let zeros = [UInt8](repeating: 0, count: 1 << 20)
  /// try zip.add(name: "zeros.bin", size: Int64(left)) {
  ///   guard left > 0 else { return nil }
  ///   left -= zeros.count
  ///   return zeros
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - size: the entry's length in bytes, stored in its header; the pieces must add up to it.
  ///   - next: the next piece of the content, or nil at its end.
  /// - Throws: `IOError` when libarchive fails, when `next` throws, or when the pieces do not
  ///   add up to `size`.
  package func add(
    name: String, size: Int64, chunks next: () throws(IOError) -> [UInt8]?
  ) throws(IOError) {
    try header(name: name, size: size)
    var written: Int64 = 0
    while let chunk = try next() {
      var failure: IOError?
      chunk.withUnsafeBytes { raw in
        do throws(IOError) { try write(raw) } catch { failure = error }
      }
      if let failure { throw failure }
      written += Int64(chunk.count)
    }
    guard written == size else {
      throw IOError(
        .failed, path: path, reason: "\(name): \(written) bytes written for a \(size)-byte entry")
    }
  }

  /// Finishes the archive (writes the central directory).
  package func close() throws(IOError) {
    isClosed = true
    if archive_write_close(archive) != ARCHIVE_OK {
      throw IOError(.failed, path: path, reason: ZipWriter.message(archive))
    }
  }

  private func header(name: String, size: Int64) throws(IOError) {
    guard let entry = archive_entry_new() else {
      throw IOError(.failed, path: path, reason: "cannot create a zip entry")
    }
    defer { archive_entry_free(entry) }
    archive_entry_set_pathname_utf8(entry, name)
    archive_entry_set_size(entry, size)
    archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG, a macro Swift does not import
    archive_entry_set_perm(entry, 0o644)
    archive_entry_set_mtime(entry, modificationTime, 0)
    // Under the C locale libarchive would store a non-ASCII name without the UTF-8 flag.
    if UTF8Locale.perform({ archive_write_header(archive, entry) }) != ARCHIVE_OK {
      throw IOError(.failed, path: path, reason: ZipWriter.message(archive))
    }
  }

  private func write(_ bytes: UnsafeRawBufferPointer) throws(IOError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    if archive_write_data(archive, base, bytes.count) < 0 {
      throw IOError(.failed, path: path, reason: ZipWriter.message(archive))
    }
  }

  private static func message(_ archive: OpaquePointer) -> String {
    archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
  }
}
