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
      "Read export files into the store: Apple Health, Apple Music, Music.app, Spotify, Last.fm and the apps' recordings.",
    discussion: """
      Each file is recognised by its content, not its name (--as forces a kind), and read in \
      one transaction: a file that fails leaves the store exactly as it was (not even a ledger \
      row), and the command goes on with the next, exiting with the most severe code it met. \
      A file already imported (the same SHA-256) changes nothing; an export that overlaps an \
      earlier one adds only what is new. A folder is read file by file (an unpacked Health \
      export folder as one export); files no reader knows are named and skipped.

      Apple Health: export.zip is read in place (never unpacked to disk); its XML is the \
      largest .xml that is not export_cda.xml, whatever its localised name. iOS 16's broken DTD \
      and stray vertical tabs are tolerated with a warning. Parts not imported (ECG files, \
      clinical records, route GPS points) are named in the summary.

      Listening: Apple Music Play Activity, Play History Daily Tracks, Track Play History and \
      Library Tracks; Music.app Library.xml; Spotify Extended Streaming History and account \
      StreamingHistory*.json; Last.fm scrobble CSV. Apple_Media_Services.zip and \
      my_spotify_data.zip are read in place, zips inside zips too, each member its own ledger \
      row (ZIP!MEMBER). One song is one song across sources; one listen reported by several \
      sources is one play (docs/formats.md gives every rule). Spotify and Last.fm record no \
      UTC offset: a play takes the offset the Health data shows at that moment, else \
      --time-zone, else TZ, else UTC.

      The Resonance apps' recordings (the DJ's decision log, Watch and Mac traces, mood inputs, \
      breathing sessions; JSON Lines, plain or .gz) are recognised by their header line.
      """,
    arguments: [ArgumentDefinition("PATH", help: "Files or folders to read.", variadic: true)],
    options: [
      CommonOptions.db,
      OptionDefinition(
        "as", .value(placeholder: "KIND"),
        help:
          "Read every PATH as this kind instead of recognising it: apple-health, \(ListeningFileKind.allCases.map(\.rawValue).joined(separator: ", "))."
      ),
      OptionDefinition(
        "time-zone", .value(placeholder: "ZONE"),
        help:
          "UTC offset (+02:00) or zone name (Europe/Paris) for plays whose source records none and whose moment the Health data does not cover. Default: $TZ, else UTC."
      ),
      OptionDefinition(
        "keep-partial", .flag,
        help:
          "When a Health export breaks part-way, keep what parsed before the break (ledger status 'partial'); it still exits 65."
      ),
      CommonOptions.json,
      CommonOptions.quiet,
    ],
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
    ])

  /// The kinds `--as` accepts.
  static let kinds = ["apple-health"] + ListeningFileKind.allCases.map(\.rawValue)

  var paths: [String]
  var storePath: String
  var forcedKind: String?
  var zoneText: String?
  /// The `TZ` variable's zone when it names one; a value it cannot read is ignored, not an error.
  var environmentZone: ListeningImport.ZoneFallback?
  var keepPartial: Bool
  var isJSON: Bool
  var isQuiet: Bool

  init(parsed: ParsedArguments, environment: [String: String]) {
    paths = parsed.positionals
    storePath = CommonOptions.storePath(parsed, environment)
    forcedKind = parsed.value("as")
    zoneText = parsed.value("time-zone")
    environmentZone = environment["TZ"].flatMap(ListeningImport.ZoneFallback.parse(environment:))
    keepPartial = parsed.flag("keep-partial")
    isJSON = parsed.flag("json")
    isQuiet = parsed.flag("quiet")
  }

  func validate() throws(UsageError) {
    if let kind = forcedKind, !Self.kinds.contains(kind) {
      throw UsageError(
        "--as: unknown kind '\(kind)'",
        hint: Spelling.nearest(to: kind, among: Self.kinds).map { "did you mean '\($0)'?" }
          ?? "one of: \(Self.kinds.joined(separator: ", "))")
    }
    if let zoneText, ListeningImport.ZoneFallback.parse(zoneText) == nil {
      throw UsageError(
        "--time-zone: expected an offset like +02:00 or a zone name like Europe/Paris, found '\(zoneText)'"
      )
    }
  }

  /// What one run met, across files: results for --json, the worst exit code, skipped names.
  func run(in context: CommandContext) throws -> ExitCode {
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    let ingestor = Ingestor(
      store: store, context: context,
      zone: zoneText.flatMap { ListeningImport.ZoneFallback.parse($0) } ?? environmentZone ?? .none,
      forcedKind: forcedKind, keepPartial: keepPartial, isQuiet: isQuiet)
    for path in paths { ingestor.ingest(path) }
    ingestor.reportSkipped()
    if isJSON { context.console.out(Ingestor.json(ingestor.json) + "\n") }
    return ingestor.worst
  }
}
