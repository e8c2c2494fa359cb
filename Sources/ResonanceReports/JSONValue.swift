/// A JSON document built in code, so each command's `--json` has one explicit shape: every key
/// is written whether or not it has a value (`null` when it has none).
///
/// ```swift
/// let value: JSONValue = ["plays": 12, "mean_quality": .number(nil), "file": "a/b.csv"]
/// print(value.text)   // keys sorted, two-space indent, `/` not escaped
/// ```
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// A number, or `null` when there is none; non-finite numbers are `null` too (JSON has none).
  package static func number(_ value: Double?) -> JSONValue {
    guard let value, value.isFinite else { return .null }
    return .double(value)
  }

  /// An integer, or `null` when there is none.
  package static func integer<Integer: BinaryInteger>(_ value: Integer?) -> JSONValue {
    value.map { .int(Int64($0)) } ?? .null
  }

  /// A string, or `null` when there is none.
  package static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

  /// The document as text: keys sorted, two-space indentation, a final newline; `/` is not
  /// escaped, and numbers round-trip (the shortest digits that read back as the same double).
  package var text: String {
    var out = ""
    write(to: &out, indent: "")
    return out + "\n"
  }

  private func write(to out: inout String, indent: String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d):
      if d.isFinite, d == d.rounded(), abs(d) < 1e15 {
        out += String(Int64(d))
      } else if d.isFinite {
        out += "\(d)"
      } else {
        out += "null"
      }
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      let inner = indent + "  "
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += inner
        item.write(to: &out, indent: inner)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += indent + "]"
    case .object(let members):
      guard !members.isEmpty else {
        out += "{}"
        return
      }
      let inner = indent + "  "
      out += "{\n"
      for (i, key) in members.keys.sorted().enumerated() {
        out += inner
        JSONValue.quote(key, into: &out)
        out += ": "
        members[key]!.write(to: &out, indent: inner)
        out += i + 1 < members.count ? ",\n" : "\n"
      }
      out += indent + "}"
    }
  }

  private static func quote(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      // Controls, DEL, C1 and the bidirectional overrides as \u escapes: the JSON stays
      // valid, and none of them reaches a terminal it is printed on.
      case _
      where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int64) { self = .int(value) }
  package init(floatLiteral value: Double) { self = .double(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
  }
  package init(nilLiteral: ()) { self = .null }
}
