import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance hrv`: HRV metrics of an RR-interval file, or of the Health beat lists in the
/// store.
struct HRVCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "hrv",
    abstract: "Compute HRV metrics (time domain, Poincaré, LF/HF) of an RR-interval file.",
    discussion: """
      Reads RR intervals in milliseconds — one per line as Polar and Elite HRV export them, a \
      CSV column (RR, RR (ms), IBI, interval…), or a JSON array — and prints MeanNN, SDNN, \
      RMSSD, SDSD, pNN50, pNN20, SD1, SD2 and mean HR, with NeuroKit2's definitions, and LF, HF \
      and LF/HF by Welch's method on the series resampled at 4 Hz, for series of 120 s or more \
      (see docs/hrv.md). A metric the series is too short for is null, with the reason.

      Without a FILE it reads the Health export's beat-to-beat lists in the store instead, \
      those of the days --from and --to give (all of them without), one row each, with the \
      mean over them.

      Artefacts: by default the series is taken as it is, as NeuroKit2, Kubios and pyHRV take \
      it unless asked to correct it, and the output says how many intervals look like \
      artefacts by the Kubios method (Lipponen & Tarvainen 2019, as NeuroKit2 implements it). \
      --artefacts kubios corrects them: an extra beat is taken out, a missed one put back, an \
      ectopic or outlying one moved midway between its neighbours, pass after pass. \
      --artefacts malik drops intervals outside 300–2000 ms or more than 20% from the median \
      of the last five kept (Malik's rule), which is what the report applies to the Health \
      beat lists.
      """,
    arguments: [
      ArgumentDefinition(
        "FILE", help: "The RR-interval file; without it, the beat lists in the store.",
        required: false)
    ],
    options: [Option.from, Option.to, Option.existingDB, Self.artefacts] + OutputOptions.options,
    examples: [
      Example(
        "resonance hrv rr.txt",
        "Metrics of a Polar RR export as it is, and how many intervals look like artefacts."),
      Example(
        "resonance hrv session.csv --artefacts kubios --json",
        "Metrics after the Kubios correction, as JSON."),
      Example(
        "resonance hrv --from 2022-06-01 --to 2022-06-08",
        "Each Health beat list of that week in ./resonance.sqlite, with the mean over them."),
    ])

  static let artefacts = Option<RRSeries.ArtefactHandling>(
    "artefacts", placeholder: "off|kubios|malik",
    help: "How ectopic and missed beats are handled: off (the series as read), kubios (corrected"
      + " by the Kubios method) or malik (dropped by Malik's rule). Default: off.",
    parser: .oneOfCases)

  var path: String?
  var days: DayRange
  var store: StoreOptions
  var output: OutputOptions
  var handling: RRSeries.ArtefactHandling

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    path = parsed.positionals.first
    days = DayRange(from: parsed[Option.from], to: parsed[Option.to])
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    handling = parsed[Self.artefacts] ?? .off
  }

  func validate() throws(UsageError) {
    if path != nil, !days.isAll {
      throw UsageError(
        "'\(Option.from.spelling)' and '\(Option.to.spelling)' pick beat lists from the store; give them without a FILE",
        hint: "resonance hrv --from 2022-06-01 --to 2022-06-08")
    }
    if let from = days.from, let to = days.to, from >= to {
      throw UsageError(
        "'\(Option.from.spelling)' must be before '\(Option.to.spelling)'",
        hint: "resonance hrv --from 2022-06-01")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    guard let path else { return try runOverStore(context) }
    let file = try InputFile.open(path: path)
    let (raw, diagnostics) = try RRFileReader.read(
      path: file.name, data: Data(try file.readAll()))
    if !output.isQuiet {
      for diagnostic in diagnostics.prefix(20) { context.report(diagnostic.description) }
    }
    let series = HRVSeries(rr: raw, handling: handling, file: file.name, start: nil)
    if output.isJSON {
      context.console.out(
        HRVReport.json([series], mean: nil, artefacts: handling.rawValue).text)
    } else if !output.isQuiet {
      context.console.out(HRVReport.text(series, artefacts: handling.rawValue))
    }
    return .ok
  }

  /// Each beat list in the store in the days asked for, then the mean over them.
  private func runOverStore(_ context: CommandContext) throws -> ExitCode {
    let lists = try store.openExisting(for: "hrv").beatLists(in: days)
    guard !lists.isEmpty else {
      throw CommandError(
        .noInput,
        "\(store.path): no Health beat lists"
          + (days.isAll ? " (a Health export's HRV records hold them)" : " in those days"))
    }
    let series = lists.map {
      HRVSeries(
        rr: RRSeries.intervals(from: $0.beats), handling: handling, file: nil, start: $0.start)
    }
    let mean = HRVMetrics.mean(of: series.map(\.metrics))
    if output.isJSON {
      context.console.out(HRVReport.json(series, mean: mean, artefacts: handling.rawValue).text)
    } else if !output.isQuiet {
      context.console.out(HRVReport.table(series, mean: mean, artefacts: handling.rawValue))
    }
    return .ok
  }
}
