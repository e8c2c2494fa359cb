internal import CArchive

/// The inflated bytes of a gzip stream, inflated as they are read, through libarchive's gzip
/// filter fed from another source.
///
/// Concatenated members (`cat a.gz b.gz`, what `gzip` itself accepts) read as one stream.
/// Memory stays at libarchive's buffers (tens of KiB) however large the stream inflates.
///
/// ```swift
/// let text = try GzipSource(wrapping: try InputFile.open(path: "watch.jsonl.gz"))
/// try text.forEachChunk { … }
/// ```
///
/// libarchive's gzip filter does not check the members' CRC-32 and length trailers: damage
/// that breaks the deflate structure (almost all of it) is reported, a flipped bit inside a
/// literal run may not be. libarchive also chooses its filters again on what it inflated, so a
/// gzip of a gzip comes out inflated twice. (Naming the filter with
/// `archive_read_append_filter` would stop that, but then a corrupt or truncated first block
/// reads as an empty stream instead of failing.)
package final class GzipSource: ByteSource {
  /// The wrapped source's name: the inflated bytes are what it means.
  package let name: String
  private let archive: OpaquePointer
  private let client: ArchiveClient
  /// The stream is empty (a gzip of nothing) or has ended.
  private var isAtEnd = false

  /// Starts inflating `inner`, reading its gzip header (and the first block) now.
  ///
  /// - Throws: `IOError.failed` naming `inner` when it does not start with a gzip header or its
  ///   first block is corrupt, or `inner`'s own `IOError`.
  package init(wrapping inner: any ByteSource) throws(IOError) {
    name = inner.name
    guard let archive = archive_read_new() else {
      throw IOError(.failed, path: inner.name, reason: "cannot start reading a gzip stream")
    }
    self.archive = archive
    client = ArchiveClient(source: inner)
    archive_read_support_filter_gzip(archive)
    archive_read_support_format_raw(archive)
    // The raw format only bids on at least one byte; a gzip of nothing is empty instead.
    archive_read_support_format_empty(archive)
    guard client.open(archive) == ARCHIVE_OK else {
      throw client.error(archive, path: name, context: "not a readable gzip stream")
    }
    // Without a gzip header, libarchive passes the bytes through unfiltered.
    guard archive_filter_count(archive) > 1, archive_filter_code(archive, 0) == ARCHIVE_FILTER_GZIP
    else {
      throw IOError(.failed, path: name, reason: "not a gzip stream")
    }
    var entry: OpaquePointer?
    switch archive_read_next_header(archive, &entry) {
    case ARCHIVE_OK: break
    case ARCHIVE_EOF: isAtEnd = true
    default: throw client.error(archive, path: name, context: "corrupt gzip stream")
    }
  }

  deinit { archive_read_free(archive) }

  /// Unknown: a gzip stream states its inflated length only at its end (and modulo 4 GiB).
  /// For progress, count the compressed bytes read beneath it against the file's size.
  package var expectedByteCount: Int64? { nil }

  /// Whether `prefix` starts with the gzip magic number (`1f 8b`).
  package static func hasMagic(_ prefix: some Collection<UInt8>) -> Bool {
    prefix.starts(with: [0x1F, 0x8B])
  }

  /// Inflates up to `buffer.count` bytes into `buffer`; 0 at the end of the last member.
  ///
  /// - Throws: `IOError.failed` naming the source when the deflate data or a member header is
  ///   corrupt or the stream is truncated, or the wrapped source's own `IOError`.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    guard !isAtEnd, buffer.count > 0 else { return 0 }
    let n = archive_read_data(archive, buffer.baseAddress, buffer.count)
    if n < 0 { throw client.error(archive, path: name, context: "corrupt gzip stream") }
    if n == 0 { isAtEnd = true }
    return n
  }
}
