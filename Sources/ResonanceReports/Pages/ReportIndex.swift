import ResonanceModel

/// `index.md`: what was analysed, each page's answer in one line with a link, and — when
/// `resonance demo` wrote it — what each stage of the pipeline did.
package enum ReportIndex {
  /// The page. Deterministic: the same store, pages and stages give the same bytes.
  package static func make(
    summary: StoreSummary, pages: [ReportPage], range: ReportRange,
    pipeline: ReportPipeline? = nil
  ) -> ReportFile {
    var text = "# Resonance report\n\n"
    text += "What your music does to your body, from "
    if let pipeline {
      text += "the data in `\(pipeline.dataPath)` through the store `\(pipeline.storePath)` "
    } else {
      text += "the store "
    }
    text += "(schema version \(summary.schemaVersion)), covering \(range.text). Every figure "
    text += "comes from the store, and each page has its data beside it as CSV "
    text += "(`docs/reports.md` describes every page, column and chart).\n\n"
    if !pages.isEmpty {
      text += "## The answers\n\n"
      text += Markdown.table(
        header: ["page", "in one line"],
        rows: pages.map { ["[\(Markdown.escape($0.title))](\($0.name).md)", $0.headline] },
        markup: [0])
      text += "\n"
    }
    if let pipeline {
      text += "## Pipeline\n\n"
      text += Markdown.table(
        header: ["stage", "what happened"], rows: pipeline.stages.map { [$0.stage, $0.outcome] })
      text += "\n"
    }
    text += "## What the store holds\n\n"
    guard !summary.imports.isEmpty else {
      text += "Nothing has been imported, so there are no figures to report yet "
      text += "(`resonance ingest` reads the exports).\n"
      return ReportFile(name: "index.md", text: text)
    }
    let health = summary.health
    let listening = summary.listening
    text += Markdown.table(
      header: ["data", "count", "from (local time, then UTC)", "to (local time, then UTC)"],
      rows: [
        [
          "Health records", Format.grouped(health.records.values.reduce(0, +)),
          health.first?.shown ?? "–", health.last?.shown ?? "–",
        ],
        ["heartbeats", Format.grouped(health.heartbeats), "", ""],
        ["workouts", Format.grouped(health.workouts), "", ""],
        [
          "plays", Format.grouped(listening.plays), listening.first?.shown ?? "–",
          listening.last?.shown ?? "–",
        ],
        ["skipped plays", Format.grouped(listening.skips), "", ""],
        ["songs", Format.grouped(listening.songs), "", ""],
        ["trace recordings", Format.grouped(summary.traces.recordings), "", ""],
        ["trace samples", Format.grouped(summary.traces.samples), "", ""],
      ], alignments: ["l", "r", "l", "l"])
    if !health.records.isEmpty {
      text += "\n### Health records by type\n\n"
      let rows = health.records.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        .map { [$0.key, Format.grouped($0.value)] }
      text += Markdown.table(header: ["type", "records"], rows: rows, alignments: ["l", "r"])
    }
    text += "\n## Imported files\n\n"
    text += Markdown.table(
      header: ["file", "importer", "status", "records", "warnings", "sha256"],
      rows: summary.imports.map {
        [
          "`\($0.file)`", $0.importer, $0.status.rawValue, Format.grouped($0.records),
          Format.grouped($0.warnings), "`\($0.sha256.prefix(12))…`",
        ]
      }, alignments: ["l", "l", "l", "r", "r", "l"])
    return ReportFile(name: "index.md", text: text)
  }
}
