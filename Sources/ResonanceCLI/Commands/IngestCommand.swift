import Foundation
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance ingest`: reads export files into the store, each file its own transaction.
struct IngestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "ingest",
    abstract:
      "Read export files into the store: Apple Health, Apple Music, Music.app, Spotify, Last.fm and the apps' recordings.",
    discussion: """
      Each file is recognised by its content, not its name (--as forces a kind), read once \
      from start to end, and written in one transaction: a file that fails leaves the store \
      exactly as it was (not even a ledger row), and the command goes on with the next, \
      exiting with the most severe code it met. A file already imported (the same SHA-256) \
      changes nothing; an export that overlaps an earlier one adds only what is new. A folder \
      is read file by file (an unpacked Health export folder as one export); files no reader \
      knows are named and skipped, and a path in which nothing is recognised is an error. - is \
      standard input, so a pipe or <(zcat …) works.

      Apple Health: export.zip is read in place (never unpacked to disk). iOS 16's broken DTD \
      and stray vertical tabs are tolerated with a warning. Parts not imported (ECG files, \
      clinical records, route GPS points) are named in the summary.

      Listening: Apple Music Play Activity, Play History Daily Tracks, Track Play History and \
      Library Tracks; Music.app Library.xml; Spotify Extended Streaming History and account \
      StreamingHistory*.json; Last.fm scrobble CSV. Apple_Media_Services.zip and \
      my_spotify_data.zip are read in place, zips inside zips too (four deep at most), each \
      member its own ledger row (ZIP!MEMBER). One song is one song across sources; one listen \
      reported by several sources is one play (docs/formats.md gives every rule). Spotify and \
      Last.fm record no UTC offset: a play takes the offset the Health data shows at that \
      moment, else --time-zone, else TZ, else UTC.

      The Resonance apps' recordings (the DJ's decision log, Watch and Mac traces, mood inputs, \
      breathing sessions; JSON Lines, plain or gzip) are recognised by their header line.

      An input no reader recognises is abandoned after its first MiB: a large file that is not \
      an export costs neither time nor memory.
      """,
    arguments: [
      ArgumentDefinition(
        "PATH", help: "Files or folders to read; - for standard input.", variadic: true)
    ],
    options: [Option.db, Self.kind, Self.timeZone, Self.keepPartial] + OutputOptions.options,
    examples: [
      Example(
        "resonance ingest ~/Downloads/export.zip",
        "Import a Health export as the Health app delivers it."),
      Example(
        "resonance ingest ~/Downloads/Apple_Media_Services.zip ~/Downloads/my_spotify_data.zip",
        "Import Apple Music and Spotify histories as downloaded, zips inside zips and all."),
      Example(
        "resonance ingest Datasets/sample --db /tmp/sample.sqlite",
        "Import every file of a folder the tool knows into another store."),
      Example(
        "resonance ingest --as last-fm-scrobbles --time-zone Europe/Berlin scrobbles.csv",
        "Import a Last.fm CSV, placing plays the Health data does not cover in Berlin time."),
      Example(
        "zcat watch-2023-01.jsonl.gz | resonance ingest -", "Import what a pipe carries."),
    ])

  static let kind = Option(
    "as", placeholder: "KIND",
    help:
      "Read every PATH as this kind instead of recognising it (archives are still opened): "
      + ImportFormat.allCases.map(\.name).joined(separator: ", ") + ".",
    parser: .oneOf(ImportFormat.allCases, named: \.name))
  static let timeZone = Option(
    "time-zone", placeholder: "ZONE",
    help:
      "UTC offset (+02:00) or zone name (Europe/Paris) for plays whose source records none and whose moment the Health data does not cover. Default: $TZ, else UTC.",
    parser: ValueParser(expected: "an offset like +02:00 or a zone name like Europe/Paris") {
      TimeZoneFallback.parse($0)
    })
  static let keepPartial = Flag(
    "keep-partial",
    help:
      "When a Health export breaks part-way, keep what parsed before the break (ledger status 'partial'); it still exits 65."
  )

  var paths: [String]
  var store: StoreOptions
  var output: OutputOptions
  var forced: ImportFormat?
  var zone: TimeZoneFallback
  var keepsPartial: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    paths = parsed.positionals
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    forced = parsed[Self.kind]
    // The TZ variable's zone when it names one; a value it cannot read is ignored.
    zone =
      parsed[Self.timeZone] ?? environment["TZ"].flatMap(TimeZoneFallback.parse(environment:))
      ?? .none
    keepsPartial = parsed[Self.keepPartial]
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let started = Date()
    let pipeline = ImportPipeline(
      store: try store.open(), zone: zone, forced: forced, keepPartial: keepsPartial
    ) { file, total in
      ProgressReporter(
        label: "ingest \((file as NSString).lastPathComponent)", total: total, unit: .bytes,
        console: context.console, isEnabled: !output.isQuiet)
    }
    var run = IngestRun(output: output, context: context)
    for path in paths { run.ingest(path, with: pipeline) }
    run.finish(seconds: Date().timeIntervalSince(started))
    return run.worst
  }
}

/// What one `ingest` met across its paths, said as it happens: each file's summary on standard
/// output, warnings and errors on standard error; a total at the end, or the JSON.
struct IngestRun {
  let output: OutputOptions
  let context: CommandContext
  private(set) var worst = ExitCode.ok
  private var results: [ImportResult] = []
  private var skipped: [SkippedInput] = []
  private var failures: [(file: String?, error: any Error, status: ExitCode)] = []

  init(output: OutputOptions, context: CommandContext) {
    self.output = output
    self.context = context
  }

  /// The results so far, in the order the files were read.
  var imported: [ImportResult] { results }
  /// The inputs no reader knew, met in folders and archives.
  var passedOver: [SkippedInput] { skipped.filter { !$0.isExplicit } }

  /// Imports one path from the command line. A path in which nothing at all was recognised
  /// (an empty folder, a zip of unknown members) is an error, naming what was found.
  mutating func ingest(_ path: String, with pipeline: ImportPipeline) {
    let before = (results.count, failures.count, skipped.count)
    pipeline.run(path) { event in record(event, path: path) }
    if results.count == before.0, failures.count == before.1 {
      let met = skipped[before.2...].map(\.name)
      // Named here, so not again among the files skipped.
      for index in skipped.indices.dropFirst(before.2) { skipped[index].isExplicit = true }
      fail(
        path,
        IngestError(
          .unrecognized, at: SourceLocation(file: path),
          "nothing in it is an export the tool reads (Apple Health, Apple Music, Music.app, Spotify, Last.fm) or a Resonance recording"
            + (met.isEmpty ? "; it holds no files" : "; found: " + met.joined(separator: ", "))))
    }
  }

  private mutating func record(_ event: ImportPipeline.Event, path: String) {
    switch event {
    case .imported(let result):
      results.append(result)
      if !output.isQuiet {
        for line in IngestSummary.warnings(result) { context.report(line) }
      }
      if output.isText {
        for line in IngestSummary.lines(result) { context.console.out(line + "\n") }
      }
    case .failed(let file, let error):
      fail(file ?? path, error)
    case .skipped(let input):
      skipped.append(input)
      switch input.reason {
      case .unrecognised(let found) where input.isExplicit:
        fail(
          input.name,
          IngestError(
            .unrecognized, at: SourceLocation(file: input.name, line: 1, column: 1),
            "expected an export the tool reads (Apple Health, Apple Music, Music.app, Spotify, Last.fm) or a Resonance recording, found '\(found)'"
          ))
      case .tooDeep(let limit):
        if !output.isQuiet {
          context.report(
            "warning: \(input.name): a zip inside zips \(limit) deep, not read (the walk stops at \(limit) levels)"
          )
        }
      case .unrecognised: break
      }
    case .notImported(let file, let parts):
      if let index = results.lastIndex(where: { $0.file == file }) {
        results[index].notImported.merge(parts, uniquingKeysWith: +)
      }
      if output.isText { context.console.out(IngestSummary.notImportedLine(parts) + "\n") }
    }
  }

  private mutating func fail(_ file: String?, _ error: any Error) {
    let status = Resonance.fail(error, context: context)
    worst = max(worst, status)
    failures.append((file, error, status))
  }

  /// The files no reader knew, and the total (or the JSON document).
  func finish(seconds: Double) {
    let unknown = passedOver.filter {
      if case .unrecognised = $0.reason { true } else { false }
    }
    if !unknown.isEmpty, !output.isQuiet {
      context.report(
        "ingest: skipped (no reader knows them): " + unknown.map(\.name).joined(separator: ", "))
    }
    if output.isJSON {
      context.console.out(
        IngestSummary.json(
          results, skipped: passedOver,
          failures: failures.map { ($0.file, "\($0.error)", Int($0.status.code)) },
          exitStatus: Int(worst.code), seconds: seconds
        ).text)
    } else if output.isText {
      context.console.out(
        IngestSummary.total(results, failed: failures.count, seconds: seconds) + "\n")
    }
  }
}
