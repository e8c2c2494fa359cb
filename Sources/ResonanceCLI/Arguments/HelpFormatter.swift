/// Renders `--help` text from a command's configuration.
enum HelpFormatter {
  /// Columns the help is wrapped to.
  static let width = 80

  /// `resonance status [--db PATH] [--json]` — every option and argument, in declared order.
  static func synopsis(
    of configuration: CommandConfiguration, _ definitions: CommandDefinitions
  ) -> String {
    var parts = ["resonance", configuration.name]
    for option in definitions.options where option != .help {
      let word = option.synopsis + (option.isRepeatable ? " …" : "")
      parts.append(option.isRequired ? word : "[\(word)]")
    }
    parts += definitions.arguments.map(\.synopsis)
    return parts.joined(separator: " ")
  }

  /// The whole help page for one command.
  static func help(
    for configuration: CommandConfiguration, _ definitions: CommandDefinitions
  ) -> String {
    var text = "OVERVIEW: \(configuration.abstract)\n\n"
    text += "USAGE: \(synopsis(of: configuration, definitions))\n"
    if !configuration.discussion.isEmpty {
      text += "\n" + wrap(configuration.discussion, indent: 0) + "\n"
    }
    if !definitions.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      text += table(
        definitions.arguments.map { ($0.isVariadic ? "\($0.name)…" : $0.name, $0.help) })
    }
    text += "\nOPTIONS:\n"
    text += table(
      definitions.options.map { option in
        let short = option.shortName.map { "-\($0), " } ?? ""
        return (short + option.synopsis, option.help)
      })
    text += "\nEXAMPLES:\n"
    for example in configuration.examples {
      text += "  \(example.commandLine)\n"
      text += wrap(example.explanation, indent: 6) + "\n"
    }
    return text
  }

  /// Two columns: names padded to a common width, help wrapped beside them.
  static func table(_ rows: [(String, String)]) -> String {
    let nameWidth = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
    var text = ""
    for (name, help) in rows {
      let lead = "  " + name
      let indent = 2 + nameWidth
      let wrapped = wrap(help, indent: indent)
      let helpBody = wrapped.dropFirst(indent)
      // Two spaces at least between a name and its help; a longer name has a line of its own.
      if lead.count + 2 <= indent {
        text += lead + String(repeating: " ", count: indent - lead.count) + helpBody + "\n"
      } else {
        text += lead + "\n" + wrapped + "\n"
      }
    }
    return text
  }

  /// Wraps `text` to `width` columns with every line indented by `indent` spaces; blank lines
  /// separate paragraphs and lines that start with spaces are kept as they are.
  static func wrap(_ text: String, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if paragraph.isEmpty || paragraph.hasPrefix(" ") {
        lines.append(paragraph.isEmpty ? "" : pad + paragraph)
        continue
      }
      var line = pad
      for word in paragraph.split(separator: " ") {
        if line.count > indent, line.count + 1 + word.count > width {
          lines.append(line)
          line = pad
        }
        line += (line.count > indent ? " " : "") + word
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
