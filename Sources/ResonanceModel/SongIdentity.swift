import Foundation

/// How two sources' names for a song are compared: the normalised title, artist and album
/// keys that decide "same song" when no shared identifier (catalog ID, Spotify URI, library
/// Persistent ID) links them. `docs/formats.md` states the rules with examples.
///
/// Normalising: Unicode compatibility folding, case and diacritics ignored; curly quotes read
/// as straight and apostrophes dropped (`Don’t` = `Dont`); `&` read as `and`; featured-artist
/// credits dropped (`(feat. X)`, `[ft. X]`, ` featuring X`); remaster labels dropped
/// (`- Remastered 2011`, `(2009 Remaster)`); every other punctuation mark a space; runs of
/// spaces one.
package enum SongIdentity {
  /// The comparison key of a title.
  package static func titleKey(_ title: String) -> String {
    var text = fold(title)
    text = removeBracketed(text) { isFeaturing($0) || isRemaster($0) }
    text = removeDashSuffix(text) { isRemaster($0) || isFeaturing($0) }
    text = cutCredit(text)
    return squeeze(text)
  }

  /// The comparison key of an artist name.
  package static func artistKey(_ artist: String) -> String {
    var text = fold(artist)
    text = removeBracketed(text) { isFeaturing($0) }
    text = cutCredit(text)
    return squeeze(text)
  }

  /// The comparison key of an album name.
  package static func albumKey(_ album: String) -> String {
    var text = fold(album)
    text = removeBracketed(text) { isRemaster($0) || $0.contains("deluxe") }
    text = removeDashSuffix(text) { isRemaster($0) || $0.contains("deluxe") }
    return squeeze(text)
  }

  /// The key that names one song by its artist and title: `artist|title`.
  package static func songKey(artist: String, title: String) -> String {
    artistKey(artist) + "|" + titleKey(title)
  }

  private static func fold(_ text: String) -> String {
    // Most names are ASCII: lower-case them byte by byte (Foundation's folding is slow).
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(text.utf8.count + 8)
      for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
        case UInt8(ascii: "'"), UInt8(ascii: "`"): continue
        case UInt8(ascii: "&"): bytes.append(contentsOf: Array(" and ".utf8))
        default: bytes.append(byte)
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    var folded = text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
    )
    .lowercased()
    for (from, to) in [
      ("\u{2019}", ""), ("\u{2018}", ""), ("'", ""), ("`", ""), ("\u{201C}", "\""),
      ("\u{201D}", "\""), ("&", " and "), ("\u{00A0}", " "), ("\u{2013}", "-"),
      ("\u{2014}", "-"),
    ] where folded.contains(from) {
      folded = folded.replacingOccurrences(of: from, with: to)
    }
    return folded
  }

  private static func isFeaturing(_ inner: String) -> Bool {
    let words = inner.split(whereSeparator: { $0 == " " || $0 == "." })
    guard let first = words.first else { return false }
    return ["feat", "ft", "featuring", "with"].contains(String(first))
  }

  private static func isRemaster(_ inner: String) -> Bool {
    inner.contains("remaster")
  }

  /// Drops `(…)` and `[…]` groups whose inside satisfies `drop`.
  private static func removeBracketed(_ text: String, drop: (String) -> Bool) -> String {
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(where: { $0 == "(" || $0 == "[" }) {
      let close: Character = rest[open] == "(" ? ")" : "]"
      guard let end = rest[open...].firstIndex(of: close) else { break }
      let inner = String(rest[rest.index(after: open)..<end]).trimmingCharacters(in: .whitespaces)
      result += rest[..<open]
      if !drop(inner) { result += rest[open...end] }
      rest = rest[rest.index(after: end)...]
    }
    return result + rest
  }

  /// Drops a trailing ` - …` part that satisfies `drop` (`Song - Remastered 2011`).
  private static func removeDashSuffix(_ text: String, drop: (String) -> Bool) -> String {
    guard let range = text.range(of: " - ", options: .backwards) else { return text }
    let suffix = String(text[range.upperBound...])
    return drop(suffix) ? String(text[..<range.lowerBound]) : text
  }

  /// Cuts an unbracketed credit: `Song feat. X`, `Artist ft. X`, `Artist featuring X`.
  private static func cutCredit(_ text: String) -> String {
    for marker in [" feat. ", " feat ", " ft. ", " featuring "] {
      if let range = text.range(of: marker) { return String(text[..<range.lowerBound]) }
    }
    return text
  }

  private static func squeeze(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(text.utf8.count)
      var pendingSpace = false
      for byte in text.utf8 {
        let isAlphanumeric =
          (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        if isAlphanumeric {
          if pendingSpace, !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
          pendingSpace = false
          bytes.append(byte)
        } else {
          pendingSpace = true
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if CharacterSet.alphanumerics.contains(scalar) {
        if pendingSpace, !result.isEmpty { result.append(" ") }
        pendingSpace = false
        result.unicodeScalars.append(scalar)
      } else {
        pendingSpace = true
      }
    }
    return result
  }
}
