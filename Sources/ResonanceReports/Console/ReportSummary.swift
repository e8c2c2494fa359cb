import ResonanceModel

/// What `resonance report` prints about the pages it wrote.
package enum ReportSummary {
  /// A line per page with its answer, then where the files went.
  package static func text(pages: [ReportPage], files: Int, folder: String) -> String {
    var text = ""
    for page in pages { text += "report: \(page.name): \(page.headline)\n" }
    return text + "report: wrote \(files) files into \(folder)/ (start with index.md)\n"
  }

  /// `--json`: the folder, the range, and each page with its headline and files
  /// (`docs/cli.md`).
  package static func json(pages: [ReportPage], folder: String, days: DayRange) -> JSONValue {
    let list: [JSONValue] = pages.map { page in
      let files: [JSONValue] = page.files.map { .string($0.name) }
      return .object([
        "name": .string(page.name), "headline": .string(page.headline), "files": .array(files),
      ])
    }
    return .object([
      "format_version": 1, "out": .string(folder),
      "from": days.from.map { .string($0.description) } ?? .null,
      "to": days.to.map { .string($0.description) } ?? .null,
      "pages": .array(list),
    ])
  }
}
