/// The bytes a writer has been given and not yet handed on, with the count of every byte it was
/// given: the buffering `OutputFile` and `GzipWriter` share, each with its own capacity and its
/// own way of handing the bytes on (a file descriptor, a compressor).
///
/// A write is appended whole, however large, and says whether the buffer has reached its
/// capacity; the owner then hands `bytes` on and calls `removeAll()`. A write that exactly
/// fills the buffer reaches it, and one larger than the capacity goes on in one piece.
///
/// ```swift
/// var buffer = WriteBuffer(capacity: 1 << 16)
/// if buffer.append("{\"version\":1}\n") { try flush(buffer.bytes); buffer.removeAll() }
/// ```
struct WriteBuffer {
  /// The bytes given and not yet handed on.
  private(set) var bytes: [UInt8] = []
  /// The count at which a write reports the buffer full.
  let capacity: Int
  /// Every byte appended so far, handed on or not.
  private(set) var byteCount: Int64 = 0

  /// An empty buffer that reports itself full from `capacity` bytes on.
  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Sets storage aside for at least `minimumCapacity` bytes, so writes up to it do not
  /// reallocate.
  mutating func reserveCapacity(_ minimumCapacity: Int) {
    bytes.reserveCapacity(minimumCapacity)
  }

  /// Appends the UTF-8 bytes of `text`.
  ///
  /// - Returns: whether the buffer now holds `capacity` bytes or more.
  mutating func append(_ text: String) -> Bool {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
    byteCount += Int64(text.utf8.count)
    return bytes.count >= capacity
  }

  /// Appends raw bytes.
  ///
  /// - Returns: whether the buffer now holds `capacity` bytes or more.
  mutating func append(contentsOf new: some Collection<UInt8>) -> Bool {
    bytes.append(contentsOf: new)
    byteCount += Int64(new.count)
    return bytes.count >= capacity
  }

  /// Empties the buffer once its bytes are handed on, keeping its storage and its count.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }
}
