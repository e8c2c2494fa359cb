import Foundation
import ResonanceBrain
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceSynth

/// `resonance report`: the pages a person reads, each with its CSV and charts, from the store.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "report",
    abstract: "Write the Markdown report, its CSVs and charts, from the store.",
    discussion: """
      Writes into the folder (default Reports/) one page per question, each with the CSV \
      behind it and SVG charts: index.md (what was analysed, each page's answer in one \
      line), songs.md (each song's effect on heart rate and HRV, the most calming and \
      energising per context), sessions.md (every listening session, its quality and the \
      weekly trend), sleep.md (nights after evening music against the others), hrv.md (resting \
      heart rate and HRV by day), breathing.md (every pacer session), tuning.md (the last sweep \
      and tune) and, with --truth, validation.md.

      --from and --to limit the plays, sessions, nights, days and breathing sessions a page \
      covers; song estimates always use the whole history, and songs.md says so. Every \
      statistic comes from the store, run through the same code as resonance analyze; a page \
      with too little data says what it needs. docs/reports.md documents every page, column \
      and chart. Nothing is written outside the folder.
      """,
    options: [Option.existingDB, Self.out, Option.from, Option.to, Self.only, Self.truth]
      + OutputOptions.options,
    examples: [
      Example("resonance report", "Write every page of ./resonance.sqlite into Reports/."),
      Example(
        "resonance report --db Reports/demo.sqlite --only sleep --only sessions --out /tmp/r",
        "Write only the sleep and sessions pages (and the index) into /tmp/r."),
      Example(
        "resonance report --from 2022-07-01 --to 2022-08-31",
        "Report on two months of sessions, nights and breathing."),
      Example(
        "resonance report --db Reports/demo.sqlite --truth Datasets/sample/truth.json",
        "Add validation.md, the analyses against the simulated person's truth."),
    ])

  static let out = Option(
    "out", placeholder: "DIR", help: "The folder to write into. Default: Reports.")
  static let only = Option<String>(
    "only", placeholder: "NAME",
    help:
      "Write only this page (and the index): songs, sessions, sleep, hrv, breathing, tuning or validation. Repeatable.",
    repeatable: true,
    parser: .oneOf(ReportPage.names, named: { $0 }))
  static let truth = Option(
    "truth", placeholder: "FILE",
    help: "A simulated person's truth.json: adds validation.md.", parser: .nonEmpty)

  var store: StoreOptions
  var output: OutputOptions
  var folder: String
  var days: DayRange
  var pages: [String]
  var truthPath: String?

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    folder = parsed[Self.out] ?? "Reports"
    days = DayRange(from: parsed[Option.from], to: parsed[Option.to])
    if let from = days.from, let to = days.to, to < from {
      throw UsageError(
        "'--from' must not be after '--to'",
        hint: "resonance report --from 2022-06-01 --to 2022-08-31")
    }
    let truth = parsed[Self.truth]
    truthPath = truth
    let only = parsed.all(Self.only)
    if only.contains("validation"), truth == nil {
      throw UsageError(
        "the validation page needs '--truth FILE'",
        hint: "resonance report --only validation --truth Datasets/sample/truth.json")
    }
    pages = ReportPage.names.filter { name in
      (only.isEmpty || only.contains(name)) && (name != "validation" || truth != nil)
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let opened = try store.openExisting(for: "report")
    let truth = try truthPath.map { try ValidateCommand.readTruth($0) }
    let written = try Self.write(
      opened, days: days, pages: pages, truth: truth.map { ($0, truthPath ?? "") }, to: folder)
    if output.isJSON {
      context.console.out(ReportSummary.json(pages: written.pages, folder: folder, days: days).text)
    } else if !output.isQuiet {
      context.console.out(
        ReportSummary.text(pages: written.pages, files: written.files, folder: folder))
    }
    return .ok
  }

  /// Builds the pages asked for from `store` and writes them and the index into `folder`.
  static func write(
    _ store: Store, days: DayRange, pages names: [String],
    truth: (SynthTruth, String)?, to folder: String, pipeline: ReportIndex.Pipeline? = nil
  ) throws -> (pages: [ReportPage], files: Int) {
    let pages = try build(store, days: days, names: names, truth: truth)
    let range = ReportRange(days)
    let index = ReportIndex.make(
      summary: try store.summary(), pages: pages, range: range, pipeline: pipeline)
    // Datasette names a database by its file's stem.
    let database = ((store.path as NSString).lastPathComponent as NSString).deletingPathExtension
    let metadata = ReportFile(
      name: "metadata.json", text: DatasetteMetadata.json(database: database).text)
    var count = 0
    for file in [index] + pages.flatMap(\.files) + [metadata] {
      try OutputFiles.write(file.text, to: (folder as NSString).appendingPathComponent(file.name))
      count += 1
    }
    return (pages, count)
  }

  /// The pages named, in the index's order, each from the store's values through the Brain's
  /// statistics.
  static func build(
    _ store: Store, days: DayRange, names: [String], truth: (SynthTruth, String)?
  ) throws -> [ReportPage] {
    let range = ReportRange(days)
    var pages: [ReportPage] = []
    let wants = Set(names)
    // Read once what more than one page uses.
    let readsSignals = wants.contains("sleep") || wants.contains("hrv")
    let heartRate = readsSignals ? try store.signal(.heartRate) : []
    let hrv = readsSignals ? try store.signal(.hrv) : []
    let nights =
      readsSignals
      ? ReportStatistics.withOvernightVitals(
        try store.nightRecords(in: days), heartRate: heartRate, hrv: hrv) : []
    for name in names {
      switch name {
      case "songs":
        let songs = try store.songRecords()
        let effects = try store.songEffects()
        pages.append(
          SongsPage.make(
            songs: songs, estimates: try store.effectEstimates(),
            features: try store.songFeatures(),
            rankings: ReportStatistics.rankings(effects: effects, songs: songs),
            effects: effects, range: range))
      case "sessions":
        let sessions = try store.sessionRecords(in: days)
        let weeks = ReportStatistics.weeklyQuality(sessions)
        pages.append(
          SessionsPage.make(
            sessions: sessions, overview: ReportStatistics.overview(sessions), weeks: weeks,
            trend: ReportStatistics.qualityTrend(weeks),
            contrast: ReportStatistics.contrast(sessions), range: range))
      case "sleep":
        let evenings = ReportStatistics.evenings(
          nights, sessions: try store.sessionRecords(), workouts: try store.workoutSpans())
        pages.append(
          SleepPage.make(
            evenings: evenings, comparisons: ReportStatistics.sleepComparisons(evenings),
            range: range, eveningHours: ReportStatistics.eveningHours,
            eveningMinutes: ReportStatistics.eveningMusicMinutes))
      case "hrv":
        let vitals = ReportStatistics.dailyVitals(
          resting: try store.restingHeartRates(), heartRate: heartRate, hrv: hrv,
          beatLists: try store.beatLists(in: days),
          offsets: try store.healthOffsetTimeline()
        ).filter { day in
          (days.from.map { day.day >= $0 } ?? true) && (days.to.map { day.day <= $0 } ?? true)
        }
        pages.append(
          HRVPage.make(
            days: vitals, overview: ReportStatistics.overview(vitals), nights: nights,
            range: range))
      case "breathing":
        let sessions = try store.breathingRecordings().map {
          BreathingSummary.analyse($0.recording, file: $0.file)
        }.filter { s in s.started.map { days.contains($0) } ?? days.isAll }
        pages.append(
          BreathingPage.make(
            sessions: sessions, overall: BreathingSummary.group("all", sessions.map(\.result)),
            byPattern: BreathingSummary.byPattern(sessions),
            byMonth: BreathingSummary.byMonth(sessions), range: range))
      case "tuning":
        pages.append(
          TuningPage.make(sweep: try store.latestSweep(), tuning: try store.latestTuning()))
      case "validation":
        guard let (truth, path) = truth else { continue }
        let report = truth.validate(try ValidateCommand.inputs(from: store))
        pages.append(
          ValidationPage.make(report, truthName: (path as NSString).lastPathComponent))
      default:
        continue
      }
    }
    return pages
  }
}
