/// A decoding error's key path as messages name it: `candidates[3].p`, `preferences.policy`.
package enum CodingPath {
  /// The keys joined with dots, array positions as `[i]`; empty for no keys.
  package static func text(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text
  }
}
