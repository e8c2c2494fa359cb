/// An option that takes a value, declared once — name, help, how its text becomes a value, and
/// the default — where the command keeps it:
///
/// ```swift
/// @Option(name: "months", placeholder: "N", help: "Months of history.",
///         parser: .integer(in: 1...120))
/// var months = 1
/// ```
///
/// Shaped like swift-argument-parser's `@Option`. An option with a default value takes it when
/// absent; an optional one is nil; one without either is required (the synopsis shows it without
/// brackets, and parsing fails without it); an array collects every value given (repeatable).
/// Values are checked while the words are parsed, so a command never sees one of the wrong form.
@propertyWrapper
package struct Option<Value: Sendable>: Sendable {
  private var value: Value?

  package var wrappedValue: Value {
    get {
      guard let value else { preconditionFailure("an option read before its command was parsed") }
      return value
    }
    set { value = newValue }
  }

  /// An option with a default.
  package init(
    wrappedValue: Value, name: String, short: Character? = nil, placeholder: String,
    help: String, parser: ValueParser<Value>
  ) {
    let definition = OptionDefinition(
      name, short: short, .value(placeholder: placeholder), help: help, check: parser.check)
    value = ArgumentScope.values(for: definition)?.last.flatMap(parser.parse) ?? wrappedValue
  }

  /// An option the command cannot run without.
  package init(
    name: String, short: Character? = nil, placeholder: String, help: String,
    parser: ValueParser<Value>
  ) {
    let definition = OptionDefinition(
      name, short: short, .value(placeholder: placeholder), help: help, required: true,
      check: parser.check)
    value = ArgumentScope.values(for: definition)?.last.flatMap(parser.parse)
  }

  /// An option that may be left out: nil then.
  package init<Wrapped>(
    name: String, short: Character? = nil, placeholder: String, help: String,
    parser: ValueParser<Wrapped>
  ) where Value == Wrapped? {
    let definition = OptionDefinition(
      name, short: short, .value(placeholder: placeholder), help: help, check: parser.check)
    value = .some(ArgumentScope.values(for: definition)?.last.flatMap(parser.parse))
  }

  /// An option that may be given more than once; every value is kept, in order.
  package init<Element>(
    wrappedValue: Value = [], name: String, short: Character? = nil, placeholder: String,
    help: String, parser: ValueParser<Element>
  ) where Value == [Element] {
    let definition = OptionDefinition(
      name, short: short, .value(placeholder: placeholder), help: help, repeatable: true,
      check: parser.check)
    value = ArgumentScope.values(for: definition)?.compactMap(parser.parse) ?? wrappedValue
  }
}

/// An option without a value, present or absent: `@Flag(name: "json", help: "…") var isJSON`.
@propertyWrapper
package struct Flag: Sendable {
  package var wrappedValue: Bool

  package init(name: String, short: Character? = nil, help: String) {
    let definition = OptionDefinition(name, short: short, .flag, help: help)
    wrappedValue = ArgumentScope.isSet(definition) ?? false
  }
}

/// A positional argument: `@Argument(name: "PATH", help: "…") var paths: [String]`.
///
/// A `[String]` takes every remaining word (it must be the last); a `String?` takes the next
/// word if there is one; a `String` is required.
@propertyWrapper
package struct Argument<Value: Sendable>: Sendable {
  package var wrappedValue: Value

  /// Every remaining positional word; at least one unless `required` is false.
  package init(name: String, help: String, required: Bool = true) where Value == [String] {
    let definition = ArgumentDefinition(name, help: help, required: required, variadic: true)
    wrappedValue = ArgumentScope.positionals(for: definition) ?? []
  }

  /// The next positional word, if any.
  package init(name: String, help: String) where Value == String? {
    let definition = ArgumentDefinition(name, help: help, required: false)
    wrappedValue = ArgumentScope.positionals(for: definition)?.first
  }

  /// The next positional word, which the command needs.
  package init(name: String, help: String) where Value == String {
    let definition = ArgumentDefinition(name, help: help, required: true)
    wrappedValue = ArgumentScope.positionals(for: definition)?.first ?? ""
  }
}

/// Options several commands share, declared once in a type of their own and included whole:
/// `@OptionGroup var output: OutputOptions`. The group's `validate()` runs before the
/// command's.
@propertyWrapper
package struct OptionGroup<Group: ParsableArguments>: Sendable {
  package var wrappedValue: Group

  package init() {
    wrappedValue = Group()
    ArgumentScope.include(wrappedValue)
  }
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

  /// nil when `text` is of the right form, else the form expected.
  var check: @Sendable (String) -> String? {
    { [parse, expected] text in parse(text) == nil ? expected : nil }
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
  /// One of a closed set, spelled by `name` (the hint lists them).
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
