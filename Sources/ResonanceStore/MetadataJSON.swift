import ResonanceModel

/// Metadata as the store keeps it: one JSON object per row, keys as written. A key that
/// appears more than once (workouts can repeat one) holds an array of its values, in order, so
/// nothing is lost. SQLite's `json_extract(metadata, '$.HKTimeZone')` reads it back.
package enum MetadataJSON {
  /// The JSON text, or `nil` when there is no metadata.
  package static func encode(_ entries: [MetadataEntry]) -> String? {
    guard !entries.isEmpty else { return nil }
    var bytes: [UInt8] = []
    append(entries, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the JSON text of `entries` (an empty object when there are none) to `out` as
  /// UTF-8, so a bulk writer can reuse one buffer for every row instead of building strings.
  package static func append(_ entries: [MetadataEntry], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "{"))
    if !repeatsAKey(entries) {  // nearly every record: each key once, in order
      for (i, entry) in entries.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        appendQuoted(entry.key, to: &out)
        out.append(UInt8(ascii: ":"))
        appendQuoted(entry.value, to: &out)
      }
    } else {
      var first = true
      for (i, entry) in entries.enumerated()
      where !entries[..<i].contains(where: { $0.key == entry.key }) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        appendQuoted(entry.key, to: &out)
        out.append(UInt8(ascii: ":"))
        let values = entries[i...].filter { $0.key == entry.key }
        if values.count == 1 {
          appendQuoted(entry.value, to: &out)
        } else {
          out.append(UInt8(ascii: "["))
          for (j, value) in values.enumerated() {
            if j > 0 { out.append(UInt8(ascii: ",")) }
            appendQuoted(value.value, to: &out)
          }
          out.append(UInt8(ascii: "]"))
        }
      }
    }
    out.append(UInt8(ascii: "}"))
  }

  /// Whether two entries share a key (lengths compared first: keys that differ mostly differ
  /// in length, and comparing counts costs less than comparing strings).
  private static func repeatsAKey(_ entries: [MetadataEntry]) -> Bool {
    for i in entries.indices.dropFirst() {
      let key = entries[i].key
      let length = key.utf8.count
      for j in 0..<i where entries[j].key.utf8.count == length && entries[j].key == key {
        return true
      }
    }
    return false
  }

  /// A JSON string literal: quotes, backslashes and control characters escaped; everything
  /// else, UTF-8 included, as written.
  static func appendQuoted(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most keys and values need no escape: copied in one go. (Native strings always have
    // contiguous UTF-8; a bridged one is escaped byte by byte below.)
    let copied =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if !copied {
      for byte in text.utf8 {
        switch byte {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])  // \"
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])  // \\
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case ..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          out.append(contentsOf: Array("\\u00".utf8))
          out.append(hex[Int(byte >> 4)])
          out.append(hex[Int(byte & 0x0F)])
        default: out.append(byte)
        }
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
