import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// `resonance breathing`: analyses breathing-pacer recordings given as files.
struct BreathingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "breathing",
    abstract:
      "Analyse breathing-pacer recordings: Resonance Score, rate, phase locking, coherence.",
    discussion: """
      For each recording (resonance.breathing JSON Lines, docs/formats.md) — the files given, \
      or without files the sessions `resonance ingest` put in the store: the app's \
      Resonance Score exactly as the app computes it, the breathing rate measured from the \
      chest waveform and its variability, phase locking to the pacer and the lag, the share of \
      the session the live nudge would have said "In sync", heart-rhythm coherence with its peak \
      frequency, RSA amplitude, HRV before and after, and the dominant expression. Then a \
      comparison across the three patterns. docs/breathing.md gives every formula; a metric \
      that cannot be computed is null, and the notes say why.
      """,
    arguments: [
      ArgumentDefinition(
        "FILE", help: "Recording files; without any, the sessions in the store.", required: false,
        variadic: true)
    ],
    options: [
      CommonOptions.db,
      OptionDefinition(
        "session", .value(placeholder: "ID"), help: "Only the store's session with this number."),
      CommonOptions.json,
    ],
    examples: [
      Example(
        "resonance breathing Datasets/sample/resonance/breathing/*.jsonl",
        "Analyse the sample's sessions, one row each, then compare the patterns."),
      Example(
        "resonance breathing --session 4", "Analyse session 4 as imported into ./resonance.sqlite."),
    ])

  var paths: [String]
  var storePath: String
  var session: Int?
  var isJSON: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    paths = parsed.positionals
    storePath = CommonOptions.storePath(parsed, environment)
    session = try parsed.integer("session", in: 0...Int(Int32.max))
    isJSON = parsed.flag("json")
  }

  func validate() throws(UsageError) {
    if session != nil && !paths.isEmpty {
      throw UsageError(
        "'--session' picks from the store; give it without files",
        hint: "resonance breathing --session ID")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    var worst = ExitCode.ok
    var rows: [(file: String, recording: BreathingRecording, analysis: BreathingAnalysis)] = []
    if paths.isEmpty {
      let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
      let recordings = try store.breathingRecordings(session: session)
      if recordings.isEmpty {
        throw CommandError(
          .noInput,
          session.map { "\(storePath): no breathing session \($0)" }
            ?? "\(storePath): no breathing sessions imported (resonance ingest adds them)")
      }
      let now = Clock.nowMilliseconds()
      try store.connection.transaction {
        for (id, file, recording) in recordings {
          let analysis = BreathingAnalysis(recording)
          for note in analysis.notes { context.report("note: \(file): \(note)") }
          try store.saveBreathingResult(analysis.result, forSessionRow: id, now: now)
          rows.append((file, recording, analysis))
        }
      }
    }
    for path in paths {
      do {
        var data = Data()
        try InputFile(path: path).forEachChunk { data.append(contentsOf: $0) }
        let (recording, diagnostics) = try BreathingRecordingReader.read(path: path, data: data)
        for diagnostic in diagnostics.prefix(10) { context.report(diagnostic.description) }
        let analysis = BreathingAnalysis(recording)
        for note in analysis.notes { context.report("note: \(path): \(note)") }
        rows.append((path, recording, analysis))
      } catch {
        worst = max(worst, Resonance.fail(error, context: context))
      }
    }
    if isJSON {
      let sessions = rows.map { BreathingCommand.json($0.file, $0.recording, $0.analysis) }
      let data = try JSONSerialization.data(
        withJSONObject: [
          "sessions": sessions,
          "patterns": BreathingCommand.comparison(rows.map { ($0.recording, $0.analysis) }),
          "months": BreathingCommand.overTime(rows.map { ($0.recording, $0.analysis) }),
        ],
        options: [.prettyPrinted, .sortedKeys])
      context.console.out(String(decoding: data, as: UTF8.self) + "\n")
    } else {
      context.console.out(BreathingCommand.table(rows.map { ($0.recording, $0.analysis) }))
    }
    return worst
  }

  static func number(_ x: Double?, _ places: Int) -> String {
    x.map { ProgressReporter.fixed($0, places) } ?? "–"
  }

  static func table(_ rows: [(BreathingRecording, BreathingAnalysis)]) -> String {
    var out =
      "session  pattern  score  rate/min (pacer)  PLV   lag s  in sync  coherence (Hz)  RSA   HRV before→after  expression\n"
    for (r, a) in rows {
      out +=
        [
          "\(r.session)".padding(toLength: 8, withPad: " ", startingAt: 0),
          r.pattern.padding(toLength: 8, withPad: " ", startingAt: 0),
          number(a.score.score, 0).padding(toLength: 6, withPad: " ", startingAt: 0),
          "\(number(a.breathsPerMinute, 1)) (\(number(a.pacerBreathsPerMinute, 1)))".padding(
            toLength: 17, withPad: " ", startingAt: 0),
          number(a.phaseLocking, 2).padding(toLength: 5, withPad: " ", startingAt: 0),
          number(a.lagSeconds, 1).padding(toLength: 6, withPad: " ", startingAt: 0),
          (a.inSyncShare.map { ProgressReporter.fixed($0 * 100, 0) + "%" } ?? "–").padding(
            toLength: 8, withPad: " ", startingAt: 0),
          "\(number(a.coherence, 2)) (\(number(a.coherencePeakHz, 3)))".padding(
            toLength: 15, withPad: " ", startingAt: 0),
          number(a.rsaAmplitude, 1).padding(toLength: 5, withPad: " ", startingAt: 0),
          "\(number(a.hrvBefore, 1))→\(number(a.hrvAfter, 1))".padding(
            toLength: 17, withPad: " ", startingAt: 0),
          a.dominantExpression ?? "–",
        ].joined(separator: " ") + "\n"
    }
    let months = overTime(rows)
    if !months.isEmpty {
      out += "\nmonth    sessions  mean score  mean PLV\n"
      for month in months {
        out +=
          "\(month["month"] as? String ?? "")".padding(toLength: 9, withPad: " ", startingAt: 0)
          + "\(month["sessions"] as? Int ?? 0)".padding(toLength: 10, withPad: " ", startingAt: 0)
          + number(month["mean_score"] as? Double, 1).padding(
            toLength: 12, withPad: " ", startingAt: 0)
          + number(month["mean_plv"] as? Double, 2) + "\n"
      }
    }
    out += "\npattern  sessions  mean score  mean rate/min  mean PLV\n"
    for group in comparison(rows) {
      out +=
        "\(group["pattern"] as? String ?? "")".padding(toLength: 9, withPad: " ", startingAt: 0)
        + "\(group["sessions"] as? Int ?? 0)".padding(toLength: 10, withPad: " ", startingAt: 0)
        + number(group["mean_score"] as? Double, 1).padding(
          toLength: 12, withPad: " ", startingAt: 0)
        + number(group["mean_rate"] as? Double, 1).padding(
          toLength: 15, withPad: " ", startingAt: 0)
        + number(group["mean_plv"] as? Double, 2) + "\n"
    }
    return out
  }

  /// The mean of the values present, or JSON null when there are none.
  static func mean(_ values: [Double?]) -> Any {
    let present = values.compactMap { $0 }
    return present.isEmpty ? NSNull() : present.reduce(0, +) / Double(present.count)
  }

  /// Per local month of the sessions' starts: sessions, mean score and mean phase locking.
  static func overTime(_ rows: [(BreathingRecording, BreathingAnalysis)]) -> [[String: Any]] {
    var groups: [String: [BreathingAnalysis]] = [:]
    for (recording, analysis) in rows {
      guard let started = recording.started else { continue }
      let local = started.millisecondsSinceEpoch + Int64(started.utcOffsetSeconds) * 1000
      let month = String(Timestamp.iso8601UTC(millisecondsSinceEpoch: local).prefix(7))
      groups[month, default: []].append(analysis)
    }
    return groups.keys.sorted().map { month in
      let group = groups[month] ?? []
      return [
        "month": month, "sessions": group.count, "mean_score": mean(group.map(\.score.score)),
        "mean_plv": mean(group.map(\.phaseLocking)),
      ]
    }
  }

  /// Per pattern: sessions, and the means of score, rate and phase locking over the sessions
  /// that have them.
  static func comparison(_ rows: [(BreathingRecording, BreathingAnalysis)]) -> [[String: Any]] {
    let patterns = Array(Set(rows.map(\.0.pattern))).sorted()
    return patterns.map { pattern in
      let group = rows.filter { $0.0.pattern == pattern }.map(\.1)
      return [
        "pattern": pattern, "sessions": group.count, "mean_score": mean(group.map(\.score.score)),
        "mean_rate": mean(group.map(\.breathsPerMinute)),
        "mean_plv": mean(group.map(\.phaseLocking)),
      ]
    }
  }

  static func json(_ file: String, _ r: BreathingRecording, _ a: BreathingAnalysis) -> [String: Any]
  {
    func value(_ x: Double?) -> Any { x ?? NSNull() }
    return [
      "file": file, "session": r.session, "pattern": r.pattern,
      "started": r.started?.iso8601UTC ?? NSNull(),
      "resonance_score": value(a.score.score), "events": a.score.events.count,
      "matched": a.score.matched,
      "breaths": a.breaths, "breaths_per_minute": value(a.breathsPerMinute),
      "rate_variability": value(a.rateVariability),
      "pacer_breaths_per_minute": value(a.pacerBreathsPerMinute),
      "phase_locking": value(a.phaseLocking), "lag_seconds": value(a.lagSeconds),
      "in_sync_share": value(a.inSyncShare), "coherence": value(a.coherence),
      "coherence_peak_hz": value(a.coherencePeakHz), "rsa_amplitude": value(a.rsaAmplitude),
      "hrv_before": value(a.hrvBefore), "hrv_after": value(a.hrvAfter),
      "dominant_expression": a.dominantExpression ?? NSNull(), "notes": a.notes,
    ]
  }
}
