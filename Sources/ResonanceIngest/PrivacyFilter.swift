import Foundation

/// The privacy rules every reader applies as it reads: identifiers of users, accounts and
/// devices are dropped before anything reaches the store (`docs/privacy.md` lists them).
package enum PrivacyFilter {
  /// Words that, in a metadata key folded by `fold` (NFKC, lower case, letters and digits
  /// only), mark it as an identifier of a person, account or device: `User-ID`, `user_id`,
  /// `User ID`, `user.id`, `User:ID`, `User‐ID` (U+2010) and `ＵserID` all fold to `userid`.
  static let identifyingKeyWords = [
    "userid", "username", "useridentifier", "accountid", "accountnumber", "deviceid",
    "deviceidentifier", "serial", "udid", "imei", "macaddress", "ipaddr", "email",
    "phonenumber", "telephone", "appleid", "sessionid", "password", "passwd",
  ]

  /// Folded keys that are identifiers when they are the whole key (inside a longer key they
  /// are common words: `HeadphoneAudioExposure`).
  static let identifyingWholeKeys: Set<String> = ["phone", "mobile", "mail", "ip", "uid"]

  /// Fragments that, in a metadata value, carry such an identifier (a `userid=` in a URL).
  static let identifyingValueFragments = [
    "userid=", "user_id=", "uid=", "user=", "accountid=", "account_id=", "deviceid=",
    "device_id=", "session=", "sessionid=", "session_id=", "sid=", "email=", "token=",
    "apikey=", "api_key=", "password=", "passwd=", "pwd=", "secret=",
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

  /// A key in NFKC (fullwidth `ｅmail` is `email`), lower case, with everything but letters
  /// and digits taken out: every space (NBSP included), dash (`‐`, `–`, …), `_`, `.` and `:`.
  static func fold(_ key: String) -> String {
    var folded = ""
    for scalar in key.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars
    where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
      folded.unicodeScalars.append(scalar)
    }
    return folded
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

  /// `isIdentifyingValue` over UTF-8 bytes. A value of ASCII without `%` is matched as it is,
  /// without allocating; any other is first put in NFKC (`x＠y.com` is `x@y.com`) with its
  /// `%XX` escapes decoded (`x%40y.com` too), and that is matched.
  package static func containsIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") }) else {
      return matchesShapes(bytes)
    }
    let normal = percentDecoded(
      Array(String(decoding: bytes, as: UTF8.self).precomposedStringWithCompatibilityMapping.utf8))
    return normal.withUnsafeBufferPointer { matchesShapes($0) } || matchesShapes(bytes)
  }

  /// `%XX` escapes decoded, any other `%` kept.
  static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
    func hex(_ b: UInt8) -> UInt8? {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hex(bytes[i + 1]),
        let low = hex(bytes[i + 2])
      {
        out.append(high << 4 | low)
        i += 3
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return out
  }

  /// The shapes, over bytes as they are: the value is cut into tokens (runs of letters, digits
  /// and `.:@%+-_`), and each token is matched; a phone number, which spaces and brackets
  /// cut, is looked for in the whole value.
  private static func matchesShapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    byteClasses.withUnsafeBufferPointer { classes in
      // Every shape needs one of the marked bytes; most values (numbers without a dot, words,
      // zone names) have none, and are passed in one scan.
      var seen: UInt8 = 0
      for b in bytes { seen |= classes[Int(b)] }
      guard seen & ByteClass.marks != 0 else { return false }
      if seen & ByteClass.equals != 0, containsIdentifyingParameter(bytes) { return true }
      if seen & ByteClass.digit != 0, containsPhoneNumber(bytes) { return true }
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
    static let digit: UInt8 = 128
    /// The bytes one of the shapes (or an identifying parameter) needs.
    static let marks: UInt8 = at | dot | colonOrDash | x | equals | digit
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
    case UInt8(ascii: "0")...UInt8(ascii: "9"): bits |= ByteClass.digit
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
    (marks & ByteClass.at != 0 && isEmail(t))
      || (marks & ByteClass.dot != 0 && (isIPv4(t) || isJWT(t)))
      || (marks & ByteClass.colonOrDash != 0 && (isColonHex(t) || containsUUID(t)))
      || (marks & ByteClass.x != 0 && containsHexAddress(t))
      || (marks & ByteClass.digit != 0 && (containsBareIdentifier(t) || isIMEI(t)))
  }

  /// A JSON Web Token: three base64url parts joined by dots, the first a JSON object's
  /// encoding (`eyJ…`, `{"` in base64).
  private static func isJWT(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    guard
      let start = (0..<max(0, t.count - 2)).first(where: {
        t[$0] == UInt8(ascii: "e") && t[$0 + 1] == UInt8(ascii: "y")
          && t[$0 + 2] == UInt8(ascii: "J")
      }), start == 0 || !isAlphanumeric(t[start - 1])
    else { return false }
    var parts = [0]
    for b in t[start...] {
      if b == UInt8(ascii: ".") {
        parts.append(0)
      } else if isAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") {
        parts[parts.count - 1] += 1
      } else {
        break
      }
    }
    return parts.count >= 3 && parts[0] >= 10 && parts[1] >= 4 && parts[2] >= 4
  }

  /// A run of letters and digits (between other bytes) that is an identifier without its
  /// separators: 32 hex digits (a UUID without dashes), 12 hex digits with a letter and a
  /// digit among them (a MAC address without separators, `001A7DDA7113`), or 10 to 12 capital
  /// letters and digits with at least two of each that is not an ISRC's shape (a serial
  /// number, `C02XL0GXJG5H`; an ISRC, `USRC17607839`, names a recording and is kept).
  private static func containsBareIdentifier(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    while start < t.count {
      guard isAlphanumeric(t[start]) else {
        start += 1
        continue
      }
      var end = start
      var hex = true
      var upper = true
      var digits = 0
      var letters = 0
      while end < t.count, isAlphanumeric(t[end]) {
        let b = t[end]
        hex = hex && isHex(b)
        if isDigit(b) { digits += 1 } else { letters += 1 }
        upper = upper && (isDigit(b) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")))
        end += 1
      }
      let run = UnsafeBufferPointer(rebasing: t[start..<end])
      let count = end - start
      if hex && (count == 32 || (count == 12 && digits > 0 && letters > 0)) { return true }
      if upper, (10...12).contains(count), digits >= 2, letters >= 2, !isISRC(run) { return true }
      start = end
    }
    return false
  }

  /// An ISRC without its dashes: two letters, three letters or digits, seven digits.
  private static func isISRC(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    t.count == 12 && !isDigit(t[0]) && !isDigit(t[1]) && t[5...].allSatisfy(isDigit)
  }

  /// An IMEI: 15 digits (dashes between groups allowed) whose Luhn check holds.
  private static func isIMEI(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var digits: [Int] = []
    for b in t {
      if isDigit(b) {
        digits.append(Int(b - UInt8(ascii: "0")))
      } else if b != UInt8(ascii: "-") {
        return false
      }
    }
    guard digits.count == 15, t.first.map(isDigit) == true, t.last.map(isDigit) == true else {
      return false
    }
    var sum = 0
    for (i, d) in digits.reversed().enumerated() {
      let v = i % 2 == 1 ? d * 2 : d
      sum += v > 9 ? v - 9 : v
    }
    return sum % 10 == 0
  }

  /// A phone number: `+` and 8 to 15 digits in groups (`+44 20 7946 0958`, `+1 (555)
  /// 010-9999`), or the North American `(555) 010-9999`, `555-010-9999`, `555.010.9999`.
  /// A date (`2024-01-15`), a time or a UTC offset (`+0000`) is neither.
  private static func containsPhoneNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    func isSeparator(_ c: UInt8) -> Bool {
      c == 0x20 || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "(")
        || c == UInt8(ascii: ")")
    }
    var i = 0
    while i < b.count {
      defer { i += 1 }
      let plus = b[i] == UInt8(ascii: "+")
      guard plus || isDigit(b[i]) || b[i] == UInt8(ascii: "(") else { continue }
      guard i == 0 || !(isAlphanumeric(b[i - 1]) || b[i - 1] == UInt8(ascii: "+")) else {
        continue
      }
      // The digit groups from here, with one separator (or ") ") between them.
      var groups: [Int] = []
      var separators: [UInt8] = []
      var j = plus ? i + 1 : i
      var run = 0
      var gap = 0
      var total = 0
      // At most 16 digits are read from any start: no number longer is a phone's, and the
      // scan stays linear in the value.
      while j < b.count, isDigit(b[j]) || isSeparator(b[j]), total <= 15 {
        if isDigit(b[j]) {
          total += 1
          if gap > 0, run > 0 {
            groups.append(run)
            run = 0
          }
          gap = 0
          run += 1
        } else {
          gap += 1
          if gap > 2 { break }
          separators.append(b[j])
        }
        j += 1
      }
      if run > 0 { groups.append(run) }
      if j < b.count, isAlphanumeric(b[j]) { continue }
      let digits = groups.reduce(0, +)
      if plus, groups.count >= 2, (8...15).contains(digits) { return true }
      if !plus, groups == [3, 3, 4], !separators.contains(UInt8(ascii: ":")) { return true }
    }
    return false
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
