/// What a command is called and what it does: the text of its `--help` besides the options and
/// arguments, which come from the command's declarations (`CommandDefinitions`).
///
/// Shaped like swift-argument-parser's `CommandConfiguration`.
package struct CommandConfiguration: Sendable {
  /// The word after `resonance`, e.g. `status`.
  package var name: String
  /// One line: what the command does.
  package var abstract: String
  /// Paragraphs printed under the synopsis.
  package var discussion: String
  /// At least one worked example; `--help` prints them all.
  package var examples: [Example]

  package init(name: String, abstract: String, discussion: String = "", examples: [Example]) {
    precondition(!examples.isEmpty, "every command's help shows an example")
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.examples = examples
  }
}

/// An option (`--db PATH`) or flag (`--json`) a command accepts, as help and the parser see it.
/// Commands declare theirs with `@Option` and `@Flag`, which make one of these.
package struct OptionDefinition: Sendable, Equatable {
  /// Whether the option takes a value.
  package enum Kind: Sendable, Equatable {
    /// Present or absent.
    case flag
    /// Takes one value, written in help as the placeholder (`PATH`, `N`).
    case value(placeholder: String)
  }

  /// The long name without dashes: `db` for `--db`.
  package var name: String
  package var shortName: Character?
  package var kind: Kind
  package var help: String
  /// Whether the option may be given more than once (each value is kept).
  package var isRepeatable: Bool
  /// Whether the command cannot run without it (shown without brackets in the synopsis).
  package var isRequired: Bool
  /// Checks a value's text: nil when it is of the right form, else the form expected.
  let check: @Sendable (String) -> String?

  package init(
    _ name: String, short: Character? = nil, _ kind: Kind, help: String,
    repeatable: Bool = false, required: Bool = false,
    check: @escaping @Sendable (String) -> String? = { _ in nil }
  ) {
    self.name = name
    self.shortName = short
    self.kind = kind
    self.help = help
    self.isRepeatable = repeatable
    self.isRequired = required
    self.check = check
  }

  package static func == (a: OptionDefinition, b: OptionDefinition) -> Bool {
    (a.name, a.shortName, a.kind, a.help, a.isRepeatable, a.isRequired)
      == (b.name, b.shortName, b.kind, b.help, b.isRepeatable, b.isRequired)
  }

  /// `--help`, which every command accepts.
  package static let help = OptionDefinition(
    "help", short: "h", .flag, help: "Show this help and exit.")

  /// How the option is written in a synopsis: `--db PATH` or `--json`.
  package var synopsis: String {
    switch kind {
    case .flag: "--\(name)"
    case .value(let placeholder): "--\(name) \(placeholder)"
    }
  }
}

/// A positional argument.
package struct ArgumentDefinition: Sendable, Equatable {
  /// The placeholder in help, e.g. `PATH`.
  package var name: String
  package var help: String
  package var isRequired: Bool
  /// Whether it takes every remaining positional word (`PATH…`).
  package var isVariadic: Bool

  package init(_ name: String, help: String, required: Bool = true, variadic: Bool = false) {
    self.name = name
    self.help = help
    self.isRequired = required
    self.isVariadic = variadic
  }

  var synopsis: String {
    let word = isVariadic ? "\(name)…" : name
    return isRequired ? word : "[\(word)]"
  }
}

/// A worked example for `--help`: the command line and what it does.
package struct Example: Sendable, Equatable {
  package var commandLine: String
  package var explanation: String

  package init(_ commandLine: String, _ explanation: String) {
    self.commandLine = commandLine
    self.explanation = explanation
  }
}
