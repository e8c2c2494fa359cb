/// An option that takes a value, declared once with its help and how its text becomes a
/// value, and read back typed: `parsed[Self.gap]`. The value is checked while the words are
/// parsed, so a command never sees one of the wrong form.
///
/// ```swift
/// static let months = Option("months", placeholder: "N", help: "Months of history.",
///                            parser: .integer(in: 1...120))
/// let months = parsed[Self.months] ?? 1
/// ```
package struct Option<Value: Sendable>: ArgumentOption {
  package let definition: OptionDefinition
  let parser: ValueParser<Value>

  package init(
    _ name: String, short: Character? = nil, placeholder: String, help: String,
    repeatable: Bool = false, required: Bool = false, parser: ValueParser<Value>
  ) {
    self.parser = parser
    definition = OptionDefinition(
      name, short: short, .value(placeholder: placeholder), help: help, repeatable: repeatable,
      required: required, check: { text in parser.parse(text) == nil ? parser.expected : nil })
  }
}

extension Option where Value == String {
  /// An option whose value is any text (a path, a name).
  package init(
    _ name: String, short: Character? = nil, placeholder: String, help: String,
    repeatable: Bool = false
  ) {
    self.init(
      name, short: short, placeholder: placeholder, help: help, repeatable: repeatable,
      parser: .text)
  }
}

/// An option without a value: present or absent, read back as `parsed[Self.rebuild]`.
package struct Flag: ArgumentOption {
  package let definition: OptionDefinition

  package init(_ name: String, short: Character? = nil, help: String) {
    definition = OptionDefinition(name, short: short, .flag, help: help)
  }
}

/// Anything a command declares among its options: an `Option` or a `Flag`.
package protocol ArgumentOption: Sendable {
  var definition: OptionDefinition { get }
}

extension ArgumentOption {
  /// How the option is spelt on the command line, for messages: `--from`.
  package var spelling: String { "--" + definition.name }
}

extension Flag {
  /// `--help`, which every command accepts.
  package static let help = Flag("help", short: "h", help: "Show this help and exit.")
}

/// How an option's text becomes its value, and what the text should have been when it does
/// not (for the usage error's hint).
package struct ValueParser<Value: Sendable>: Sendable {
  /// The expected form, as the hint says it: `a whole number from 1 to 120`.
  package let expected: String
  package let parse: @Sendable (String) -> Value?

  package init(expected: String, parse: @escaping @Sendable (String) -> Value?) {
    self.expected = expected
    self.parse = parse
  }
}

extension ValueParser where Value == String {
  /// Any text, empty included.
  package static var text: ValueParser<String> { ValueParser(expected: "text") { $0 } }

  /// Text that is not empty.
  package static var nonEmpty: ValueParser<String> {
    ValueParser(expected: "a non-empty value") { $0.isEmpty ? nil : $0 }
  }
}

extension ValueParser where Value == Int {
  /// A whole number in `range`.
  package static func integer(in range: ClosedRange<Int>) -> ValueParser<Int> {
    ValueParser(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") {
      Int($0).flatMap { range.contains($0) ? $0 : nil }
    }
  }
}

extension ValueParser where Value == UInt64 {
  /// A whole number of zero or more.
  package static var natural: ValueParser<UInt64> {
    ValueParser(expected: "a whole number ≥ 0") { UInt64($0) }
  }
}

extension ValueParser where Value == Double {
  /// A finite number in `range`.
  package static func number(in range: ClosedRange<Double>) -> ValueParser<Double> {
    ValueParser(expected: "a number from \(range.lowerBound) to \(range.upperBound)") {
      Double($0).flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
    }
  }
}

extension ValueParser {
  /// One of a closed set, spelled as its raw values (the hint lists them).
  package static func oneOf(_ values: [Value], named name: @escaping @Sendable (Value) -> String)
    -> ValueParser<Value>
  {
    let names = values.map(name)
    return ValueParser(expected: "one of: " + names.joined(separator: ", ")) { text in
      names.firstIndex(of: text).map { values[$0] }
    }
  }
}

extension ValueParser where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of an enumeration's cases, by raw value.
  package static var oneOfCases: ValueParser<Value> {
    .oneOf(Array(Value.allCases), named: \.rawValue)
  }
}
