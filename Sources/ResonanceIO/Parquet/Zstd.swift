internal import CZstd

/// Zstandard compression through Debian's libzstd: one frame for one buffer, as a Parquet
/// page is compressed.
enum Zstd {
  /// The level the Parquet pages are written at: libzstd's default, which balances size and
  /// time; the same input at the same level always gives the same bytes.
  static let level: Int32 = 3

  /// `bytes` as one Zstandard frame.
  static func compress(_ bytes: [UInt8]) -> [UInt8] {
    let bound = ZSTD_compressBound(bytes.count)
    var output = [UInt8](repeating: 0, count: bound)
    let written = output.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { input in
        ZSTD_compress(out.baseAddress, bound, input.baseAddress, input.count, level)
      }
    }
    // The output buffer is the library's own bound for this input, so the only failure left
    // is memory, which the process cannot recover from.
    precondition(ZSTD_isError(written) == 0, "ZSTD_compress failed: \(written)")
    output.removeSubrange(written...)
    return output
  }

  /// The frame decompressed, for the tests; nil when the bytes are not one whole frame.
  static func decompress(_ frame: [UInt8]) -> [UInt8]? {
    let size = frame.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
    guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN else { return nil }
    var output = [UInt8](repeating: 0, count: Int(size))
    let written = output.withUnsafeMutableBytes { out in
      frame.withUnsafeBytes { input in
        ZSTD_decompress(out.baseAddress, out.count, input.baseAddress, input.count)
      }
    }
    guard ZSTD_isError(written) == 0, written == Int(size) else { return nil }
    return output
  }
}
