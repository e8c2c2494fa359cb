import ResonanceModel
import ResonanceStages

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

      Without a FILE it reads the Health export's beat-to-beat lists in the store instead \
      (the store must exist), those of the days --from and --to give (all of them without), \
      one row each, with the mean over them.

      Artefacts: by default the series is taken as it is, as NeuroKit2, Kubios and pyHRV take \
      it unless asked to correct it, and the output says how many intervals look like \
      artefacts by the Kubios method (Lipponen & Tarvainen 2019, as NeuroKit2 implements it). \
      --artefacts kubios corrects them: an extra beat is taken out, a missed one put back, an \
      ectopic or outlying one moved midway between its neighbours, pass after pass. \
      --artefacts malik drops intervals outside 300–2000 ms or more than 20% from the median \
      of the last five kept (Malik's rule), which is what the report applies to the Health \
      beat lists.
      """,
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

  @Argument(name: "FILE", help: "The RR-interval file; without it, the beat lists in the store.")
  var path: String?

  @OptionGroup var days: DayOptions
  @OptionGroup var store: StoreOptions

  @Option(
    name: "artefacts", placeholder: "off|kubios|malik",
    help:
      "How ectopic and missed beats are handled: off (the series as read), kubios (corrected by the Kubios method) or malik (dropped by Malik's rule). Default: off.",
    parser: .oneOfCases)
  var artefacts = RRArtefactHandling.off

  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    if path != nil, !days.days.isAll {
      throw UsageError(
        "'--from' and '--to' pick beat lists from the store; give them without a FILE",
        hint: "resonance hrv --from 2022-06-01 --to 2022-06-08")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let input: HRVRequest.Input =
      if let path { .file(path) } else {
        .store(try store.location(context.environment), days: days.days)
      }
    let request = HRVRequest(input: input, artefacts: artefacts)
    context.show(try HRVStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
