/// The privacy rules every reader applies as it reads: identifiers of users, accounts and
/// devices are dropped before anything reaches the store (`docs/privacy.md` lists them).
package enum PrivacyFilter {
  /// Words that, in a metadata key, mark it as an identifier of a person, account or device.
  static let identifyingKeyWords = [
    "userid", "user_id", "user id", "username", "user name", "accountid", "account_id",
    "account id", "accountnumber", "deviceid", "device_id", "device id", "deviceidentifier",
    "serial", "udid", "imei", "macaddress", "mac address", "ipaddress", "ip address", "email",
    "phone", "appleid", "apple id",
  ]

  /// Fragments that, in a metadata value, carry such an identifier (a `userid=` in a URL).
  static let identifyingValueFragments = [
    "userid=", "user_id=", "uid=", "accountid=", "account_id=", "deviceid=", "device_id=",
    "email=", "token=", "apikey=", "api_key=",
  ]

  /// Whether a metadata entry must be dropped: its key names an identifier, or its value
  /// carries one.
  package static func dropsMetadata(key: String, value: String) -> Bool {
    isIdentifyingKey(key) || isIdentifyingValue(value)
  }

  /// Whether a metadata key names an identifier (readers cache this per key: keys repeat).
  package static func isIdentifyingKey(_ key: String) -> Bool {
    let k = key.lowercased()
    return identifyingKeyWords.contains { k.contains($0) }
  }

  /// Whether a value carries an identifier. Only values with a `=` can (`userid=…`), so the
  /// rest are passed over with a byte scan.
  package static func isIdentifyingValue(_ value: String) -> Bool {
    guard value.utf8.contains(UInt8(ascii: "=")) else { return false }
    let v = value.lowercased()
    return identifyingValueFragments.contains { v.contains($0) }
  }
}
