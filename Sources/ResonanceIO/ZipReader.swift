internal import CArchive

/// Reads a zip archive in place through libarchive: lists its entries, and streams one
/// entry's inflated bytes in chunks without unpacking anything to disk.
///
/// ```swift
/// let zip = try ZipReader(path: "export.zip")
/// for entry in try zip.entries() { print(entry.name, entry.size) }
/// try zip.read(entry: "apple_health_export/export.xml") { chunk in … }
/// ```
package final class ZipReader {
  /// One member of the archive.
  package struct Entry: Sendable, Equatable {
    /// Path inside the archive, `/`-separated.
    package var name: String
    /// Uncompressed size in bytes, when the archive states it.
    package var size: Int64?
    package var isDirectory: Bool
  }

  package let path: String
  private let bytes: [UInt8]?

  /// An archive on disk.
  package init(path: String) throws(IOError) {
    self.path = path
    bytes = nil
    _ = try InputFile(path: path)  // missing or unreadable: say so now, with the right kind
  }

  /// An archive held in memory (a zip inside a zip); `path` names it in messages.
  package init(bytes: [UInt8], path: String) {
    self.path = path
    self.bytes = bytes
  }

  /// Every entry, in archive order.
  ///
  /// - Throws: `IOError` (`.failed`) when the archive is not a readable zip.
  package func entries() throws(IOError) -> [Entry] {
    var result: [Entry] = []
    try withArchive { (archive) throws(IOError) in
      while let entry = try next(archive) {
        result.append(entry)
        archive_read_data_skip(archive)
      }
    }
    return result
  }

  /// Streams the inflated bytes of the entry named `name` to `body` in chunks.
  ///
  /// - Throws: `IOError` when the entry is missing or its data is corrupt; rethrows `body`'s
  ///   errors.
  package func read(entry name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    var found = false
    var failure: (any Error)?
    try withArchive { (archive) throws(IOError) in
      while let entry = try next(archive) {
        guard entry.name == name else {
          archive_read_data_skip(archive)
          continue
        }
        found = true
        try inflate(archive, entry: name) { chunk in
          do {
            try body(chunk)
            return true
          } catch {
            failure = error
            return false
          }
        }
        return
      }
    }
    if let failure { throw failure }
    if !found { throw IOError(.missing, path: "\(path)!\(name)", reason: "no such entry") }
  }

  /// Visits every entry once, in archive order; `read` inflates the current entry whole (call
  /// it at most once, and only during the visit). One pass over the archive, however many
  /// entries are read.
  package func forEachEntry(
    _ body: (Entry, _ read: () throws(IOError) -> [UInt8]) throws -> Void
  ) throws {
    var failure: (any Error)?
    try withArchive { (archive) throws(IOError) in
      while let entry = try next(archive) {
        let name = entry.name
        let read = { () throws(IOError) -> [UInt8] in
          var bytes: [UInt8] = []
          if let size = entry.size { bytes.reserveCapacity(Int(size)) }
          try self.inflate(archive, entry: name) { chunk in
            bytes.append(contentsOf: chunk)
            return true
          }
          return bytes
        }
        do {
          try body(entry, read)
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
  }

  /// The whole inflated entry (for small members, such as a zip inside a zip).
  package func data(entry name: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try read(entry: name) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Inflates the current entry in chunks of up to 1 MiB, until the end or until `chunk`
  /// returns false.
  private func inflate(
    _ archive: OpaquePointer, entry name: String, _ chunk: (UnsafeRawBufferPointer) -> Bool
  ) throws(IOError) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = archive_read_data(archive, buffer.baseAddress, buffer.count)
      if n == 0 { return }
      if n < 0 { throw IOError(.failed, path: "\(path)!\(name)", reason: message(archive)) }
      guard chunk(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) else { return }
    }
  }

  private func withArchive(_ body: (OpaquePointer) throws(IOError) -> Void) throws(IOError) {
    guard let archive = archive_read_new() else {
      throw IOError(.failed, path: path, reason: "cannot start reading a zip archive")
    }
    defer { archive_read_free(archive) }
    archive_read_support_format_zip(archive)
    let code: Int32
    if let bytes {
      code = bytes.withUnsafeBytes { archive_read_open_memory(archive, $0.baseAddress, $0.count) }
      // libarchive keeps the pointer: `bytes` is a stored property, alive as long as self.
    } else {
      code = archive_read_open_filename(archive, path, 1 << 20)
    }
    guard code == ARCHIVE_OK else {
      throw IOError(.failed, path: path, reason: "not a readable zip archive: \(message(archive))")
    }
    try body(archive)
  }

  private func next(_ archive: OpaquePointer) throws(IOError) -> Entry? {
    var entry: OpaquePointer?
    // Names convert through the locale: under C, a UTF-8 name would come out empty.
    let code = UTF8Locale.perform { archive_read_next_header(archive, &entry) }
    if code == ARCHIVE_EOF { return nil }
    guard code == ARCHIVE_OK || code == ARCHIVE_WARN, let entry else {
      throw IOError(.failed, path: path, reason: "corrupt zip archive: \(message(archive))")
    }
    let name = UTF8Locale.perform {
      archive_entry_pathname_utf8(entry).map { String(cString: $0) }
        ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
    }
    let size = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
    return Entry(name: name, size: size, isDirectory: name.hasSuffix("/"))
  }

  private func message(_ archive: OpaquePointer) -> String {
    archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
  }
}
