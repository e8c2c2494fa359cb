import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance breathing`: analyses breathing-pacer recordings, as files or from the store.
struct BreathingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "breathing",
    abstract:
      "Analyse breathing-pacer recordings: Resonance Score, rate, phase locking, coherence.",
    discussion: """
      For each recording (resonance.breathing JSON Lines, plain or gzip, docs/formats.md) — the \
      files given, \
      or without files the sessions `resonance ingest` put in the store: the app's \
      Resonance Score exactly as the app computes it, the breathing rate measured from the \
      chest waveform and its variability, phase locking to the pacer and the lag, the share of \
      the session the live nudge would have said "In sync", heart-rhythm coherence with its peak \
      frequency, RSA amplitude, HRV before and after, and the dominant expression. Then a \
      comparison by month and across the three patterns. docs/breathing.md gives every \
      formula; a metric that cannot be computed is null, and the notes say why. Sessions from \
      the store have their results saved beside them (breathing_results).
      """,
    arguments: [
      ArgumentDefinition(
        "FILE", help: "Recording files; without any, the sessions in the store.", required: false,
        variadic: true)
    ],
    options: [Option.existingDB, Self.session] + OutputOptions.options,
    examples: [
      Example(
        "resonance breathing Datasets/sample/resonance/breathing/*.jsonl.gz",
        "Analyse the sample's sessions, one row each, then compare the patterns."),
      Example(
        "resonance breathing --session 4", "Analyse session 4 as imported into ./resonance.sqlite."),
    ])

  static let session = Option(
    "session", placeholder: "ID", help: "Only the store's session with this number.",
    parser: .integer(in: 0...Int(Int32.max)))

  var paths: [String]
  var store: StoreOptions
  var output: OutputOptions
  var session: Int?

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    paths = parsed.positionals
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    session = parsed[Self.session]
  }

  func validate() throws(UsageError) {
    if session != nil && !paths.isEmpty {
      throw UsageError(
        "'\(Self.session.spelling)' picks from the store; give it without files",
        hint: "resonance breathing --session ID")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    var worst = ExitCode.ok
    var sessions: [BreathingSessionResult] = []
    if paths.isEmpty {
      sessions = try analyseStored()
    }
    for path in paths {
      do {
        let file = PeekableSource(wrapping: try InputFile.open(path: path))
        let content: any ByteSource =
          GzipSource.hasMagic(try file.peek(upTo: 2)) ? try GzipSource(wrapping: file) : file
        var lines = LineReader(content, maximumLength: TraceReader.maximumLineLength)
        let (recording, diagnostics) = try BreathingRecordingReader.read(
          path: path, lines: &lines)
        if !output.isQuiet {
          for diagnostic in diagnostics.prefix(10) { context.report(diagnostic.description) }
        }
        sessions.append(BreathingSummary.analyse(recording, file: path))
      } catch {
        worst = max(worst, Resonance.fail(error, context: context))
      }
    }
    if !output.isQuiet {
      for s in sessions {
        for note in s.result.notes { context.report("note: \(s.file): \(note)") }
      }
    }
    let months = BreathingSummary.byMonth(sessions)
    let patterns = BreathingSummary.byPattern(sessions)
    if output.isJSON {
      context.console.out(
        BreathingReport.json(sessions, months: months, patterns: patterns).text)
    } else if !output.isQuiet {
      context.console.out(BreathingReport.table(sessions, months: months, patterns: patterns))
    }
    return worst
  }

  /// The store's sessions (or the one asked for), analysed, their results saved.
  private func analyseStored() throws -> [BreathingSessionResult] {
    let opened = try store.openExisting(for: "breathing")
    let stored = try opened.breathingRecordings(session: session)
    if stored.isEmpty {
      throw CommandError(
        .noInput,
        session.map { "\(store.path): no breathing session \($0)" }
          ?? "\(store.path): no breathing sessions imported (resonance ingest adds them)")
    }
    let sessions = stored.map { BreathingSummary.analyse($0.recording, file: $0.file) }
    try opened.saveBreathingResults(
      Dictionary(uniqueKeysWithValues: zip(stored.map(\.id), sessions.map(\.result))),
      now: Clock.nowMilliseconds())
    return sessions
  }
}
