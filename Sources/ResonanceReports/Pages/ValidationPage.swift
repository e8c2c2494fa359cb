import ResonanceModel

/// `validation.md` (with `--truth`): the analyses against what a simulated person planted, as
/// `resonance validate` reports them.
package enum ValidationPage {
  package static func make(_ report: ValidationReport, truthName: String) -> ReportPage {
    var text = "# Validation against the simulated person\n\n"
    text += "The store's analyses against what `resonance synth` planted (`\(truthName)`): "
    text += "each figure beside its goal (`docs/validation.md`).\n\n"
    let missed = report.goals.filter { !$0.isMet }.count
    let headline =
      report.isEmpty
      ? "nothing in the store matches the truth file"
      : missed == 0
        ? "every goal met (\(report.goals.count))"
        : "\(missed) of \(report.goals.count) goals not met"
    if report.isEmpty {
      text += "Nothing in the store matches the truth file: ingest the person's files and run "
      text += "`resonance analyze` first.\n"
    } else {
      text += "**\(headline.prefix(1).uppercased() + headline.dropFirst()).**\n\n"
      text += "```text\n" + report.lines(truthPath: truthName).joined(separator: "\n") + "\n```\n"
    }
    return ReportPage(
      name: "validation", title: "Validation", headline: headline,
      files: [ReportFile(name: "validation.md", text: text)])
  }
}
