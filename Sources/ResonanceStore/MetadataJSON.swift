import ResonanceModel

/// Metadata as the store keeps it: one JSON object per row, keys as written. A key that
/// appears more than once (workouts can repeat one) holds an array of its values, in order, so
/// nothing is lost. SQLite's `json_extract(metadata, '$.HKTimeZone')` reads it back.
package enum MetadataJSON {
  /// The JSON text, or `nil` when there is no metadata.
  package static func encode(_ entries: [MetadataEntry]) -> String? {
    guard !entries.isEmpty else { return nil }
    if entries.count == 1 {  // most records: one key, as a heart rate's motion context
      return "{" + quoted(entries[0].key) + ":" + quoted(entries[0].value) + "}"
    }
    var order: [String] = []
    var values: [String: [String]] = [:]
    for entry in entries {
      if values[entry.key] == nil { order.append(entry.key) }
      values[entry.key, default: []].append(entry.value)
    }
    var text = "{"
    for (i, key) in order.enumerated() {
      if i > 0 { text += "," }
      text += quoted(key) + ":"
      let list = values[key] ?? []
      text +=
        list.count == 1 ? quoted(list[0]) : "[" + list.map(quoted).joined(separator: ",") + "]"
    }
    return text + "}"
  }

  static func quoted(_ text: String) -> String {
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      return "\"" + text + "\""
    }
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += "\\u00" + String(scalar.value, radix: 16).leftPadded(2)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
