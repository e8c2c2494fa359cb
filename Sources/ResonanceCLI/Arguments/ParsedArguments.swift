/// The words of a command line sorted into flags, option values and positionals, checked
/// against a command's declarations. The property wrappers read their values from it.
package struct ParsedArguments: Sendable, Equatable {
  package var flags: Set<String> = []
  package var values: [String: [String]] = [:]
  package var positionals: [String] = []

  package init() {}

  /// Whether `--help` (or `-h`) was given.
  package var isHelp: Bool { flags.contains(OptionDefinition.help.name) }

  /// Splits `words` (the arguments after the command name) according to `configuration`.
  ///
  /// Accepts `--name value`, `--name=value`, `-x value`, and `--` to end options.
  ///
  /// - Throws: `UsageError` for an unknown option (with the nearest known one as a hint), a
  ///   missing value, a value given to a flag, a repeated single option, a missing required
  ///   positional or a surplus one.
  package static func parse(
    _ words: [String], for configuration: CommandConfiguration, _ definitions: CommandDefinitions
  ) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if optionsEnded || word == "-" || !word.hasPrefix("-") {
        parsed.positionals.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      let (option, inlineValue) = try resolve(word, in: configuration, definitions)
      switch option.kind {
      case .flag:
        if inlineValue != nil {
          throw UsageError(
            "'--\(option.name)' takes no value", hint: "write '--\(option.name)' alone")
        }
        parsed.flags.insert(option.name)
      case .value(let placeholder):
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < words.count, !isOptionLike(words[index]) {
          value = words[index]
          index += 1
        } else {
          throw UsageError(
            "missing value for '--\(option.name)'", hint: "write '--\(option.name) \(placeholder)'")
        }
        if let expected = option.check(value) {
          throw UsageError(
            "invalid value '\(value)' for '--\(option.name)'", hint: "expected \(expected)")
        }
        if parsed.values[option.name] != nil, !option.isRepeatable {
          throw UsageError(
            "'--\(option.name)' given more than once", hint: "give '--\(option.name)' once")
        }
        parsed.values[option.name, default: []].append(value)
      }
    }
    if parsed.isHelp { return parsed }
    for option in definitions.options where option.isRequired && parsed.values[option.name] == nil {
      throw UsageError(
        "missing '\(option.synopsis)' for '\(configuration.name)'",
        hint: "write 'resonance \(configuration.name) \(option.synopsis)'")
    }
    try checkPositionals(parsed.positionals, for: configuration, definitions)
    return parsed
  }

  private static func isOptionLike(_ word: String) -> Bool {
    word.hasPrefix("-") && word != "-" && Double(word) == nil
  }

  private static func resolve(
    _ word: String, in configuration: CommandConfiguration, _ definitions: CommandDefinitions
  ) throws(UsageError) -> (OptionDefinition, String?) {
    if word.hasPrefix("--") {
      let body = word.dropFirst(2)
      let name: Substring
      let inlineValue: String?
      if let equals = body.firstIndex(of: "=") {
        name = body[..<equals]
        inlineValue = String(body[body.index(after: equals)...])
      } else {
        name = body
        inlineValue = nil
      }
      if let option = definitions.option(named: String(name)) {
        return (option, inlineValue)
      }
      let known = definitions.options.map(\.name)
      let nearest = Spelling.nearest(to: String(name), among: known).map {
        "did you mean '--\($0)'?"
      }
      throw UsageError(
        "unknown option '--\(name)' for '\(configuration.name)'",
        hint: nearest ?? "see 'resonance \(configuration.name) --help'")
    }
    let letters = Array(word.dropFirst())
    if letters.count == 1,
      let option = definitions.options.first(where: { $0.shortName == letters[0] })
    {
      return (option, nil)
    }
    throw UsageError(
      "unknown option '\(word)' for '\(configuration.name)'",
      hint: "see 'resonance \(configuration.name) --help'")
  }

  private static func checkPositionals(
    _ positionals: [String], for configuration: CommandConfiguration,
    _ declared: CommandDefinitions
  ) throws(UsageError) {
    let definitions = declared.arguments
    let required = definitions.filter(\.isRequired)
    if positionals.count < required.count {
      let missing = required[positionals.count]
      throw UsageError(
        "missing \(missing.name) for '\(configuration.name)'",
        hint: "usage: \(HelpFormatter.synopsis(of: configuration, declared))")
    }
    let isVariadic = definitions.last?.isVariadic ?? false
    if !isVariadic, positionals.count > definitions.count {
      let surplus = positionals[definitions.count]
      throw UsageError(
        "unexpected argument '\(surplus)' for '\(configuration.name)'",
        hint: "usage: \(HelpFormatter.synopsis(of: configuration, declared))")
    }
  }
}

/// Finds the known word nearest a misspelt one, for "did you mean" hints.
enum Spelling {
  /// The candidate with the smallest edit distance to `word`, when it is close enough to be a
  /// plausible typo (at most a third of the word's length, and at least 1).
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let limit = max(1, word.count / 3)
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(word, candidate)
      if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    return best?.0
  }

  /// Edit distance over characters, counting a swap of two neighbours as one edit (optimal
  /// string alignment), since `--jsno` for `--json` is one slip of the fingers.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
