import ResonanceModel

/// `Reports/index.md`: the front page of what `make demo` (or `resonance demo`) produced.
///
/// It is built only from what the store holds and what the stages reported, so every figure
/// in it is real; with nothing ingested it says so rather than show empty tables.
package struct IndexReport: Sendable {
  /// One pipeline stage and what it did in this run, in the order the stages ran.
  package struct StageNote: Sendable, Equatable {
    package var stage: String
    package var outcome: String

    package init(stage: String, outcome: String) {
      self.stage = stage
      self.outcome = outcome
    }
  }

  package var summary: StoreSummary
  /// The store as the user named it.
  package var storePath: String
  /// The sample folder the run read.
  package var dataPath: String
  package var stages: [StageNote]

  package init(summary: StoreSummary, storePath: String, dataPath: String, stages: [StageNote]) {
    self.summary = summary
    self.storePath = storePath
    self.dataPath = dataPath
    self.stages = stages
  }

  /// The Markdown text. Deterministic: the same store and notes give the same bytes.
  package func markdown() -> String {
    var text = "# Resonance report\n\n"
    text += "Written by `resonance demo` from the data in `\(dataPath)`, "
    text += "through the store `\(storePath)` (schema version \(summary.schemaVersion)).\n\n"

    text += "## Pipeline\n\n"
    text += Markdown.table(
      header: ["stage", "what happened"], rows: stages.map { [$0.stage, $0.outcome] })

    text += "\n## What the store holds\n\n"
    if summary.imports.isEmpty {
      text += "Nothing has been imported, so there are no figures to report yet.\n"
      return text
    }
    let health = summary.health
    let listening = summary.listening
    text += Markdown.table(
      header: ["data", "count", "from (UTC)", "to (UTC)"],
      rows: [
        [
          "Health records", Format.grouped(health.records.values.reduce(0, +)),
          health.first?.iso8601UTC ?? "–", health.last?.iso8601UTC ?? "–",
        ],
        ["heartbeats", Format.grouped(health.heartbeats), "", ""],
        ["workouts", Format.grouped(health.workouts), "", ""],
        [
          "plays", Format.grouped(listening.plays), listening.first?.iso8601UTC ?? "–",
          listening.last?.iso8601UTC ?? "–",
        ],
        ["skipped plays", Format.grouped(listening.skips), "", ""],
        ["songs", Format.grouped(listening.songs), "", ""],
        ["trace recordings", Format.grouped(summary.traces.recordings), "", ""],
        ["trace samples", Format.grouped(summary.traces.samples), "", ""],
      ],
      alignments: ["l", "r", "l", "l"])

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
      },
      alignments: ["l", "l", "l", "r", "r", "l"])
    return text
  }
}
