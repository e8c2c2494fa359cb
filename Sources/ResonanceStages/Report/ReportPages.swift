import ResonanceBrain
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceSynth

/// One page of the report as the registry holds it: its name, what it says it answers (for
/// `--help`), its loader (the store's values the page needs, through the Brain's statistics)
/// and its writer (those values into Markdown, CSV and SVG).
struct ReportPageSpec<Data>: Sendable {
  let name: ReportPageName
  let about: String
  let load: @Sendable (ReportSources) throws -> Data
  let write: @Sendable (Data, ReportSources) -> ReportPage
}

/// A page of the registry with its data's type hidden, so that all pages can be listed.
struct AnyReportPage: Sendable {
  let name: ReportPageName
  let about: String
  /// Loads the page's values and writes it.
  let make: @Sendable (ReportSources) throws -> ReportPage

  init<Data>(_ spec: ReportPageSpec<Data>) {
    name = spec.name
    about = spec.about
    make = { sources in spec.write(try spec.load(sources), sources) }
  }
}

/// Every page `resonance report` writes, in the index's order: the one list of pages, whose
/// names `--only` accepts and whose help lists them. Adding a page is an entry here, a case
/// of `ReportPageName`, and its writer in `ResonanceReports`.
package enum ReportPages {
  static let all: [AnyReportPage] = [
    AnyReportPage(songs), AnyReportPage(sessions), AnyReportPage(sleep), AnyReportPage(hrv),
    AnyReportPage(breathing), AnyReportPage(tuning), AnyReportPage(experiment),
    AnyReportPage(validation),
  ]

  /// Every page's name, in the index's order: what `--only` accepts.
  package static var names: [ReportPageName] { all.map(\.name) }

  /// The pages by name, for `--only`'s help: `songs (each song's effect …), sessions (…)`.
  package static var described: String {
    all.map { "\($0.name.rawValue) (\($0.about))" }.joined(separator: ", ")
  }

  /// The page named `name`.
  static func page(_ name: ReportPageName) -> AnyReportPage {
    guard let page = all.first(where: { $0.name == name }) else {
      preconditionFailure("report page '\(name.rawValue)' has no entry in ReportPages.all")
    }
    return page
  }

  static let songs = ReportPageSpec(
    name: .songs, about: "each song's effect on heart rate and HRV, by context",
    load: { sources in
      let store = sources.store
      let songs = try store.songRecords()
      let effects = try store.songEffects()
      return (
        songs: songs, estimates: try store.effectEstimates(), features: try store.songFeatures(),
        rankings: ReportStatistics.rankings(effects: effects, songs: songs), effects: effects,
        contextEstimates: try store.contextEffectEstimates(),
        coverage: try sources.validation()?.effects ?? []
      )
    },
    write: { data, sources in
      SongsPage.make(
        songs: data.songs, estimates: data.estimates, features: data.features,
        rankings: data.rankings, effects: data.effects,
        contextEstimates: data.contextEstimates, coverage: data.coverage, range: sources.range)
    })

  static let sessions = ReportPageSpec(
    name: .sessions, about: "every listening session, its quality and the weekly trend",
    load: { sources in try sources.store.sessionRecords(in: sources.days) },
    write: { sessions, sources in
      let weeks = ReportStatistics.weeklyQuality(sessions)
      return SessionsPage.make(
        sessions: sessions, overview: ReportStatistics.overview(sessions), weeks: weeks,
        trend: ReportStatistics.qualityTrend(weeks),
        contrast: ReportStatistics.contrast(sessions),
        masking: ReportStatistics.hrvMasking(sessions), range: sources.range)
    })

  static let sleep = ReportPageSpec(
    name: .sleep, about: "nights after evening music against the others",
    load: { sources in
      let store = sources.store
      let evenings = ReportStatistics.evenings(
        try sources.nights(), sessions: try store.sessionRecords(),
        workouts: try store.workoutSpans())
      return ReportStatistics.withEveningSongs(
        evenings, plays: try store.playsInSessions(), estimates: try store.effectEstimates(),
        features: try store.songFeatures())
    },
    write: { evenings, sources in
      SleepPage.make(
        evenings: evenings, comparisons: ReportStatistics.sleepComparisons(evenings),
        splits: ReportStatistics.musicSplits(evenings), range: sources.range,
        eveningHours: ReportStatistics.eveningHours,
        eveningMinutes: ReportStatistics.eveningMusicMinutes)
    })

  static let hrv = ReportPageSpec(
    name: .hrv, about: "resting heart rate and HRV by day, the normal range and changes",
    load: { sources in
      (days: try sources.vitals(), nights: try sources.nights(), baselines: try sources.baselines())
    },
    write: { data, sources in
      HRVPage.make(
        days: data.days, overview: ReportStatistics.overview(data.days), nights: data.nights,
        baselines: data.baselines, range: sources.range)
    })

  static let breathing = ReportPageSpec(
    name: .breathing, about: "every breathing-pacer session, and whether practice helps HRV",
    load: { sources in (sessions: try sources.breathing(), practice: try sources.practice()) },
    write: { data, sources in
      let sessions = data.sessions
      return BreathingPage.make(
        sessions: sessions, overall: BreathingSummary.group("all", sessions.map(\.result)),
        byPattern: BreathingSummary.byPattern(sessions),
        byMonth: BreathingSummary.byMonth(sessions), practice: data.practice,
        range: sources.range)
    })

  static let tuning = ReportPageSpec(
    name: .tuning, about: "the last sweep and tune",
    load: { sources in
      (sweep: try sources.store.latestSweep(), tuning: try sources.store.latestTuning())
    },
    write: { data, _ in TuningPage.make(sweep: data.sweep, tuning: data.tuning) })

  static let experiment = ReportPageSpec(
    name: .experiment, about: "the last experiment analyze: the plan and what its days say",
    load: { sources in try sources.store.latestExperiment() },
    write: { report, _ in ExperimentPage.make(report) })

  static let validation = ReportPageSpec(
    name: .validation, about: "with --truth: the analyses against a simulated person's truth",
    load: { sources -> ValidationReport in
      guard let report = try sources.validation() else {
        preconditionFailure("the validation page is asked for only with a truth file")
      }
      return report
    },
    write: { report, sources in
      ValidationPage.make(report, truthName: sources.truth?.name ?? "truth.json")
    })
}

/// What the pages are written from: the store, the days asked for, and the values several
/// pages read, loaded once when the first page asks.
final class ReportSources {
  let store: Store
  let days: DayRange
  let truth: (truth: SynthTruth, name: String)?
  private var heartRateReadings: [SignalReading]?
  private var hrvReadings: [SignalReading]?
  private var nightsRead: [NightRecord]?
  private var vitalsRead: [DailyVitals]?
  private var beatListsRead: [BeatList]?
  private var breathingRead: [BreathingSessionResult]?
  private var validationRead: ValidationReport?

  init(store: Store, days: DayRange, truth: (truth: SynthTruth, name: String)?) {
    self.store = store
    self.days = days
    self.truth = truth
  }

  var range: ReportRange { ReportRange(days) }

  func heartRate() throws -> [SignalReading] {
    if let heartRateReadings { return heartRateReadings }
    let readings = try store.signal(.heartRate)
    heartRateReadings = readings
    return readings
  }

  func hrv() throws -> [SignalReading] {
    if let hrvReadings { return hrvReadings }
    let readings = try store.signal(.hrv)
    hrvReadings = readings
    return readings
  }

  /// The nights whose evening falls in the days, with their overnight heart rate and HRV from
  /// the Health export's readings alone (`Store.signal(_:includingTraces:)` says why).
  func nights() throws -> [NightRecord] {
    if let nightsRead { return nightsRead }
    let nights = ReportStatistics.withOvernightVitals(
      try store.nightRecords(in: days),
      heartRate: try store.signal(.heartRate, includingTraces: false),
      hrv: try store.signal(.hrv, includingTraces: false))
    nightsRead = nights
    return nights
  }

  /// Each day in the days with its resting heart rate, SDNN and RMSSD.
  func vitals() throws -> [DailyVitals] {
    if let vitalsRead { return vitalsRead }
    let vitals = ReportStatistics.dailyVitals(
      resting: try store.restingHeartRates(), heartRate: try heartRate(), hrv: try hrv(),
      beatLists: try beatLists(), offsets: try store.healthOffsetTimeline()
    ).filter { days.contains($0.day) }
    vitalsRead = vitals
    return vitals
  }

  func beatLists() throws -> [BeatList] {
    if let beatListsRead { return beatListsRead }
    let lists = try store.beatLists(in: days)
    beatListsRead = lists
    return lists
  }

  /// The breathing sessions that started in the days, analysed from their recordings.
  func breathing() throws -> [BreathingSessionResult] {
    if let breathingRead { return breathingRead }
    let sessions = try store.breathingRecordings().map {
      BreathingSummary.analyse($0.recording, file: $0.file)
    }.filter { s in s.started.map { days.contains($0) } ?? days.isAll }
    breathingRead = sessions
    return sessions
  }

  /// The analyses against the truth file, when the report has one.
  func validation() throws -> ValidationReport? {
    guard let truth else { return nil }
    if let validationRead { return validationRead }
    let report = truth.truth.validate(try ValidationInputs.load(from: store))
    validationRead = report
    return report
  }

  /// Breathing practice against HRV (`PracticeStatistics`).
  func practice() throws -> PracticeEffects {
    let offsets = try store.healthOffsetTimeline()
    let workoutDays = Set(
      try store.workoutSpans().map {
        CalendarDay(
          Timestamp(
            millisecondsSinceEpoch: $0.startMs,
            utcOffsetSeconds: offsets.offset(atMs: $0.startMs) ?? 0))
      })
    return PracticeStatistics.effects(
      sessions: try breathing(), nights: try nights(), vitals: try vitals(),
      workoutDays: workoutDays)
  }

  /// The normal range and sustained change of morning HRV and resting heart rate.
  func baselines() throws -> [SignalBaseline] {
    [
      BaselineStatistics.baseline(
        .morningLnRMSSD, BaselineStatistics.morningLnRMSSD(try beatLists())),
      BaselineStatistics.baseline(
        .restingHeartRate,
        try vitals().compactMap { v in v.restingHeartRate.map { (v.day, $0) } }),
    ]
  }
}
