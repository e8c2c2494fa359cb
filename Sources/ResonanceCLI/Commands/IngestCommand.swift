import ResonanceModel
import ResonanceStages

/// `resonance ingest`: reads export files into the store, each file its own transaction.
struct IngestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "ingest",
    abstract:
      "Read export files into the store: \(ImportFormats.services) and the apps' recordings.",
    discussion: """
      Each file is recognised by its content, not its name (--as forces a kind), read once \
      from start to end, and written in one transaction: a file that fails leaves the store \
      exactly as it was (not even a ledger row), and the command goes on with the next, \
      exiting with the most severe code it met. A file already imported (the same SHA-256) \
      changes nothing, and a file on disk imported whole before is hashed and passed over \
      unread; an export that overlaps an earlier one adds only what is new. A folder \
      is read file by file (an unpacked Health export folder as one export); files no reader \
      knows are named and skipped, and a path in which nothing is recognised is an error. - is \
      standard input, so a pipe or <(zcat …) works. The store is created when the first input \
      is recognised: inputs that are all missing, unreadable or unknown create none.

      Apple Health: export.zip is read in place (never unpacked to disk). iOS 16's broken DTD \
      and stray vertical tabs are tolerated with a warning. Parts not imported (ECG files, \
      clinical records, route GPS points) are named in the summary.

      Listening: \(ImportFormats.listeningFiles). Apple_Media_Services.zip and \
      my_spotify_data.zip are read in place, zips inside zips too (four deep at most), each \
      member its own ledger row (ZIP!MEMBER). One song is one song across sources; one listen \
      reported by several sources is one play (docs/formats.md gives every rule). Spotify and \
      Last.fm record no UTC offset: a play takes the offset the Health data shows at that \
      moment, else --time-zone, else TZ, else UTC.

      The Resonance apps' recordings (the DJ's decision log, Watch and Mac traces, mood inputs, \
      breathing sessions; JSON Lines, plain or gzip) are recognised by their header line.

      An input no reader recognises is abandoned after its first MiB: a large file that is not \
      an export costs neither time nor memory. The summary counts the plays each kind of file \
      reported and the plays the store holds once reports of one listen are merged (what \
      resonance status counts).
      """,
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

  @Argument(name: "PATH", help: "Files or folders to read; - for standard input.")
  var paths: [String]

  @OptionGroup var store: IngestStoreOptions

  @Option(
    name: "as", placeholder: "KIND",
    help:
      "Read every PATH as this kind instead of recognising it (archives are still opened): "
      + ImportFormats.all.map(\.name).joined(separator: ", ") + ".",
    parser: .oneOf(ImportFormats.all, named: \.name))
  var forced: ImportFormat?

  @Option(
    name: "time-zone", placeholder: "ZONE",
    help:
      "UTC offset (+02:00) or zone name (Europe/Paris) for plays whose source records none and whose moment the Health data does not cover. Default: $TZ, else UTC.",
    parser: ValueParser(expected: "an offset like +02:00 or a zone name like Europe/Paris") {
      TimeZoneFallback.parse($0)
    })
  var zone: TimeZoneFallback?

  @Flag(
    name: "keep-partial",
    help:
      "When a Health export breaks part-way, keep what parsed before the break (ledger status 'partial'); it still exits 65."
  )
  var keepsPartial: Bool

  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode {
    // The TZ variable's zone when it names one; a value it cannot read is ignored.
    let zone =
      self.zone ?? context.environment["TZ"].flatMap(TimeZoneFallback.parse(environment:))
      ?? .none
    let request = IngestRequest(
      paths: paths, store: try store.location(context.environment), forced: forced, zone: zone,
      keepsPartial: keepsPartial)
    let result = try IngestStage(request).run(progress: context.progress(output)) { event in
      if output.isText { context.console.out(event.text) }
    }
    if let line = result.passedOverLine, !output.isQuiet { context.report(line) }
    context.show(result, output)
    return result.worstFailure.map(ExitCode.init) ?? .ok
  }
}
