internal import CArchive

/// Whole-file reading with gzip undone: the apps' recordings may be `.jsonl.gz`.
package enum Decompression {
  /// Whether `bytes` start with the gzip magic number.
  package static func isGzip(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// The bytes of a gzip stream, inflated through libarchive.
  ///
  /// - Throws: `IOError.failed` when the stream is corrupt; `path` names it.
  package static func gunzip(_ bytes: [UInt8], path: String) throws(IOError) -> [UInt8] {
    guard let archive = archive_read_new() else {
      throw IOError(.failed, path: path, reason: "cannot start reading a gzip stream")
    }
    defer { archive_read_free(archive) }
    archive_read_support_filter_gzip(archive)
    archive_read_support_format_raw(archive)
    let opened = bytes.withUnsafeBytes {
      archive_read_open_memory(archive, $0.baseAddress, $0.count)
    }
    var entry: OpaquePointer?
    guard opened == ARCHIVE_OK, archive_read_next_header(archive, &entry) == ARCHIVE_OK else {
      throw IOError(.failed, path: path, reason: "not a readable gzip stream")
    }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
      if n == 0 { break }
      if n < 0 {
        throw IOError(
          .failed, path: path,
          reason: "corrupt gzip stream: "
            + (archive_error_string(archive).map { String(cString: $0) } ?? ""))
      }
      out.append(contentsOf: buffer[0..<n])
    }
    return out
  }
}
