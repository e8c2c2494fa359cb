#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run of a document's element events, written down on the parsing thread so that another
/// thread can replay them (``XMLEventReplayer``): a handler's own work then runs beside
/// libxml2's instead of after it, on the other core.
///
/// Names are numbered in the order the document first uses them, and a batch carries the names
/// first used in it; attribute values are copied into one byte array. Text is not recorded.
package struct XMLEventBatch: Sendable {
  /// Per start tag: 0, the name's number, the line, the attribute count, then per attribute
  /// its name's number and its value's offset and length in `bytes`. Per end tag: 1, the
  /// name's number. In the first `wordCount` words, copied in as values are.
  fileprivate var words: [Int] = []
  fileprivate var wordCount = 0
  /// The values, in the first `byteCount` bytes.
  fileprivate var bytes: [UInt8] = []
  fileprivate var byteCount = 0
  /// The names first used in this batch, in number order.
  fileprivate var newNames: [[UInt8]] = []

  package init() {}

  package var isEmpty: Bool { wordCount == 0 }

  /// Empties the batch, keeping its storage for the next.
  package mutating func removeAll() {
    wordCount = 0
    byteCount = 0
    newNames.removeAll()
  }

  /// Copies one event's words after the words so far.
  fileprivate mutating func append(words event: UnsafeBufferPointer<Int>) {
    wordCount = Self.copy(event, into: &words, at: wordCount)
  }

  /// Copies `value` after the values so far; returns where it starts.
  fileprivate mutating func append(value: UnsafeBufferPointer<UInt8>) -> Int {
    let start = byteCount
    byteCount = Self.copy(value, into: &bytes, at: start)
    return start
  }

  /// Copies `source` into `storage` from `start` with `memcpy` (an array's
  /// `append(contentsOf:)` from a buffer goes element by element), growing the storage by
  /// what is missing plus a quarter when it is short: a batch ends soon after it passes its
  /// size, so its storage stays close to that size. Returns where the copy ends.
  private static func copy<T: BitwiseCopyable & ExpressibleByIntegerLiteral>(
    _ source: UnsafeBufferPointer<T>, into storage: inout [T], at start: Int
  ) -> Int {
    let end = start + source.count
    if end > storage.count {
      storage.append(
        contentsOf: repeatElement(0, count: end - storage.count + storage.count / 4 + 64))
    }
    if let from = source.baseAddress, source.count > 0 {
      storage.withUnsafeMutableBufferPointer {
        _ = memcpy($0.baseAddress! + start, from, source.count * MemoryLayout<T>.stride)
      }
    }
    return end
  }
}

/// The handler a parser records into: it hands each batch to `exchange` once it holds about
/// `batchBytes` bytes of values (or as many words), and what is left to `flush()`. It wants no
/// text, so the parser skips text callbacks.
///
/// ```swift
/// let recorder = XMLEventRecorder { full in queue.push(full); return spare.take() }
/// let parser = XMLPushParser(handler: recorder)
/// try parser.feed(chunk)  // … then parser.finish(), recorder.flush()
/// // elsewhere: replayer.replay(batch, into: handler)
/// ```
package final class XMLEventRecorder: XMLEventHandler {
  // Each event is one access to `recording`: this module keeps the run-time exclusivity
  // checks, and one per append showed in profiles.
  private var recording: Recording
  private let exchange: (XMLEventBatch) -> XMLEventBatch

  /// - Parameters:
  ///   - batchBytes: about how many bytes of attribute values a batch holds.
  ///   - exchange: receives each full batch and returns an empty one to fill next (a spent
  ///     batch's storage, or a new batch).
  package init(
    batchBytes: Int = 1 << 20, exchange: @escaping (XMLEventBatch) -> XMLEventBatch
  ) {
    recording = Recording(batchBytes: max(1, batchBytes))
    self.exchange = exchange
  }

  deinit { recording.deallocate() }

  package func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
    if recording.start(name, attributes: attributes, line: line) { flush() }
  }

  package func endElement(_ name: XMLText) {
    recording.end(name)
  }

  /// Hands over what has been recorded since the last batch, if anything.
  package func flush() {
    guard !recording.batch.isEmpty else { return }
    let full = recording.batch
    recording.batch = XMLEventBatch()
    recording.batch = exchange(full)
    recording.batch.removeAll()
  }
}

/// The recorder's state: the batch being filled and the names numbered so far.
private struct Recording {
  var batch = XMLEventBatch()
  let batchBytes: Int
  /// Name numbers by the address libxml2 keeps each name at (one per name for the whole
  /// document): an open-addressed table on the address, at most half full.
  private var addresses = [UnsafeRawPointer?](repeating: nil, count: 256)
  private var numbers = [Int](repeating: 0, count: 256)
  private var nameCount = 0
  /// One event's words, gathered here and copied into the batch at once: appending them one
  /// by one to the batch's array cost a uniqueness and capacity check each.
  private var event = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4 + 3 * 16)

  init(batchBytes: Int) { self.batchBytes = batchBytes }

  /// Frees the event buffer (the recorder's `deinit` calls it: a struct has none).
  func deallocate() { event.deallocate() }

  /// Records a start tag; returns whether the batch is full.
  mutating func start(_ name: XMLText, attributes: XMLAttributes, line: Int) -> Bool {
    let count = attributes.count
    if 4 + 3 * count > event.count {
      event.deallocate()
      event = .allocate(capacity: 4 + 3 * count)
    }
    let words = event
    words[0] = 0
    words[1] = number(UnsafeRawPointer(name.bytes.baseAddress!)) { name }
    words[2] = line
    words[3] = count
    for i in 0..<count {
      let value = attributes.value(at: i).bytes
      words[4 + 3 * i] = number(attributes.nameAddress(at: i)) { attributes.name(at: i) }
      words[5 + 3 * i] = batch.append(value: value)
      words[6 + 3 * i] = value.count
    }
    batch.append(words: UnsafeBufferPointer(rebasing: words[0..<(4 + 3 * count)]))
    return batch.byteCount >= batchBytes || batch.wordCount >= batchBytes / 8
  }

  mutating func end(_ name: XMLText) {
    let words = event
    words[0] = 1
    words[1] = number(UnsafeRawPointer(name.bytes.baseAddress!)) { name }
    batch.append(words: UnsafeBufferPointer(rebasing: words[0..<2]))
  }

  /// The number of the name stored at `address`, numbering it (and copying its bytes into the
  /// batch) the first time.
  private mutating func number(_ address: UnsafeRawPointer, name: () -> XMLText) -> Int {
    var i = Self.slot(address, in: addresses.count)
    while let known = addresses[i] {
      if known == address { return numbers[i] }
      i = (i + 1) & (addresses.count - 1)
    }
    let number = nameCount
    nameCount += 1
    batch.newNames.append(Array(name().bytes))
    addresses[i] = address
    numbers[i] = number
    if 2 * nameCount > addresses.count { grow() }
    return number
  }

  private static func slot(_ address: UnsafeRawPointer, in size: Int) -> Int {
    let bits = UInt(bitPattern: address)
    return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 12)) & (size - 1)
  }

  private mutating func grow() {
    let (oldAddresses, oldNumbers) = (addresses, numbers)
    addresses = [UnsafeRawPointer?](repeating: nil, count: 2 * oldAddresses.count)
    numbers = [Int](repeating: 0, count: 2 * oldAddresses.count)
    for (address, number) in zip(oldAddresses, oldNumbers) {
      guard let address else { continue }
      var i = Self.slot(address, in: addresses.count)
      while addresses[i] != nil { i = (i + 1) & (addresses.count - 1) }
      addresses[i] = address
      numbers[i] = number
    }
  }
}

/// Replays recorded batches, in order, into a handler, as the parser would have called it.
///
/// Each name is kept at one address for the replayer's life, as libxml2 keeps it for the
/// document's, so a handler may recognise names by address. Replay one document's batches
/// with one replayer.
package final class XMLEventReplayer {
  /// NUL-terminated copies of the names, by number; freed with the replayer.
  private var names: [UnsafeMutablePointer<UInt8>] = []
  private var lengths: [Int] = []
  /// The SAX2 attribute layout (five pointers per attribute) of the element being replayed,
  /// written in place: array appends cost a uniqueness check each, five per attribute.
  private var layout = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 5 * 16)
  private var layoutCapacity = 16
  /// Where an empty batch's values point: `XMLAttributes` needs an address even for "".
  private let empty = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

  package init() { empty.initialize(to: 0) }

  deinit {
    for name in names { name.deallocate() }
    empty.deallocate()
    layout.deallocate()
  }

  package func replay(_ batch: XMLEventBatch, into handler: some XMLEventHandler) {
    for name in batch.newNames {
      let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: name.count + 1)
      copy.initialize(from: name, count: name.count)
      copy[name.count] = 0
      names.append(copy)
      lengths.append(name.count)
    }
    // Locals, not properties, in the loop: each property access is a run-time check here.
    let words = batch.words
    let (names, lengths) = (self.names, self.lengths)
    var (layout, layoutCapacity) = (self.layout, self.layoutCapacity)
    defer { (self.layout, self.layoutCapacity) = (layout, layoutCapacity) }
    batch.bytes.withUnsafeBufferPointer { bytes in
      let base = bytes.baseAddress ?? UnsafePointer(empty)
      var i = 0
      while i < batch.wordCount {
        let n = words[i + 1]
        let name = XMLText(bytes: UnsafeBufferPointer(start: names[n], count: lengths[n]))
        guard words[i] == 0 else {
          handler.endElement(name)
          i += 2
          continue
        }
        let line = words[i + 2]
        let count = words[i + 3]
        if count > layoutCapacity {
          layout.deallocate()
          layoutCapacity = count
          layout = .allocate(capacity: 5 * count)
        }
        for a in 0..<count {
          let at = i + 4 + 3 * a
          let start = base + words[at + 1]
          let slot = layout + 5 * a
          slot[0] = UnsafePointer(names[words[at]])
          slot[1] = nil
          slot[2] = nil
          slot[3] = start
          slot[4] = start + words[at + 2]
        }
        handler.startElement(
          name, attributes: XMLAttributes(sax2: layout, count: count), line: line)
        i += 4 + 3 * count
      }
    }
  }
}
