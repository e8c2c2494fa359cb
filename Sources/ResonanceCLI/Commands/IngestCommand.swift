import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// `resonance ingest`: reads export files into the store, each file its own transaction.
struct IngestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "ingest",
    abstract:
      "Read export files into the store: Apple Health export.zip, export.xml or its folder.",
    discussion: """
      Each file is recognised by its content and read in one transaction: a file that fails \
      leaves the store exactly as it was (not even a ledger row), and the command goes on with \
      the next, exiting with the most severe code it met. A file already imported (the same \
      SHA-256) changes nothing; an export that overlaps an earlier one adds only what is new.

      Apple Health: export.zip is read in place (never unpacked to disk); its XML is the \
      largest .xml that is not export_cda.xml, whatever its localised name. iOS 16's broken DTD \
      and stray vertical tabs are tolerated with a warning. Parts not imported (ECG files, \
      clinical records, route GPS points) are named in the summary.

      The Resonance apps' recordings (the DJ's decision log, Watch and Mac traces, mood inputs, \
      breathing sessions; JSON Lines, plain or .gz) are recognised by their header line.
      """,
    arguments: [ArgumentDefinition("PATH", help: "Files or folders to read.", variadic: true)],
    options: [
      CommonOptions.db,
      OptionDefinition(
        "keep-partial", .flag,
        help:
          "When a file breaks part-way, keep what parsed before the break (ledger status 'partial'); it still exits 65."
      ),
      CommonOptions.json,
      CommonOptions.quiet,
    ],
    examples: [
      Example(
        "resonance ingest ~/Downloads/export.zip",
        "Import a Health export as the Health app delivers it."),
      Example(
        "resonance ingest Datasets/sample/apple_health_export --db /tmp/sample.sqlite",
        "Import the unpacked export folder into another store."),
      Example(
        "resonance ingest Datasets/sample/resonance/*/*.jsonl",
        "Import the apps' recordings: decisions, Watch and Mac traces, mood, breathing."),
    ])

  var paths: [String]
  var storePath: String
  var keepPartial: Bool
  var isJSON: Bool
  var isQuiet: Bool

  init(parsed: ParsedArguments, environment: [String: String]) {
    paths = parsed.positionals
    storePath = CommonOptions.storePath(parsed, environment)
    keepPartial = parsed.flag("keep-partial")
    isJSON = parsed.flag("json")
    isQuiet = parsed.flag("quiet")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    var worst = ExitCode.ok
    var results: [HealthImportResult] = []
    for path in paths {
      do {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
          !isDirectory.boolValue,
          let trace = try TraceImport.recognize(path: path)
        {
          let result = try TraceImport.run(
            path: path, raw: trace.raw, text: trace.text, store: store)
          report(result, context: context)
          continue
        }
        let (location, parts) = try locate(path)
        let total: Int64? =
          switch location {
          case .file(let file): (try? InputFile(path: file))?.byteCount
          case .zipMember(_, _, let size): size
          }
        let progress = ProgressReporter(
          label: "ingest \((location.displayName as NSString).lastPathComponent)", total: total,
          unit: .bytes, console: context.console, isEnabled: !isQuiet)
        defer { progress.finish() }
        let result = try HealthImport.run(
          location, notImported: parts, store: store, keepPartial: keepPartial, progress: progress)
        progress.finish()
        report(result, context: context)
        results.append(result)
      } catch let partial as PartialImport {
        report(partial.result, context: context)
        results.append(partial.result)
        worst = max(worst, Resonance.fail(partial.error, context: context))
      } catch {
        worst = max(worst, Resonance.fail(error, context: context))
      }
    }
    if isJSON { context.console.out(json(results) + "\n") }
    return worst
  }

  /// Where the Health export XML is for a path given on the command line.
  private func locate(_ path: String) throws -> (HealthExportLocation, [String: Int]) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw IOError(.missing, path: path, reason: "no such file or directory")
    }
    if isDirectory.boolValue {
      guard let found = HealthExportLocator.locate(folder: path) else {
        throw IngestError(
          .unrecognized, at: SourceLocation(file: path),
          "expected a folder holding an Apple Health export (export.xml), found none")
      }
      return found
    }
    let file = try InputFile(path: path)
    var prefix = [UInt8](repeating: 0, count: 65_536)
    let n = try prefix.withUnsafeMutableBytes { (raw) throws(IOError) in try file.read(into: raw) }
    prefix.removeSubrange(n...)
    if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      guard let found = try HealthExportLocator.locate(zip: path) else {
        throw IngestError(
          .unrecognized, at: SourceLocation(file: path),
          "expected a zip holding an Apple Health export (an .xml other than export_cda.xml), found none"
        )
      }
      return found
    }
    guard HealthExportLocator.looksLikeHealthExport(prefix) else {
      let start = String(decoding: prefix.prefix(40), as: UTF8.self).replacingOccurrences(
        of: "\n", with: " ")
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
        "expected an Apple Health export (XML with a HealthData root), found '\(start)'")
    }
    return (.file(path: path), [:])
  }

  private func report(_ r: TraceImport.Result, context: CommandContext) {
    guard !isQuiet else { return }
    if let previous = r.previousImport {
      context.report(
        "ingest: \(r.file): already imported as \(previous.file) (same SHA-256); nothing changed")
      return
    }
    for diagnostic in r.diagnostics.prefix(20) { context.report(diagnostic.description) }
    context.report(
      "ingest: \(r.file): \(r.format), \(ProgressReporter.grouped(Int64(r.samples))) samples, \(r.diagnostics.count) warnings"
    )
  }

  private func report(_ r: HealthImportResult, context: CommandContext) {
    guard !isQuiet else { return }
    let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
    if let previous = r.previousImport {
      context.report(
        "ingest: \(r.file): already imported as \(previous.file) (same SHA-256); nothing changed")
      return
    }
    for diagnostic in r.diagnostics.prefix(20) { context.report(diagnostic.description) }
    if r.diagnostics.count > 20 { context.report("… and \(r.warnings - 20) more warnings") }
    let duplicates = r.recordsRead - r.recordsAdded
    let rate = r.seconds > 0 ? Double(r.bytes) / 1e6 / r.seconds : 0
    var line =
      "ingest: \(r.file): \(count(r.recordsAdded)) records"
      + (duplicates > 0 ? " (\(count(duplicates)) already stored)" : "")
      + ", \(count(r.beatsAdded)) beats, \(count(r.workoutsAdded)) workouts, \(count(r.warnings)) warnings"
      + (r.status == .partial ? ", PARTIAL" : "")
      + " in \(ProgressReporter.fixed(r.seconds, 1)) s (\(ProgressReporter.fixed(rate, 0)) MB/s)"
    if r.metadataDropped > 0 {
      line += "; \(count(r.metadataDropped)) identifying metadata entries dropped"
    }
    context.report(line)
    if !r.notImported.isEmpty {
      let parts = r.notImported.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
      context.report("ingest: not imported: " + parts.joined(separator: ", "))
    }
  }

  private func json(_ results: [HealthImportResult]) -> String {
    let objects: [[String: Any]] = results.map { r in
      [
        "file": r.file, "sha256": r.sha256, "bytes": r.bytes, "importer": HealthImport.importer,
        "status": r.previousImport == nil ? r.status.rawValue : "already-imported",
        "records_read": r.recordsRead, "records_added": r.recordsAdded, "beats_added": r.beatsAdded,
        "workouts_added": r.workoutsAdded, "warnings": r.warnings,
        "not_imported": r.notImported, "seconds": r.seconds,
      ]
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]))
      ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
