import ResonanceModel

/// Parses the Health export's device description string.
///
/// `<<HKDevice: 0x2829f1e50>, name:Apple Watch, manufacturer:Apple Inc., model:Watch,
/// hardware:Watch6,2, software:9.1>` → name, manufacturer, model, hardware, software. The fields
/// are found by their keys in whatever order they come (other generators put the `HKDevice`
/// address last, or between the fields). The address (different on every record), identifier
/// fields (`localIdentifier`, `UDIDeviceIdentifier`) and any field whose value carries an
/// identifier (`PrivacyFilter`) are never kept.
package enum DeviceDescription {
  static let fields = ["name", "manufacturer", "model", "hardware", "software"]

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
    var body = text
    while body.first == "<" { body = body.dropFirst() }
    while body.last == ">" { body = body.dropLast() }
    var device = HealthDevice()
    for piece in pieces(body) {
      guard let colon = piece.firstIndex(of: ":") else { continue }
      var key = piece[..<colon]
      while key.first == "<" || key.first == " " { key = key.dropFirst() }
      let value = String(piece[piece.index(after: colon)...])
      guard !PrivacyFilter.isIdentifyingValue(value) else { continue }
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

  /// The `key:value` pieces. They are separated by ", " — or by "," or ";" with or without
  /// spaces, as other generators write them — but a value may itself hold a comma
  /// (`hardware:Watch6,2`, a name such as `Jane, Apple Watch`), so a piece ends only where
  /// the separator is followed by a key: letters and spaces up to a colon (`creation date:`),
  /// or a `<`-wrapped `HKDevice:`.
  static func pieces(_ body: Substring) -> [Substring] {
    var pieces: [Substring] = []
    var current = body.startIndex
    var i = body.startIndex
    while i < body.endIndex {
      guard body[i] == "," || body[i] == ";" else {
        i = body.index(after: i)
        continue
      }
      let next = body[body.index(after: i)...].drop { $0 == " " }
      if startsWithKey(next) {
        pieces.append(body[current..<i])
        current = next.startIndex
      }
      i = body.index(after: i)
    }
    pieces.append(body[current...])
    return pieces
  }

  private static func startsWithKey(_ text: Substring) -> Bool {
    var sawLetter = false
    for character in text.drop(while: { $0 == "<" }) {
      if character == ":" { return sawLetter }
      guard character.isLetter || (character == " " && sawLetter) else { return false }
      sawLetter = true
    }
    return false
  }
}
