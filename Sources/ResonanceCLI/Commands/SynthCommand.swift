import Foundation
import ResonanceModel
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
      OptionDefinition(
        "out", .value(placeholder: "DIR"),
        help: "Folder to write into (created; files in it are replaced). Required."),
      OptionDefinition(
        "months", .value(placeholder: "N"), help: "Months of history, 1–120. Default: 1."),
      OptionDefinition(
        "seed", .value(placeholder: "S"), help: "Seed of the simulation. Default: 1."),
      OptionDefinition(
        "songs", .value(placeholder: "N"), help: "Songs in the library, 50–20000. Default: 400."),
      OptionDefinition(
        "scale", .value(placeholder: "F"),
        help: "Multiplies the Watch's sampling density (export size), 0.05–50. Default: 1."),
      OptionDefinition(
        "start", .value(placeholder: "DATE"), help: "First day, YYYY-MM-DD. Default: 2022-06-01."),
      OptionDefinition(
        "zip", .flag,
        help: "Write export.zip as the Health app does, instead of apple_health_export/."),
      OptionDefinition(
        "preferences", .value(placeholder: "app|own"),
        help:
          "Whose weights the person skips by: 'own' (default) or 'app', a null person whose hidden preferences equal the app's weights."
      ),
      OptionDefinition(
        "effect-scale", .value(placeholder: "X"),
        help: "Multiplies every song's true effect on heart rate and HRV, 0–20. Default: 1."),
      CommonOptions.quiet,
    ],
    examples: [
      Example("resonance synth --out /tmp/person", "One month at the default density."),
      Example(
        "resonance synth --out Datasets/generated/year --months 12 --zip",
        "A realistic year, with the Health export zipped as the app writes it."),
      Example(
        "resonance synth --out /tmp/null --months 6 --preferences app",
        "A null person for the tuning stage's null test."),
    ])

  var configuration = SynthConfiguration()
  var outPath: String
  var isQuiet: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    guard let out = parsed.value("out") else {
      throw UsageError("missing '--out DIR' for 'synth'", hint: "write 'resonance synth --out DIR'")
    }
    outPath = out
    isQuiet = parsed.flag("quiet")
    if let months = try parsed.integer("months", in: 1...120) { configuration.months = months }
    if let text = parsed.value("seed") {
      guard let seed = UInt64(text) else {
        throw UsageError(
          "invalid value '\(text)' for '--seed'", hint: "expected a whole number ≥ 0")
      }
      configuration.seed = seed
    }
    if let songs = try parsed.integer("songs", in: 50...20_000) { configuration.songs = songs }
    if let scale = try parsed.double("scale", in: 0.05...50) { configuration.scale = scale }
    if let effect = try parsed.double("effect-scale", in: 0...20) {
      configuration.effectScale = effect
    }
    configuration.writesZip = parsed.flag("zip")
    if let text = parsed.value("preferences") {
      guard let preferences = SynthConfiguration.Preferences(rawValue: text) else {
        throw UsageError(
          "invalid value '\(text)' for '--preferences'", hint: "expected 'app' or 'own'")
      }
      configuration.preferences = preferences
    }
    if let text = parsed.value("start") {
      let parts = text.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 3, (1900...2100).contains(parts[0]), (1...12).contains(parts[1]),
        (1...28).contains(parts[2])
      else {
        throw UsageError(
          "invalid value '\(text)' for '--start'",
          hint: "expected YYYY-MM-DD with a day from 1 to 28")
      }
      configuration.start = (parts[0], parts[1], parts[2])
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    // Zip entry times are DOS local time: in UTC they are the same bytes on every machine.
    setenv("TZ", "UTC0", 1)
    tzset()
    do {
      try FileManager.default.createDirectory(atPath: outPath, withIntermediateDirectories: true)
    } catch {
      throw CommandError(.ioError, "\(outPath): cannot create the folder")
    }
    let started = Date()
    let days = ProgressReporter(
      label: "synth: living", total: Int64(configuration.dayCount), unit: .items("days"),
      console: context.console, isEnabled: !isQuiet)
    let history = LifeSimulator.run(configuration) { done, _ in days.update(Int64(done)) }
    days.finish()
    if !isQuiet {
      context.report("synth: simulated \(history.days.count) days, \(history.plays.count) plays")
    }
    let summary = try SynthWriter(history: history, folder: outPath).write { label in
      if !isQuiet { context.report("synth: writing \(label)") }
    }
    if !isQuiet {
      let total = summary.files.reduce(Int64(0)) { $0 + $1.bytes }
      let seconds = Date().timeIntervalSince(started)
      context.report(
        "synth: wrote \(summary.files.count) files, \(ProgressReporter.fixed(Double(total) / 1e6, 1)) MB, "
          + "to \(outPath) in \(ProgressReporter.fixed(seconds, 1)) s")
    }
    return .ok
  }
}
