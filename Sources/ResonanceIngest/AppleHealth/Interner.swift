#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The Health reader's string sharing: `Interner` for the attribute values that repeat, and
// `RecentStrings` for metadata keys and values with a fact about each.

/// Shares one `String` per distinct byte sequence (types, sources, units and devices repeat
/// millions of times), so the reader allocates each only once.
///
/// Each slot remembers its last few strings, compared by bytes before anything is hashed:
/// exports group records by type, and a record's attributes come round in the same order.
/// Past those, an open-addressed table keyed by the bytes' FNV-1a hash (no `Hasher`, whose
/// per-lookup cost showed in profiles).
struct Interner {
  /// Hash and string per table entry; an empty string marks a free entry (short strings,
  /// the empty one among them, are answered before the table is consulted).
  private var hashes: [UInt64]
  private var entries: [String]
  private var count = 0
  /// Past this many distinct strings new ones are made but not kept, so a file of unique
  /// values cannot grow the table without bound. The table doubles to stay at most half
  /// full, from a size most exports never outgrow.
  private static let limit = 50_000
  /// Each slot's recent strings, the ones met most often first (a hit moves a string up one
  /// place; a string new to the slot comes in at the middle).
  private var recent: [String]
  private static let recentWays = 8

  /// Which attribute a string is for: each remembers its own recent values.
  enum Slot: Int, CaseIterable {
    case type, source, version, unit, device, other
  }

  init() {
    hashes = [UInt64](repeating: 0, count: 1024)
    entries = [String](repeating: "", count: 1024)
    recent = [String](repeating: "", count: Slot.allCases.count * Self.recentWays)
  }

  mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, slot: Slot = .other) -> String {
    // Up to 15 bytes a string is stored inline, with nothing allocated or counted: sharing
    // gains nothing, and making one costs less than looking it up.
    if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
    let base = slot.rawValue * Self.recentWays
    for way in 0..<Self.recentWays where Interner.equal(recent[base + way], bytes) {
      guard way > 0 else { return recent[base] }
      recent.swapAt(base + way, base + way - 1)
      return recent[base + way - 1]
    }
    let found = lookup(bytes)
    // Newest in the middle of the list: a string met once does not push out the ones the
    // slot keeps meeting, which move up one place at each hit.
    let middle = base + Self.recentWays / 2
    for i in stride(from: base + Self.recentWays - 1, to: middle, by: -1) {
      recent.swapAt(i, i - 1)
    }
    recent[middle] = found
    return found
  }

  private mutating func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var hash = 14_695_981_039_346_656_037 as UInt64
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    let mask = entries.count - 1
    var i = slot(of: hash)
    while !entries[i].isEmpty {
      if hashes[i] == hash, Interner.equal(entries[i], bytes) { return entries[i] }
      i = (i + 1) & mask
    }
    let string = String(decoding: bytes, as: UTF8.self)
    guard count < Self.limit else { return string }
    if 2 * (count + 1) > entries.count {
      let (oldHashes, oldEntries) = (hashes, entries)
      hashes = [UInt64](repeating: 0, count: 2 * oldEntries.count)
      entries = [String](repeating: "", count: 2 * oldEntries.count)
      for (old, kept) in zip(oldHashes, oldEntries) where !kept.isEmpty { place(kept, old) }
    }
    place(string, hash)
    count += 1
    return string
  }

  /// Puts `string` in the first free entry of its hash's probe (the table's size is a power
  /// of two, and at most half of it is used).
  private mutating func place(_ string: String, _ hash: UInt64) {
    var i = slot(of: hash)
    while !entries[i].isEmpty { i = (i + 1) & (entries.count - 1) }
    hashes[i] = hash
    entries[i] = string
  }

  /// Where a hash's probe starts.
  private func slot(of hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash ^ (hash >> 29)) & (entries.count - 1)
  }

  static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    string.utf8.withContiguousStorageIfAvailable { stored in
      stored.count == bytes.count
        && (bytes.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    } ?? string.utf8.elementsEqual(bytes)
  }
}

/// The strings met lately, each with a fact about it worked out once (whether a metadata key
/// names an identifier): a direct-mapped table, placed by a hash of a string's length and its
/// first and last eight bytes and checked by comparing the bytes, so a string met again costs
/// one probe and one comparison. A string that takes another's place replaces it; the table
/// never grows, whatever the file holds.
struct RecentStrings<Fact> {
  private var strings: [String]
  private var facts: [Fact?]

  /// - Parameter size: the number of places, a power of two.
  init(size: Int) {
    precondition(size > 0 && size & (size - 1) == 0, "size must be a power of two")
    strings = [String](repeating: "", count: size)
    facts = [Fact?](repeating: nil, count: size)
  }

  /// The string of `bytes` and its fact, worked out by `fact` when the string is not in the
  /// table (and then kept in its place).
  mutating func string(
    _ bytes: UnsafeBufferPointer<UInt8>, fact: (String) -> Fact
  ) -> (string: String, fact: Fact) {
    let i = place(bytes)
    if let known = facts[i], Interner.equal(strings[i], bytes) { return (strings[i], known) }
    let string = String(decoding: bytes, as: UTF8.self)
    let found = fact(string)
    strings[i] = string
    facts[i] = found
    return (string, found)
  }

  private func place(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let count = bytes.count
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    if count >= 8 {
      let start = UnsafeRawPointer(bytes.baseAddress!)
      hash ^= start.loadUnaligned(as: UInt64.self)
      hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
      hash ^= start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    } else {
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }
    hash = (hash ^ (hash >> 31)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: hash >> 32) & (strings.count - 1)
  }
}
