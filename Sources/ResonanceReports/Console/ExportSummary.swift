import ResonanceModel

/// What `resonance export` prints: a line per file, then the effects the hand-off carries.
package enum ExportSummary {
  package static func text(_ result: ExportResult) -> String {
    var text = ""
    for file in result.files {
      let rows = file.rows.map { $0 == 1 ? "1 row, " : "\($0) rows, " } ?? ""
      text += "export: \(file.name): \(rows)\(file.bytes) bytes\n"
    }
    for effect in result.effects {
      text +=
        "export: effect \(effect.name.rawValue) = \(Format.fixed(effect.estimate, 3)) "
        + "(SE \(Format.fixed(effect.se, 3)), n = \(effect.n))\n"
    }
    let missing = PersonEffect.Name.allCases.filter { name in
      !result.effects.contains { $0.name == name }
    }
    if !missing.isEmpty {
      text +=
        "export: too little data for \(missing.map(\.rawValue).joined(separator: ", "))\n"
    }
    let replaced = result.replaced ? " (replacing another store's hand-off)" : ""
    return text
      + "export: wrote \(result.files.count + 1) files into \(result.folder)/\(replaced)\n"
  }

  /// `--json`: the folder, the person, each file and each effect (`docs/cli.md`).
  package static func json(_ result: ExportResult) -> JSONValue {
    .object([
      "format_version": 1, "out": .string(result.folder), "person": .string(result.person),
      "replaced": .bool(result.replaced),
      "files": .array(result.files.map(HandOffDocuments.json)),
      "effects": .array(result.effects.map(HandOffDocuments.json)),
    ])
  }
}
