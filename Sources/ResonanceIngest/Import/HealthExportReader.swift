import ResonanceIO
import ResonanceModel
import Synchronization

/// Reads an Apple Health export's XML through libxml2's push parser, sending its records in
/// batches as they are parsed. iOS 16's broken DTD and stray vertical tabs are repaired on the
/// way, each with a warning.
struct HealthExportReader: ExportReader {
  func read(_ source: any ByteSource, into sink: any ImportSink) throws -> ReadSummary {
    let file = source.name
    let stopped = Atomic<Bool>(false)
    let reader = AppleHealthReader(
      file: file,
      exchange: { batch in
        if !sink.send(.health(batch)) { stopped.store(true, ordering: .relaxed) }
        return sink.reusableHealthBatch()
      })
    let parser = XMLPushParser(
      handler: reader, repairs: .init(stripsInternalSubset: true, replacesVerticalTabs: true))
    struct Stop: Error {}
    var failure: IngestError?
    do {
      try source.forEachChunk { chunk in
        if stopped.load(ordering: .relaxed) { throw Stop() }
        try parser.feed(chunk)
      }
      try parser.finish()
    } catch let error as XMLParseError {
      failure = IngestError(
        .malformed, at: SourceLocation(file: file, line: error.line, column: error.column),
        "malformed XML: \(error.message)")
    } catch is Stop {
      failure = nil
    }
    reader.flush()
    let report = parser.report
    if report.internalSubsetWasMalformed {
      reader.note(
        Diagnostic(
          .warning,
          "the export's DTD is malformed (as iOS 16 wrote it); it was skipped, and nothing depends on it",
          at: SourceLocation(file: file, line: 2)))
    }
    if report.verticalTabs > 0 {
      reader.note(
        Diagnostic(
          .warning, "\(report.verticalTabs) stray vertical-tab characters (0x0B) read as spaces",
          at: SourceLocation(file: file, line: report.firstVerticalTabLine)))
    }
    var summary = ReadSummary()
    summary.rows = reader.counts.records
    summary.diagnostics = reader.diagnostics
    summary.warnings = reader.warningCount
    summary.notImported = reader.counts.notImported
    summary.metadataDropped = reader.counts.metadataDropped
    if let failure { throw BrokenFile(error: failure, summary: summary) }
    return summary
  }
}
