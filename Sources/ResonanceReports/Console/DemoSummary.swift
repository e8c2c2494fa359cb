import ResonanceModel

/// What `resonance demo` says of each stage, on the terminal and in `Reports/index.md`.
package enum DemoSummary {
  /// What the ingest stage put in the store, in one sentence, and the files no reader knew.
  package static func ingest(_ summary: StoreSummary, skipped: [String]) -> String {
    let count = Format.grouped(_:) as (Int) -> String
    var read: [String] = []
    let health = summary.health
    if !health.records.isEmpty {
      read.append(
        "\(count(health.records.values.reduce(0, +))) Health records, \(count(health.heartbeats)) beats, \(count(health.workouts)) workouts"
      )
    }
    let listening = summary.listening
    if listening.songs > 0 {
      let sources = Set(summary.imports.map(\.importer)).filter {
        ImportFormat.isListening(importer: $0) || $0 == RecordingFormat.decisionLog.rawValue
      }
      read.append(
        "\(count(listening.plays)) plays (\(count(listening.skips)) skipped) of \(count(listening.songs)) songs from \(sources.count) kinds of listening file, \(count(listening.resolved)) plays resolved to an artist and genre"
      )
    }
    if summary.traces.recordings > 0 {
      read.append(
        "\(summary.traces.recordings) app recordings (decision log, Watch and Mac traces, mood, breathing), \(count(summary.traces.samples)) samples"
      )
    }
    var outcome = read.isEmpty ? "no file this build can read" : read.joined(separator: "; ")
    if !skipped.isEmpty { outcome += "; not read: " + skipped.joined(separator: ", ") }
    return outcome
  }

  /// The breathing sessions analysed, and the patterns compared.
  package static func breathing(
    _ sessions: [BreathingSessionResult], _ patterns: [BreathingGroup]
  ) -> String {
    "\(sessions.count) sessions analysed"
      + "; by pattern, mean Resonance Score, rate and phase locking: "
      + BreathingReport.patternsLine(patterns)
  }

  /// The run as `--json` gives it: each stage's outcome, the store, the files written.
  package static func json(
    stages: [StageOutcome], store: String, written: [String], exitStatus: Int
  ) -> JSONValue {
    [
      "format_version": 1, "store": .string(store),
      "stages": .array(
        stages.map { ["stage": .string($0.stage), "outcome": .string($0.outcome)] }),
      "written": .array(written.map { .string($0) }), "exit_status": .integer(exitStatus),
    ]
  }

  /// The sweep stage in a line.
  package static func sweep(_ sweep: SweepResult, run: Int64, csv: String) -> String {
    let inForce = sweep.points.first
    return
      "design \(sweep.design) over "
      + "\(Format.grouped(sweep.decisions)) decisions, \(sweep.estimator.rawValue) estimates of "
      + "\(sweep.reward.rawValue) (in force \(Format.optional(inForce?.value, 3))); "
      + "\(sweep.points.filter(\.isPareto).count) on the Pareto front; run \(run), \(csv)"
  }

  /// The tuning stage in a line.
  package static func tune(_ report: TuningReport, file: String) -> String {
    "\(report.recommendation.rawValue) (\(report.reason)); \(file)"
  }
}
