import ResonanceModel
import ResonanceStages

/// `resonance synth`: writes a simulated person's history in the real export formats.
struct SynthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "synth",
    abstract: "Write months of a simulated person's history in the real export formats.",
    discussion: """
      The laboratory for every later stage: a simulated person's Apple Health export, Apple \
      Music and Spotify histories, DJ decision log, Watch and Mac traces, mood inputs and \
      breathing-pacer recordings, written as the real files are (docs/formats.md), quirks and \
      all, with what was planted (song features and effects, preferences, adherence) in \
      truth.json. The same arguments give byte-identical files: no default depends on today's date.
      """,
    examples: [
      Example("resonance synth --out /tmp/person", "One month at the default density."),
      Example(
        "resonance synth --out /tmp/shipped --months 4 --scale 0.2 --songs 160 --compress",
        "Four months written as the files ship, zips and .jsonl.gz: under a tenth of the size."),
      Example(
        "resonance synth --out /tmp/apart --months 6 --person app-model --taste-contrast 3",
        "A person built like the app's scorer, their taste three times as far from its weights."),
      Example(
        "resonance synth --out /tmp/tried --months 3 --dj-preferences p.json --dj-from 2022-08-01",
        "The same life, the DJ running the app's settings for two months, then p.json's."),
      Example(
        "resonance synth --out /tmp/cohort --cohort 20 --months 2 --scale 0.1",
        "Twenty people, two months each, for cohort/run-person.sh and resonance cohort pool."),
    ])

  @Option(
    name: "out", placeholder: "DIR",
    help: "Folder to write into (created; files in it are replaced). Required.", parser: .nonEmpty)
  var folder: String

  @Option(
    name: "months", placeholder: "N", help: "Months of history, 1–120. Default: 1.",
    parser: .integer(in: 1...120))
  var months = SynthConfiguration().months

  @Option(name: "seed", placeholder: "S", help: "Seed of every draw. Default: 1.", parser: .natural)
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
    help: "First day, YYYY-MM-DD (day 1–28). Default: 2022-06-01.", parser: .synthDay(upTo: 28))
  var start: SynthDate?

  @Flag(name: "zip", help: "Write export.zip as the Health app does, not apple_health_export/.")
  var writesZip: Bool

  @Flag(
    name: "compress",
    help: "Write files as shipped: export.zip (as --zip), service zips, recordings as .jsonl.gz.")
  var compresses: Bool

  @Option(
    name: "person", placeholder: "KIND",
    help:
      "How the person judges songs (docs/synth.md): mixed (default: each seed draws a mix of the next four), app-model (the app's seven components under their own weights), satiation (a song wears thin with plays over the last days), drift (the weights move over the months), hidden-feature (an affinity per artist and a latent trait per song), null (their weights are the app's), flat (no song is skipped, heard or felt differently from another).",
    parser: .oneOfCases)
  var person = SynthConfiguration().person

  @Option(
    name: "taste-contrast", placeholder: "X",
    help: "How far the person's drawn weights lie from the app's, 0–10 (spread × X). Default: 1.",
    parser: .number(in: 0...10))
  var tasteContrast = SynthConfiguration().tasteContrast

  @Option(
    name: "dj-preferences", placeholder: "FILE",
    help:
      "A preference file (docs/formats.md, as resonance tune writes it, JSON or plist) for the simulated DJ to run. Default: the app's settings. The same --seed and --start give the same life; only the DJ's choices and what follows them differ. A plan from resonance experiment plan: its in-force arm until its first day (whole months after --start), each day's arm from it; everything before that day is what synth --months M wrote.",
    parser: .nonEmpty)
  var djPreferencesPath: String?

  @Option(
    name: "dj-from", placeholder: "DATE",
    help:
      "With --dj-preferences: the DJ runs the app's settings before DATE, the first of a month in the period (YYYY-MM-01), and the file's from it on, its learning carried over.",
    parser: .synthDay(upTo: 1))
  var djFrom: SynthDate?

  @Option(
    name: "effect-scale", placeholder: "X",
    help: "Multiplies every song's true effect on heart rate and HRV, 0–20. Default: 1.",
    parser: .number(in: 0...20))
  var effectScale = SynthConfiguration().effectScale

  @Option(
    name: "step", placeholder: "DATE",
    help:
      "Plant a sustained change from DATE (YYYY-MM-DD, day 1–28, in the period) on: resting heart rate +3 bpm, every SDNN × 0.8 (docs/synth.md). Default: none.",
    parser: .synthDay(upTo: 28))
  var step: SynthDate?

  @Option(
    name: "evening-asleep", placeholder: "MIN",
    help:
      "Plant in a lone person MIN minutes asleep gained, -60–60, on a night after ten minutes of music in the hour before bed (the person falls asleep sooner; truth.json records it): what an evening-music experiment estimates. Default: none, and evening music moves only the deep-sleep share.",
    parser: .number(in: -60...60))
  var eveningAsleep: Double?

  @Option(
    name: "cohort", placeholder: "N",
    help:
      "Write N persons, 1–10000, each into DIR/person-NNNN with effects drawn from a planted population (tempo on heart rate, evening music on time asleep, breathing practice on night SDNN), and the population and every draw in DIR/cohort-truth.json. The i-th person has seed S+i−1; the other options apply to each. Default: one person, written into DIR.",
    parser: .integer(in: 1...10_000))
  var cohort: Int?

  @OptionGroup var output: OutputOptions

  /// The simulation the options ask for.
  var request: SynthRequest {
    var configuration = SynthConfiguration()
    configuration.months = months
    configuration.seed = seed
    configuration.songs = songs
    configuration.scale = scale
    configuration.effectScale = effectScale
    configuration.writesZip = writesZip
    configuration.compresses = compresses
    configuration.person = person
    configuration.tasteContrast = tasteContrast
    if let start { configuration.start = start }
    configuration.djFromMonth = djFrom.map { ($0.year, $0.month) }
    configuration.step = step
    configuration.eveningAsleepMinutes = eveningAsleep
    return SynthRequest(
      configuration: configuration, djPreferencesPath: djPreferencesPath, folder: folder,
      cohort: cohort)
  }

  func validate() throws(UsageError) {
    if let problem = request.usageProblem { throw UsageError(problem) }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    context.show(try SynthStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}

/// A day `--start`, `--dj-from` or `--step` names.
typealias SynthDate = (year: Int, month: Int, day: Int)

extension ValueParser where Value == SynthDate {
  /// `YYYY-MM-DD`, a year from 1900 to 2100 and a day to `last` (≤ 28: every month has it).
  static func synthDay(upTo last: Int) -> ValueParser<SynthDate> {
    let day = last == 1 ? "day 01, the first of a month" : "a day from 1 to \(last)"
    return ValueParser(expected: "YYYY-MM-DD with a year from 1900 to 2100 and \(day)") {
      let parts = $0.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 3, (1900...2100).contains(parts[0]), (1...12).contains(parts[1]),
        (1...last).contains(parts[2])
      else { return nil }
      return (parts[0], parts[1], parts[2])
    }
  }
}
