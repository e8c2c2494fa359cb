import ResonanceModel
import ResonanceStages

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
    examples: [
      Example("resonance synth --out /tmp/person", "One month at the default density."),
      Example(
        "resonance synth --out Datasets/generated/year --months 12 --zip",
        "A realistic year, with the Health export zipped as the app writes it."),
      Example(
        "resonance synth --out /tmp/shipped --months 4 --scale 0.2 --songs 160 --compress",
        "Four months written as the files ship, zips and .jsonl.gz: under a tenth of the size."),
      Example(
        "resonance synth --out /tmp/null --months 6 --person null",
        "A null person for the tuning stage's null test: the app's weights are their best."),
      Example(
        "resonance synth --out /tmp/apart --months 6 --person app-model --taste-contrast 3",
        "A person built like the app's scorer whose taste lies three times as far from its weights."
      ),
      Example(
        "resonance synth --out /tmp/tried --start 2023-06-01 --months 3 --dj-preferences Reports/preferences.json",
        "The same life as with the app's settings, the DJ running a tuned preference file."),
    ])

  @Option(
    name: "out", placeholder: "DIR",
    help: "Folder to write into (created; files in it are replaced). Required.", parser: .nonEmpty)
  var folder: String

  @Option(
    name: "months", placeholder: "N", help: "Months of history, 1–120. Default: 1.",
    parser: .integer(in: 1...120))
  var months = SynthConfiguration().months

  @Option(
    name: "seed", placeholder: "S", help: "Seed of the simulation. Default: 1.", parser: .natural)
  var seed = SynthConfiguration().seed

  @Option(
    name: "songs", placeholder: "N", help: "Songs in the library, 50–20000. Default: 400.",
    parser: .integer(in: 50...20_000))
  var songs = SynthConfiguration().songs

  @Option(
    name: "scale", placeholder: "F",
    help: "Multiplies the Watch's sampling density (export size), 0.05–50. Default: 1.",
    parser: .number(in: 0.05...50))
  var scale = SynthConfiguration().scale

  @Option(
    name: "start", placeholder: "DATE",
    help: "First day, YYYY-MM-DD (day 1–28). Default: 2022-06-01.", parser: .synthStart)
  var start: SynthDate?

  @Flag(
    name: "zip", help: "Write export.zip as the Health app does, instead of apple_health_export/.")
  var writesZip: Bool

  @Flag(
    name: "compress",
    help:
      "Write every file compressed as it ships: the Health export as export.zip (what --zip does), the Apple Media Services folder as Apple_Media_Services.zip, the Spotify folder as my_spotify_data.zip, and the apps' recordings as .jsonl.gz."
  )
  var compresses: Bool

  @Option(
    name: "person", placeholder: "KIND",
    help:
      "How the person judges songs (docs/synth.md): mixed (default: each seed draws a mix of the next four), app-model (the app's seven components under their own weights), satiation (a song wears thin with plays over the last days), drift (the weights move over the months), hidden-feature (an affinity per artist and a latent trait per song), null (their weights are the app's), flat (no song is skipped, heard or felt differently from another).",
    parser: .oneOfCases)
  var person = SynthConfiguration().person

  @Option(
    name: "taste-contrast", placeholder: "X",
    help:
      "How far the person's drawn weights lie from the app's, 0–10: the spread of each draw is multiplied by X. Default: 1.",
    parser: .number(in: 0...10))
  var tasteContrast = SynthConfiguration().tasteContrast

  @Option(
    name: "dj-preferences", placeholder: "FILE",
    help:
      "A preference file (docs/formats.md, as resonance tune writes it, JSON or plist) for the simulated DJ to run. Default: the app's settings. The same --seed and --start give the same life; only the DJ's choices and what follows them differ.",
    parser: .nonEmpty)
  var djPreferencesPath: String?

  @Option(
    name: "effect-scale", placeholder: "X",
    help: "Multiplies every song's true effect on heart rate and HRV, 0–20. Default: 1.",
    parser: .number(in: 0...20))
  var effectScale = SynthConfiguration().effectScale

  @OptionGroup var output: OutputOptions

  func run(in context: CommandContext) throws -> ExitCode {
    var configuration = SynthConfiguration()
    configuration.months = months
    configuration.seed = seed
    configuration.songs = songs
    configuration.scale = scale
    configuration.effectScale = effectScale
    configuration.writesZip = writesZip
    // Setting it also sets writesZip: the Health export is one of the files compressed.
    if compresses { configuration.compresses = true }
    configuration.person = person
    configuration.tasteContrast = tasteContrast
    if let start { configuration.start = (start.year, start.month, start.day) }
    let request = SynthRequest(
      configuration: configuration, djPreferencesPath: djPreferencesPath, folder: folder)
    context.show(try SynthStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}

/// The first day `--start` names.
struct SynthDate: Sendable {
  var year: Int
  var month: Int
  var day: Int
}

extension ValueParser where Value == SynthDate {
  /// `YYYY-MM-DD` with a year from 1900 to 2100 and a day from 1 to 28 (every month has it).
  static var synthStart: ValueParser<SynthDate> {
    ValueParser(expected: "YYYY-MM-DD with a year from 1900 to 2100 and a day from 1 to 28") {
      let parts = $0.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 3, (1900...2100).contains(parts[0]), (1...12).contains(parts[1]),
        (1...28).contains(parts[2])
      else { return nil }
      return SynthDate(year: parts[0], month: parts[1], day: parts[2])
    }
  }
}
