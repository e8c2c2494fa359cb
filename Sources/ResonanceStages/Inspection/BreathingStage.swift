import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance breathing`: breathing-pacer recordings analysed, as files or from the store.
package struct BreathingStage: Stage {
  package let request: BreathingRequest

  package init(_ request: BreathingRequest) { self.request = request }

  /// Analyses every recording; a file that cannot be read is reported (`StageProgress`, and
  /// the result's failures) and the others go on. Sessions from the store have their results
  /// saved beside them.
  ///
  /// - Throws: `StageError.missingInput` for a missing store or session; `StoreError`.
  package func run(progress: any StageProgress) throws -> BreathingReportResult {
    var sessions: [BreathingSessionResult] = []
    var failures: [StageFailure] = []
    switch request.input {
    case .store(let location, let session):
      sessions = try analyseStored(location, session: session)
    case .files(let paths):
      for path in paths {
        do {
          sessions.append(try Self.analyse(path, progress: progress))
        } catch {
          failures.append(
            StageFailure(file: path, message: "\(error)", kind: StageError.Kind.of(error)))
          progress.notice(StageNotice(.error, "\(error)"))
        }
      }
    }
    for s in sessions {
      for note in s.result.notes { progress.say("note: \(s.file): \(note)") }
    }
    return BreathingReportResult(
      sessions: sessions, months: BreathingSummary.byMonth(sessions),
      patterns: BreathingSummary.byPattern(sessions), failures: failures)
  }

  /// One recording file, plain or gzip, analysed; its first warnings go to `progress`.
  static func analyse(_ path: String, progress: any StageProgress) throws
    -> BreathingSessionResult
  {
    let file = PeekableSource(wrapping: try InputFile.open(path: path))
    let content: any ByteSource =
      GzipSource.hasMagic(try file.peek(upTo: 2)) ? try GzipSource(wrapping: file) : file
    var lines = LineReader(content, maximumLength: TraceReader.maximumLineLength)
    let (recording, diagnostics) = try BreathingRecordingReader.read(path: path, lines: &lines)
    for diagnostic in diagnostics.prefix(10) { progress.say(diagnostic.description) }
    return BreathingSummary.analyse(recording, file: path)
  }

  /// The store's sessions (or the one asked for), analysed, their results saved.
  private func analyseStored(_ location: StoreLocation, session: Int?) throws
    -> [BreathingSessionResult]
  {
    let store = try location.existing(for: "breathing")
    let stored = try store.breathingRecordings(session: session)
    if stored.isEmpty {
      throw StageError(
        .missingInput,
        session.map { "\(location.path): no breathing session \($0)" }
          ?? "\(location.path): no breathing sessions imported (resonance ingest adds them)")
    }
    return try Self.analyseAndSave(stored, in: store)
  }

  /// Stored sessions analysed, each one's results saved beside it (`breathing_results`): what
  /// `resonance breathing` over the store and the demo both do.
  static func analyseAndSave(_ stored: [StoredBreathingSession], in store: Store) throws
    -> [BreathingSessionResult]
  {
    let sessions = stored.map { BreathingSummary.analyse($0.recording, file: $0.file) }
    try store.saveBreathingResults(
      Dictionary(uniqueKeysWithValues: zip(stored.map(\.id), sessions.map(\.result))),
      now: Clock.nowMilliseconds())
    return sessions
  }
}

extension BreathingReportResult: ConsolePresentable {
  package var text: String { BreathingReport.table(sessions, months: months, patterns: patterns) }
  package var json: String {
    BreathingReport.json(sessions, months: months, patterns: patterns).text
  }
}
