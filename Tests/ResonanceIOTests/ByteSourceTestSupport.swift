import Foundation

@testable import ResonanceIO

/// Bytes held in memory, read through a pipe-like source: never seekable, and never more than
/// `maxRead` bytes per call, so callers cannot rely on reads filling their buffers.
final class MemorySource: ByteSource {
  let name: String
  private let bytes: [UInt8]
  private var position = 0
  private let maxRead: Int
  /// Fails with this error once `failAfter` bytes have been read.
  private let failure: IOError?
  private let failAfter: Int
  private(set) var readCalls = 0

  init(
    _ bytes: [UInt8], name: String = "memory", maxRead: Int = 4099, failure: IOError? = nil,
    failAfter: Int = .max
  ) {
    self.bytes = bytes
    self.name = name
    self.maxRead = maxRead
    self.failure = failure
    self.failAfter = failAfter
  }

  var expectedByteCount: Int64? { nil }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    readCalls += 1
    if let failure, position >= failAfter { throw failure }
    let n = min(buffer.count, maxRead, bytes.count - position, failAfter - position)
    guard n > 0 else { return 0 }
    bytes.withUnsafeBytes { all in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[position..<position + n]))
    }
    position += n
    return n
  }
}

/// Reads a source to its end in reads of `chunk` bytes.
func readAll(_ source: any ByteSource, chunk: Int = 1000) throws(IOError) -> [UInt8] {
  var out: [UInt8] = []
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
  defer { buffer.deallocate() }
  while true {
    let n = try source.read(into: buffer)
    if n == 0 { return out }
    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
  }
}

/// Bytes in a pattern with no short period, so a misplaced chunk shows.
func patternBytes(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: (UInt32($0) &+ seed) &* 2_654_435_761 >> 13) }
}

func sha256(_ bytes: [UInt8]) -> String {
  let hasher = SHA256()
  hasher.update(bytes)
  return hasher.finalize()
}

/// A folder of its own under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("resonance-io-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { "\(path)/\(name)" }

  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let file = file(name)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The CRC-32 of zip and gzip (IEEE 802.3, reflected).
func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
  }
  return ~crc
}

extension Array where Element == UInt8 {
  mutating func appendLittleEndian16(_ value: Int) {
    append(UInt8(value & 0xFF))
    append(UInt8((value >> 8) & 0xFF))
  }
  mutating func appendLittleEndian32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
  }
}

/// A gzip member holding `bytes` in stored (uncompressed) deflate blocks, written by hand so
/// tests need neither a compressor nor the `gzip` command.
func gzipMember(_ bytes: [UInt8]) -> [UInt8] {
  var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
  var start = 0
  repeat {
    let count = Swift.min(65_535, bytes.count - start)
    let isLast = start + count == bytes.count
    out.append(isLast ? 1 : 0)
    out.appendLittleEndian16(count)
    out.appendLittleEndian16(~count & 0xFFFF)
    out.append(contentsOf: bytes[start..<start + count])
    start += count
  } while start < bytes.count
  out.appendLittleEndian32(crc32(bytes))
  out.appendLittleEndian32(UInt32(truncatingIfNeeded: bytes.count))
  return out
}

/// A zip whose members are stored (not deflated), written by hand: the shapes `ZipWriter`
/// does not make — stored members with a data descriptor, names with or without the UTF-8
/// flag.
func storedZip(
  _ members: [(name: String, bytes: [UInt8])], dataDescriptor: Bool, utf8Flag: Bool = true
) -> [UInt8] {
  var out: [UInt8] = []
  var central: [UInt8] = []
  let flags = (dataDescriptor ? 0x0008 : 0) | (utf8Flag ? 0x0800 : 0)
  for member in members {
    let name = Array(member.name.utf8)
    let crc = crc32(member.bytes)
    let size = UInt32(member.bytes.count)
    let offset = UInt32(out.count)
    out.appendLittleEndian32(0x0403_4B50)
    out.appendLittleEndian16(20)
    out.appendLittleEndian16(flags)
    out.appendLittleEndian16(0)  // stored
    out.appendLittleEndian16(0)  // time
    out.appendLittleEndian16(0x21)  // 1980-01-01
    for value in dataDescriptor ? [0, 0, 0] : [crc, size, size] { out.appendLittleEndian32(value) }
    out.appendLittleEndian16(name.count)
    out.appendLittleEndian16(0)
    out.append(contentsOf: name)
    out.append(contentsOf: member.bytes)
    if dataDescriptor {
      for value in [0x0807_4B50, crc, size, size] { out.appendLittleEndian32(value) }
    }
    central.appendLittleEndian32(0x0201_4B50)
    central.appendLittleEndian16(20)
    central.appendLittleEndian16(20)
    central.appendLittleEndian16(flags)
    central.appendLittleEndian16(0)
    central.appendLittleEndian16(0)
    central.appendLittleEndian16(0x21)
    for value in [crc, size, size] { central.appendLittleEndian32(value) }
    central.appendLittleEndian16(name.count)
    for _ in 0..<4 { central.appendLittleEndian16(0) }  // extra, comment, disk, internal
    central.appendLittleEndian32(0)  // external attributes
    central.appendLittleEndian32(offset)
    central.append(contentsOf: name)
  }
  let centralOffset = UInt32(out.count)
  out.append(contentsOf: central)
  out.appendLittleEndian32(0x0605_4B50)
  out.appendLittleEndian16(0)
  out.appendLittleEndian16(0)
  out.appendLittleEndian16(members.count)
  out.appendLittleEndian16(members.count)
  out.appendLittleEndian32(UInt32(central.count))
  out.appendLittleEndian32(centralOffset)
  out.appendLittleEndian16(0)
  return out
}

/// A zip made by `ZipWriter` (deflated members, data descriptors) at `path`.
@discardableResult
func writeZip(_ path: String, _ members: [(name: String, bytes: [UInt8])]) throws -> String {
  let zip = try ZipWriter(path: path, modificationTime: 1_685_000_000)
  for member in members { try zip.add(name: member.name, bytes: member.bytes) }
  try zip.close()
  return path
}

/// Every member of a zip stream, read whole.
func readMembers(_ zip: ZipStream) throws -> [(name: String, bytes: [UInt8])] {
  var out: [(name: String, bytes: [UInt8])] = []
  try zip.forEachMember { member, source in
    out.append((member.name, try readAll(source, chunk: 777)))
  }
  return out
}
