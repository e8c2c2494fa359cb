import ResonanceModel

/// What `resonance report` prints about the pages it wrote.
package enum ReportSummary {
  /// A line per page with its answer, then where the files went.
  package static func text(_ result: ReportResult) -> String {
    var text = ""
    for page in result.pages { text += "report: \(page.name): \(page.headline)\n" }
    return text
      + "report: wrote \(result.fileCount) files into \(result.folder)/ (start with index.md)\n"
  }

  /// `--json`: the folder, the range, and each page with its headline and files
  /// (`docs/cli.md`).
  package static func json(_ result: ReportResult) -> JSONValue {
    let list: [JSONValue] = result.pages.map { page in
      .object([
        "name": .string(page.name), "headline": .string(page.headline),
        "files": .array(page.files.map { .string($0) }),
      ])
    }
    return .object([
      "format_version": 1, "out": .string(result.folder),
      "from": result.days.from.map { .string($0.description) } ?? .null,
      "to": result.days.to.map { .string($0.description) } ?? .null,
      "pages": .array(list),
    ])
  }
}
