import Synchronization

/// What the property wrappers of a command do while the command is built: declare themselves
/// (for the help and the parser's table of options) or take their values from parsed words.
///
/// A command type is built twice. Once while declaring: each `@Option`, `@Flag`, `@Argument`
/// and `@OptionGroup` runs its initialiser, which adds its definition here, in declaration
/// order. Then while reading: each initialiser takes its value from the parsed words. Both
/// happen inside `ArgumentScope.$current.withValue`, on one thread; the scope is a task-local
/// so that no global state is involved.
final class ArgumentScope: Sendable {
  enum Mode: Sendable {
    case declaring
    case reading(ParsedArguments)
  }

  private struct State: Sendable {
    var options: [OptionDefinition] = []
    var arguments: [ArgumentDefinition] = []
    var groups: [any ParsableArguments] = []
    var nextPositional = 0
  }

  let mode: Mode
  private let state = Mutex(State())

  @TaskLocal static var current: ArgumentScope?

  private init(_ mode: Mode) { self.mode = mode }

  /// The options and arguments `type` declares, in declaration order, `--help` last.
  ///
  /// A name declared twice (by the command and by a group it includes) is a programmer error.
  static func definitions(of type: any ParsableArguments.Type) -> CommandDefinitions {
    let scope = ArgumentScope(.declaring)
    _ = $current.withValue(scope) { type.init() }
    return scope.state.withLock { state in
      let options = state.options + [.help]
      var seen = Set<String>()
      for option in options {
        precondition(seen.insert(option.name).inserted, "'--\(option.name)' declared twice")
      }
      return CommandDefinitions(options: options, arguments: state.arguments)
    }
  }

  /// Builds `type` with the values `parsed` holds, and returns it with every option group it
  /// includes (for their `validate()`).
  static func build<Command: ParsableArguments>(_ type: Command.Type, from parsed: ParsedArguments)
    -> (command: Command, groups: [any ParsableArguments])
  {
    let scope = ArgumentScope(.reading(parsed))
    let command = $current.withValue(scope) { type.init() }
    return (command, scope.state.withLock { $0.groups })
  }

  /// Declares an option, or returns the texts given for it (empty when absent); nil outside a
  /// scope or while declaring.
  static func values(for definition: OptionDefinition) -> [String]? {
    guard let scope = current else { return nil }
    switch scope.mode {
    case .declaring:
      scope.state.withLock { $0.options.append(definition) }
      return nil
    case .reading(let parsed):
      return parsed.values[definition.name] ?? []
    }
  }

  /// Declares a flag, or returns whether it was given; nil outside a scope or while declaring.
  static func isSet(_ definition: OptionDefinition) -> Bool? {
    guard let scope = current else { return nil }
    switch scope.mode {
    case .declaring:
      scope.state.withLock { $0.options.append(definition) }
      return nil
    case .reading(let parsed):
      return parsed.flags.contains(definition.name)
    }
  }

  /// Declares a positional argument, or returns the words it takes: the next one, or every
  /// remaining one when it is variadic; nil outside a scope or while declaring.
  static func positionals(for definition: ArgumentDefinition) -> [String]? {
    guard let scope = current else { return nil }
    switch scope.mode {
    case .declaring:
      scope.state.withLock { $0.arguments.append(definition) }
      return nil
    case .reading(let parsed):
      return scope.state.withLock { state in
        let start = min(state.nextPositional, parsed.positionals.count)
        let end =
          definition.isVariadic
          ? parsed.positionals.count : min(start + 1, parsed.positionals.count)
        state.nextPositional = end
        return Array(parsed.positionals[start..<end])
      }
    }
  }

  /// Records a group built while reading, so that the runner can validate it.
  static func include(_ group: any ParsableArguments) {
    guard let scope = current, case .reading = scope.mode else { return }
    scope.state.withLock { $0.groups.append(group) }
  }
}

/// The options and positional arguments a command declares, as the parser and the help see
/// them.
package struct CommandDefinitions: Sendable, Equatable {
  /// Options and flags in declaration order, `--help` last.
  package var options: [OptionDefinition]
  /// Positional arguments, in order.
  package var arguments: [ArgumentDefinition]

  /// The option with the long name `name`, if there is one.
  package func option(named name: String) -> OptionDefinition? {
    options.first { $0.name == name }
  }
}
