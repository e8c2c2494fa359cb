import ResonanceModel

/// Parses the Health export's device description string.
///
/// `<<HKDevice: 0x2829f1e50>, name:Apple Watch, manufacturer:Apple Inc., model:Watch,
/// hardware:Watch6,2, software:9.1>` → name, manufacturer, model, hardware, software. The hex
/// address (different on every record) and identifier fields (`localIdentifier`,
/// `UDIDeviceIdentifier`) are never kept.
package enum DeviceDescription {
  static let fields = ["name", "manufacturer", "model", "hardware", "software"]
  static let ignored = ["localIdentifier", "UDIDeviceIdentifier", "FDAUDI", "creation date"]

  /// The text after the address part, which is the same for every record of one device.
  package static func withoutAddress(_ text: Substring) -> Substring {
    guard text.hasPrefix("<<"), let close = text.firstIndex(of: ">") else { return text }
    var rest = text[text.index(after: close)...]
    if rest.hasPrefix(", ") { rest = rest.dropFirst(2) }
    if rest.hasSuffix(">") { rest = rest.dropLast() }
    return rest
  }

  /// The device fields of a description (address part removed or not).
  package static func parse(_ text: Substring) -> HealthDevice {
    let body = withoutAddress(text)
    var device = HealthDevice()
    // Fields are `key:value` separated by ", "; a value may itself hold a comma
    // (`hardware:Watch6,2`), so split only where ", " is followed by a known key.
    var pieces: [Substring] = []
    var current = body.startIndex
    var searchFrom = body.startIndex
    while let range = body[searchFrom...].range(of: ", ") {
      let next = body[range.upperBound...]
      if (fields + ignored).contains(where: { next.hasPrefix($0 + ":") }) {
        pieces.append(body[current..<range.lowerBound])
        current = range.upperBound
      }
      searchFrom = range.upperBound
    }
    pieces.append(body[current...])
    for piece in pieces {
      guard let colon = piece.firstIndex(of: ":") else { continue }
      let key = piece[..<colon]
      let value = String(piece[piece.index(after: colon)...])
      switch key {
      case "name": device.name = value
      case "manufacturer": device.manufacturer = value
      case "model": device.model = value
      case "hardware": device.hardware = value
      case "software": device.software = value
      default: break
      }
    }
    return device
  }
}

extension Substring {
  fileprivate func range(of needle: String) -> Range<Index>? {
    var i = startIndex
    let first = needle.first!
    while i < endIndex {
      if self[i] == first, self[i...].hasPrefix(needle) {
        return i..<index(i, offsetBy: needle.count)
      }
      i = index(after: i)
    }
    return nil
  }
}
