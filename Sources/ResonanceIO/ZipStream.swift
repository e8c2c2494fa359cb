internal import CArchive

/// Reads a zip archive from a ``ByteSource`` through libarchive, handing each member on as a
/// source of its inflated bytes, streamed, in archive order.
///
/// A member's source may be read whole, in part or not at all (the rest is skipped when the
/// next member is asked for), and may itself be read as a zip: a zip inside a zip is read from
/// the outer member's stream, never held in memory. Memory is libarchive's buffers per level
/// (a few hundred KiB), however large the members inflate.
///
/// ```swift
/// let zip = try ZipStream(reading: try InputFile.open(path: "export.zip"))
/// try zip.forEachMember { member, source in
///   if member.name.hasSuffix(".zip") {
///     try ZipStream(reading: source).forEachMember { inner, innerSource in … }
///   } else if member.name.hasSuffix("export.xml") {
///     try source.forEachChunk { try parser.feed($0) }
///   }
/// }
/// ```
///
/// Over a seekable source (a regular file, possibly through a ``PeekableSource``) libarchive
/// starts from the central directory at the end of the archive, which is what makes members
/// written with a data descriptor and stored (not deflated) readable, and takes names and sizes
/// from it. Over anything else (a pipe, a member of another zip, a ``HashingSource``) it reads
/// the local headers as they come; a stored member with a data descriptor is then found by
/// scanning for the descriptor.
///
/// Member names are UTF-8 whatever the process's locale (see `UTF8Locale`).
package final class ZipStream {
  /// One member of the archive.
  package struct Member: Sendable, Equatable {
    /// Path inside the archive, `/`-separated, as UTF-8.
    package var name: String
    /// Inflated size in bytes, when the archive states it (streamed members written with a data
    /// descriptor do not).
    package var size: Int64?
    /// Whether the member is a folder (no bytes of its own).
    package var isDirectory: Bool
  }

  /// The archive's name in messages: the source's.
  package let name: String
  private let archive: OpaquePointer
  private let client: ArchiveClient
  /// Counts members handed out; a member's source reads only while it is the current one.
  private var generation = 0
  private var isAtEnd = false

  /// Starts reading a zip from `source`, reading its first bytes now (a seekable source: its
  /// end, for the central directory).
  ///
  /// - Throws: `IOError.failed` naming the source when it is not a zip libarchive can read,
  ///   or the source's own `IOError`.
  package init(reading source: any ByteSource) throws(IOError) {
    name = source.name
    guard let archive = archive_read_new() else {
      throw IOError(.failed, path: source.name, reason: "cannot start reading a zip archive")
    }
    self.archive = archive
    client = ArchiveClient(source: source)
    if client.isSeekable {
      // Both zip readers: the seekable one wins when it finds the central directory; the
      // streaming one still reads a file whose end is missing.
      archive_read_support_format_zip(archive)
    } else {
      archive_read_support_format_zip_streamable(archive)
    }
    guard client.open(archive) == ARCHIVE_OK else {
      throw client.error(archive, path: name, context: "not a readable zip archive")
    }
  }

  deinit { archive_read_free(archive) }

  /// Whether the archive is read by its central directory (the source can seek).
  package var isReadByCentralDirectory: Bool { client.isSeekable }

  /// The next member and a source of its inflated bytes, or nil after the last.
  ///
  /// The source reads only until the next call (or until the stream goes away): reading it
  /// later is a programmer error. Whatever of the previous member was not read is skipped.
  ///
  /// - Throws: `IOError.failed` naming the archive when a header or the skipped rest of the
  ///   previous member is corrupt, or the source's own `IOError`.
  package func nextMember() throws(IOError) -> (Member, ZipMemberSource)? {
    generation += 1
    guard !isAtEnd else { return nil }
    let next = UTF8Locale.perform { () -> (Int32, Member?) in
      var entry: OpaquePointer?
      let code = archive_read_next_header(archive, &entry)
      guard code == ARCHIVE_OK || code == ARCHIVE_WARN, let entry else { return (code, nil) }
      return (code, ZipStream.member(entry))
    }
    guard let member = next.1 else {
      if next.0 == ARCHIVE_EOF {
        isAtEnd = true
        return nil
      }
      throw client.error(archive, path: name, context: "corrupt zip archive")
    }
    return (member, ZipMemberSource(stream: self, member: member, generation: generation))
  }

  /// Calls `body` with each member, in archive order, and a source of its inflated bytes that
  /// is valid during the call; stops at the first error.
  ///
  /// - Throws: `IOError` as ``nextMember()`` does, or rethrows what `body` throws.
  package func forEachMember(_ body: (Member, ZipMemberSource) throws -> Void) throws {
    while let (member, source) = try nextMember() {
      try body(member, source)
    }
  }

  /// Reads the current member's inflated bytes for ``ZipMemberSource``.
  fileprivate func readData(
    into buffer: UnsafeMutableRawBufferPointer, generation: Int, path: String
  ) throws(IOError) -> Int {
    precondition(generation == self.generation, "\(path) read after the next member was asked for")
    guard buffer.count > 0 else { return 0 }
    let n = archive_read_data(archive, buffer.baseAddress, buffer.count)
    if n < 0 { throw client.error(archive, path: path, context: "corrupt zip member") }
    return n
  }

  /// The member a header describes; called under `UTF8Locale`, which the name conversion needs.
  private static func member(_ entry: OpaquePointer) -> Member {
    let name =
      archive_entry_pathname_utf8(entry).map { String(cString: $0) }
      ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
    let size = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
    let isDirectory = archive_entry_filetype(entry) == 0o040000 || name.hasSuffix("/")  // AE_IFDIR
    return Member(name: name, size: size, isDirectory: isDirectory)
  }
}

/// The inflated bytes of the current member of a ``ZipStream``, streamed.
///
/// Valid until the stream is asked for its next member; it keeps the stream (and so the
/// archive) alive while it is referenced.
package final class ZipMemberSource: ByteSource {
  /// The member this source reads.
  package let member: ZipStream.Member
  /// `ARCHIVE!MEMBER`, for messages: a member of a nested zip reads `outer.zip!inner.zip!file`.
  package let name: String
  private let stream: ZipStream
  private let generation: Int

  fileprivate init(stream: ZipStream, member: ZipStream.Member, generation: Int) {
    self.stream = stream
    self.member = member
    self.generation = generation
    name = "\(stream.name)!\(member.name)"
  }

  /// The member's stated inflated size, when the archive gives one.
  package var expectedByteCount: Int64? { member.size }

  /// Inflates up to `buffer.count` bytes of the member; 0 at its end.
  ///
  /// - Throws: `IOError.failed` naming the member when its data is corrupt, its CRC-32 does
  ///   not match, or it is encrypted; or the archive's source's own `IOError`.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    try stream.readData(into: buffer, generation: generation, path: name)
  }
}
