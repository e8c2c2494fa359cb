/// The privacy rules every reader applies as it reads: identifiers of users, accounts and
/// devices are dropped before anything reaches the store (`docs/privacy.md` lists them).
package enum PrivacyFilter {
  /// Words that, in a metadata key folded by `fold` (lower case, without spaces, `-` and `_`),
  /// mark it as an identifier of a person, account or device: `User-ID`, `user_id`, `User ID`
  /// and `UserID` all fold to `userid`.
  static let identifyingKeyWords = [
    "userid", "username", "useridentifier", "accountid", "accountnumber", "deviceid",
    "deviceidentifier", "serial", "udid", "imei", "macaddress", "ipaddress", "email",
    "phonenumber", "telephone", "appleid",
  ]

  /// Folded keys that are identifiers when they are the whole key (inside a longer key they
  /// are common words: `HeadphoneAudioExposure`).
  static let identifyingWholeKeys: Set<String> = ["phone", "mobile", "mail", "ip", "uid"]

  /// Fragments that, in a metadata value, carry such an identifier (a `userid=` in a URL).
  static let identifyingValueFragments = [
    "userid=", "user_id=", "uid=", "accountid=", "account_id=", "deviceid=", "device_id=",
    "email=", "token=", "apikey=", "api_key=",
  ]

  /// `identifyingValueFragments` as bytes, for the byte-level search.
  private static let identifyingValueFragmentBytes = identifyingValueFragments.map {
    Array($0.utf8)
  }

  /// Whether one of `identifyingValueFragments` (each ends in `=`) ends at one of the value's
  /// `=`, ASCII letters in any case: a value has few `=`, so few comparisons.
  private static func containsIdentifyingParameter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for end in bytes.indices where bytes[end] == UInt8(ascii: "=") {
      for fragment in identifyingValueFragmentBytes where fragment.count <= end + 1 {
        let start = end + 1 - fragment.count
        var j = 0
        while j < fragment.count - 1, lowered(bytes[start + j]) == fragment[j] { j += 1 }
        if j == fragment.count - 1 { return true }
      }
    }
    return false
  }

  /// An ASCII capital as its small letter; any other byte as it is.
  private static func lowered(_ b: UInt8) -> UInt8 {
    b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
  }

  /// Whether a metadata entry must be dropped: its key names an identifier, or its value
  /// carries one.
  package static func dropsMetadata(key: String, value: String) -> Bool {
    isIdentifyingKey(key) || isIdentifyingValue(value)
  }

  /// A key with case, spaces, `-` and `_` folded away.
  static func fold(_ key: String) -> String {
    String(
      decoding: key.lowercased().utf8.filter {
        $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_")
      }, as: UTF8.self)
  }

  /// Whether a metadata key names an identifier (readers cache this per key: keys repeat).
  package static func isIdentifyingKey(_ key: String) -> Bool {
    let folded = fold(key)
    return identifyingWholeKeys.contains(folded)
      || identifyingKeyWords.contains { folded.contains($0) }
  }

  /// Whether a value carries an identifier: a `userid=`-style parameter, an e-mail address, an
  /// IPv4 or IPv6 address, a MAC address, a UUID, or a `0x…` memory address.
  package static func isIdentifyingValue(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { containsIdentifier($0) }
  }

  /// `isIdentifyingValue` over UTF-8 bytes, without allocating: the value is cut into tokens
  /// (runs of letters, digits and `.:@%+-_`), and each token is matched against the shapes.
  package static func containsIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    byteClasses.withUnsafeBufferPointer { classes in
      // Every shape needs one of the marked bytes; most values (numbers without a dot, words,
      // zone names) have none, and are passed in one scan.
      var seen: UInt8 = 0
      for b in bytes { seen |= classes[Int(b)] }
      guard seen & ByteClass.marks != 0 else { return false }
      if seen & ByteClass.equals != 0, containsIdentifyingParameter(bytes) { return true }
      var start = 0
      while start < bytes.count {
        guard classes[Int(bytes[start])] & ByteClass.token != 0 else {
          start += 1
          continue
        }
        var end = start
        var marks: UInt8 = 0
        while end < bytes.count {
          let byteClass = classes[Int(bytes[end])]
          guard byteClass & ByteClass.token != 0 else { break }
          marks |= byteClass
          end += 1
        }
        // A sentence's full stop or colon is not part of the token.
        var last = end
        while last > start, classes[Int(bytes[last - 1])] & ByteClass.alphanumeric == 0 {
          last -= 1
        }
        if isIdentifierToken(UnsafeBufferPointer(rebasing: bytes[start..<last]), marks) {
          return true
        }
        start = end
      }
      return false
    }
  }

  /// What each byte is to `containsIdentifier`, as bits, so the scan reads one table entry
  /// per byte instead of comparing it with each byte of interest: whether it belongs in a
  /// token, whether it is a letter or digit, and which of the bytes the shapes need it is.
  private enum ByteClass {
    static let token: UInt8 = 1
    static let alphanumeric: UInt8 = 2
    static let at: UInt8 = 4
    static let dot: UInt8 = 8
    static let colonOrDash: UInt8 = 16
    static let x: UInt8 = 32
    static let equals: UInt8 = 64
    /// The bytes one of the shapes (or an identifying parameter) needs.
    static let marks: UInt8 = at | dot | colonOrDash | x | equals
  }

  private static let byteClasses: [UInt8] = (0...255).map { (code: Int) -> UInt8 in
    let b = UInt8(code)
    var bits: UInt8 = 0
    if isAlphanumeric(b) { bits |= ByteClass.alphanumeric | ByteClass.token }
    if Array(".:@%+-_".utf8).contains(b) { bits |= ByteClass.token }
    switch b {
    case UInt8(ascii: "@"): bits |= ByteClass.at
    case UInt8(ascii: "."): bits |= ByteClass.dot
    case UInt8(ascii: ":"), UInt8(ascii: "-"): bits |= ByteClass.colonOrDash
    case UInt8(ascii: "x"), UInt8(ascii: "X"): bits |= ByteClass.x
    case UInt8(ascii: "="): bits |= ByteClass.equals
    default: break
    }
    return bits
  }

  private static func isAlphanumeric(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
      || (b | 0x20 >= UInt8(ascii: "a")
        && b | 0x20 <= UInt8(ascii: "z"))
  }

  private static func isHex(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
      || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
  }

  private static func isDigit(_ b: UInt8) -> Bool {
    b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
  }

  /// One token against every shape whose bytes it holds.
  /// (`marks` holds the `ByteClass` bits of the token's bytes: a date's `2024-01-15` is not
  /// scanned for an IPv4 address or an e-mail.)
  private static func isIdentifierToken(_ t: UnsafeBufferPointer<UInt8>, _ marks: UInt8) -> Bool {
    (marks & ByteClass.at != 0 && isEmail(t)) || (marks & ByteClass.dot != 0 && isIPv4(t))
      || (marks & ByteClass.colonOrDash != 0 && (isColonHex(t) || containsUUID(t)))
      || (marks & ByteClass.x != 0 && containsHexAddress(t))
  }

  /// `local@domain.tld`: something before the `@`, a dot after it with something each side.
  private static func isEmail(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let at = t.firstIndex(of: UInt8(ascii: "@")), at > 0 else { return false }
    let domain = t[(at + 1)...]
    guard let dot = domain.lastIndex(of: UInt8(ascii: ".")) else { return false }
    return dot > at + 1 && dot < t.count - 1
  }

  /// Four dot-separated numbers of 0…255 somewhere in the token (`198.51.100.23`,
  /// `ip:10.0.0.1:8080`), not part of a longer dotted run (`1.2.3.4.5` is a version).
  private static func isIPv4(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    while start < t.count {
      defer { start += 1 }
      guard isDigit(t[start]), start == 0 || !(isDigit(t[start - 1]) || t[start - 1] == 0x2E)
      else { continue }
      var i = start
      var parts = 0
      while parts < 4 {
        var digits = 0
        var value = 0
        while i < t.count, isDigit(t[i]), digits < 4 {
          value = value * 10 + Int(t[i] - UInt8(ascii: "0"))
          digits += 1
          i += 1
        }
        guard digits >= 1, digits <= 3, value <= 255 else { break }
        parts += 1
        guard parts < 4 else { break }
        guard i + 1 < t.count, t[i] == UInt8(ascii: "."), isDigit(t[i + 1]) else { break }
        i += 1
      }
      if parts == 4, i == t.count || !(isDigit(t[i]) || t[i] == UInt8(ascii: ".")) {
        return true
      }
    }
    return false
  }

  /// An IPv6 address (hex groups of up to four with `::`, or eight groups) or a MAC address
  /// (six groups of two, by `:` or `-`). Clock times (`08:30:00`) are neither.
  private static func isColonHex(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var colons = 0
    var dashes = 0
    // The hex groups between separators: how many, and whether all are two digits long
    // (every group is at most four: a longer run has returned).
    var groups = 0
    var allPairs = true
    var run = 0
    var doubleColon = false
    var previousColon = false
    for b in t {
      if isHex(b) {
        run += 1
        guard run <= 4 else { return false }
        previousColon = false
      } else if b == UInt8(ascii: ":") || b == UInt8(ascii: "-") {
        if b == UInt8(ascii: ":") { colons += 1 } else { dashes += 1 }
        if previousColon, b == UInt8(ascii: ":") { doubleColon = true }
        previousColon = b == UInt8(ascii: ":")
        if run > 0 {
          groups += 1
          allPairs = allPairs && run == 2
        }
        run = 0
      } else if b == UInt8(ascii: "%") {
        break  // fe80::1%en0: the zone is not part of the address
      } else {
        return false
      }
    }
    if run > 0 {
      groups += 1
      allPairs = allPairs && run == 2
    }
    if colons > 0, dashes == 0, (doubleColon && colons >= 2) || (colons == 7 && groups == 8) {
      return true
    }
    let separators = colons + dashes
    return separators == 5 && (colons == 5 || dashes == 5) && groups == 6 && allPairs
  }

  /// Hex in the 8-4-4-4-12 shape of a UUID anywhere in the token.
  private static func containsUUID(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    guard t.count >= 36 else { return false }
    for start in 0...(t.count - 36) {
      var matches = true
      for offset in 0..<36 {
        let b = t[start + offset]
        let dash = offset == 8 || offset == 13 || offset == 18 || offset == 23
        if dash ? b != UInt8(ascii: "-") : !isHex(b) {
          matches = false
          break
        }
      }
      if matches { return true }
    }
    return false
  }

  /// `0x` and six or more hex digits, not inside a longer word (`0x2829f1e50`).
  private static func containsHexAddress(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    while i + 1 < t.count {
      if t[i] == UInt8(ascii: "0"), t[i + 1] | 0x20 == UInt8(ascii: "x"),
        i == 0 || !isAlphanumeric(t[i - 1])
      {
        var j = i + 2
        while j < t.count, isHex(t[j]) { j += 1 }
        if j - (i + 2) >= 6 { return true }
      }
      i += 1
    }
    return false
  }
}
