import ResonanceIO

/// Bytes in memory, handed out in reads of changing sizes (1 byte to 64 KiB, in a fixed cycle)
/// so that the readers meet a tag, a token or a line break split across reads, as they do
/// reading a zip member or a pipe. The cycle is fixed, so an input always reads the same way.
package final class ChunkedSource: ByteSource {
  package let name: String
  private let bytes: [UInt8]
  private var offset = 0
  private var reads = 0
  private static let sizes = [4096, 1, 7, 65536, 13, 512, 2, 1000]

  package init(_ bytes: [UInt8], name: String) {
    self.bytes = bytes
    self.name = name
  }

  package var expectedByteCount: Int64? { Int64(bytes.count) }

  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let size = Self.sizes[reads % Self.sizes.count]
    reads += 1
    let n = min(buffer.count, size, bytes.count - offset)
    guard n > 0 else { return 0 }
    bytes.withUnsafeBytes { raw in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)]))
    }
    offset += n
    return n
  }
}
