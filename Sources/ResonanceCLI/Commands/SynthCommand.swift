import Foundation
import ResonanceModel
import ResonanceReports
import ResonanceSynth

/// `resonance synth`: writes a simulated person's history in the real export formats.
struct SynthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "synth",
    abstract: "Write months of a simulated person's history in the real export formats.",
    discussion: """
      The laboratory for every later stage: a simulated person whose Apple Health export, \
      Apple Music and Spotify histories, Resonance DJ decision log, Watch and Mac traces, mood \
      inputs and breathing-pacer recordings come out as the real files do, quirks included, \
      with everything planted (song features and effects, preferences, adherence) written to \
      truth.json beside them.

      The same arguments always give byte-identical files: every default is fixed, and no \
      default depends on today's date. docs/formats.md describes each file.
      """,
    options: [
      Self.out, Self.months, Self.seed, Self.songs, Self.scale, Self.start, Self.zip,
      Self.compress, Self.preferences, Self.djPreferences, Self.effectScale,
    ] + OutputOptions.options,
    examples: [
      Example("resonance synth --out /tmp/person", "One month at the default density."),
      Example(
        "resonance synth --out Datasets/generated/year --months 12 --zip",
        "A realistic year, with the Health export zipped as the app writes it."),
      Example(
        "resonance synth --out /tmp/shipped --months 4 --scale 0.2 --songs 160 --compress",
        "Four months written as the files ship, zips and .jsonl.gz: under a tenth of the size."),
      Example(
        "resonance synth --out /tmp/null --months 6 --preferences app",
        "A null person for the tuning stage's null test."),
      Example(
        "resonance synth --out /tmp/tried --start 2023-06-01 --months 3 --dj-preferences Reports/preferences.json",
        "The same life as with the app's settings, the DJ running a tuned preference file."),
    ])

  static let out = Option(
    "out", placeholder: "DIR",
    help: "Folder to write into (created; files in it are replaced). Required.", required: true,
    parser: .nonEmpty)
  static let months = Option(
    "months", placeholder: "N", help: "Months of history, 1–120. Default: 1.",
    parser: .integer(in: 1...120))
  static let seed = Option(
    "seed", placeholder: "S", help: "Seed of the simulation. Default: 1.", parser: .natural)
  static let songs = Option(
    "songs", placeholder: "N", help: "Songs in the library, 50–20000. Default: 400.",
    parser: .integer(in: 50...20_000))
  static let scale = Option(
    "scale", placeholder: "F",
    help: "Multiplies the Watch's sampling density (export size), 0.05–50. Default: 1.",
    parser: .number(in: 0.05...50))
  static let start = Option(
    "start", placeholder: "DATE", help: "First day, YYYY-MM-DD (day 1–28). Default: 2022-06-01.",
    parser: ValueParser<SynthDate>(
      expected: "YYYY-MM-DD with a year from 1900 to 2100 and a day from 1 to 28"
    ) { text in
      let parts = text.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 3, (1900...2100).contains(parts[0]), (1...12).contains(parts[1]),
        (1...28).contains(parts[2])
      else { return nil }
      return SynthDate(year: parts[0], month: parts[1], day: parts[2])
    })
  static let zip = Flag(
    "zip", help: "Write export.zip as the Health app does, instead of apple_health_export/.")
  static let compress = Flag(
    "compress",
    help:
      "Write every file compressed as it ships: the Health export as export.zip (what --zip does), the Apple Media Services folder as Apple_Media_Services.zip, the Spotify folder as my_spotify_data.zip, and the apps' recordings as .jsonl.gz."
  )
  static let preferences = Option<SynthConfiguration.Preferences>(
    "preferences", placeholder: "app|own",
    help:
      "Whose weights the person skips by: 'own' (default) or 'app', a null person whose hidden preferences equal the app's weights.",
    parser: .oneOfCases)
  static let djPreferences = Option(
    "dj-preferences", placeholder: "FILE",
    help:
      "A preference file (docs/formats.md, as resonance tune writes it, JSON or plist) for the simulated DJ to run. Default: the app's settings. The same --seed and --start give the same life; only the DJ's choices and what follows them differ.",
    parser: .nonEmpty)
  static let effectScale = Option(
    "effect-scale", placeholder: "X",
    help: "Multiplies every song's true effect on heart rate and HRV, 0–20. Default: 1.",
    parser: .number(in: 0...20))

  var configuration = SynthConfiguration()
  var djPreferencesPath: String?
  var outPath: String
  var output: OutputOptions

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    outPath = try parsed.required(Self.out, for: Self.configuration.name)
    output = OutputOptions(parsed)
    if let months = parsed[Self.months] { configuration.months = months }
    if let seed = parsed[Self.seed] { configuration.seed = seed }
    if let songs = parsed[Self.songs] { configuration.songs = songs }
    if let scale = parsed[Self.scale] { configuration.scale = scale }
    if let effect = parsed[Self.effectScale] { configuration.effectScale = effect }
    configuration.writesZip = parsed[Self.zip]
    // Setting it also sets writesZip: the Health export is one of the files compressed.
    if parsed[Self.compress] { configuration.compresses = true }
    if let preferences = parsed[Self.preferences] { configuration.preferences = preferences }
    djPreferencesPath = parsed[Self.djPreferences]
    if let start = parsed[Self.start] {
      configuration.start = (start.year, start.month, start.day)
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    // Zip entry times are DOS local time: in UTC they are the same bytes on every machine.
    setenv("TZ", "UTC0", 1)
    tzset()
    var configuration = configuration
    if let path = djPreferencesPath {
      configuration.djPreferences = try Self.preferences(at: path).preferences
      configuration.djPreferencesSource = (path as NSString).lastPathComponent
    }
    do {
      try FileManager.default.createDirectory(atPath: outPath, withIntermediateDirectories: true)
    } catch {
      throw CommandError(.ioError, "\(outPath): cannot create the folder")
    }
    let started = Date()
    let days = ProgressReporter(
      label: "synth: living", total: Int64(configuration.dayCount), unit: .items("days"),
      console: context.console, isEnabled: !output.isQuiet)
    let history = LifeSimulator.run(configuration) { done, _ in days.update(Int64(done)) }
    days.finish()
    if !output.isQuiet {
      context.report("synth: simulated \(history.days.count) days, \(history.plays.count) plays")
    }
    let summary = try SynthWriter(history: history, folder: outPath).write { label in
      if !output.isQuiet { context.report("synth: writing \(label)") }
    }
    let seconds = Date().timeIntervalSince(started)
    let files = summary.files
    if output.isJSON {
      context.console.out(
        SynthSummary.json(
          folder: outPath, days: history.days.count, plays: history.plays.count, files: files,
          seconds: seconds
        ).text)
    } else if !output.isQuiet {
      context.console.out(SynthSummary.line(folder: outPath, files: files, seconds: seconds) + "\n")
    }
    return .ok
  }
}

extension SynthCommand {
  /// Reads a preference file: a missing file is 66, an unreadable one 74, one that is not a
  /// preference file 65, each naming the file.
  static func preferences(at path: String) throws -> PreferenceFile {
    guard FileManager.default.fileExists(atPath: path) else {
      throw CommandError(.noInput, "\(path): no such file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CommandError(.ioError, "\(path): cannot be read")
    }
    do {
      return try PreferenceFile(data: data)
    } catch {
      throw CommandError(.dataError, "\(path):1:1: \(error.message)")
    }
  }
}

/// The first day `--start` names.
struct SynthDate: Sendable {
  var year: Int
  var month: Int
  var day: Int
}
