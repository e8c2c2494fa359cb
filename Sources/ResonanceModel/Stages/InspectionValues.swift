/// What `resonance status` asks: the store's summary, or its unresolved songs.
package struct StatusRequest: Sendable, Equatable {
  package var store: StoreLocation
  /// List the songs without a known artist or genre instead of the summary.
  package var listsUnresolved: Bool

  package init(store: StoreLocation, listsUnresolved: Bool = false) {
    self.store = store
    self.listsUnresolved = listsUnresolved
  }
}

/// What the store holds, as `resonance status` shows it.
package enum StatusResult: Sendable, Equatable {
  /// Records, plays, traces and the ledger, and the store's path.
  case summary(StoreSummary, storePath: String)
  /// The songs no source has named an artist or genre for, most played first.
  case unresolved([UnresolvedSong])
}

/// What `resonance hrv` asks: one RR-interval file, or the Health beat lists of some days.
package struct HRVRequest: Sendable, Equatable {
  package enum Input: Sendable, Equatable {
    /// An RR-interval file (a line each, a CSV column or a JSON array).
    case file(String)
    /// The beat lists in the store whose record starts in `days`.
    case store(StoreLocation, days: DayRange)
  }

  package var input: Input
  package var artefacts: RRArtefactHandling

  package init(input: Input, artefacts: RRArtefactHandling = .off) {
    self.input = input
    self.artefacts = artefacts
  }
}

/// HRV metrics of each series read, with their mean when there are several.
package struct HRVResult: Sendable, Equatable {
  package var series: [HRVSeries]
  /// The mean over the store's beat lists; nil for a file.
  package var mean: HRVMetrics?
  package var artefacts: RRArtefactHandling

  package init(series: [HRVSeries], mean: HRVMetrics?, artefacts: RRArtefactHandling) {
    self.series = series
    self.mean = mean
    self.artefacts = artefacts
  }
}

/// What `resonance breathing` asks: recording files, or the sessions in the store.
package struct BreathingRequest: Sendable, Equatable {
  package enum Input: Sendable, Equatable {
    /// `resonance.breathing` recordings, plain or gzip.
    case files([String])
    /// The store's sessions, or the one with this number; their results are saved beside
    /// them.
    case store(StoreLocation, session: Int?)
  }

  package var input: Input

  package init(input: Input) { self.input = input }
}

/// Every breathing session analysed, compared by month and by pattern.
package struct BreathingReportResult: Sendable, Equatable {
  package var sessions: [BreathingSessionResult]
  package var months: [BreathingGroup]
  package var patterns: [BreathingGroup]
  /// The files that could not be read, with the kind of failure (the stage went on).
  package var failures: [StageFailure]

  package init(
    sessions: [BreathingSessionResult], months: [BreathingGroup], patterns: [BreathingGroup],
    failures: [StageFailure] = []
  ) {
    self.sessions = sessions
    self.months = months
    self.patterns = patterns
    self.failures = failures
  }
}

/// One input a stage could not use, having gone on with the others: its name, the message
/// and the kind of failure (for the exit status).
package struct StageFailure: Sendable, Equatable {
  package var file: String?
  package var message: String
  package var kind: StageError.Kind

  package init(file: String?, message: String, kind: StageError.Kind) {
    self.file = file
    self.message = message
    self.kind = kind
  }
}

/// What `resonance validate` asks: a simulated person's truth against a store's analyses.
package struct ValidateRequest: Sendable, Equatable {
  package var truthPath: String
  package var store: StoreLocation
  /// A preference file whose one-step truth to report (`--preferences`), judged with the
  /// `decisions-truth.jsonl.gz` beside the truth file.
  package var preferencesPath: String?
  /// The days whose decisions the one-step truth averages over.
  package var days: DayRange
  /// Whether to search tune's design for the point of greatest one-step value too
  /// (`--best-point`).
  package var bestPoint: Bool

  package init(
    truthPath: String, store: StoreLocation, preferencesPath: String? = nil,
    days: DayRange = DayRange(), bestPoint: Bool = false
  ) {
    self.truthPath = truthPath
    self.store = store
    self.preferencesPath = preferencesPath
    self.days = days
    self.bestPoint = bestPoint
  }
}

/// The validation report, with the truth file it was judged against.
package struct ValidateResult: Sendable, Equatable {
  package var report: ValidationReport
  package var truthPath: String

  package init(report: ValidationReport, truthPath: String) {
    self.report = report
    self.truthPath = truthPath
  }
}

/// What `resonance synth` asks: a simulated person and where to write their files.
package struct SynthRequest: Sendable, Equatable {
  package var configuration: SynthConfiguration
  /// A preference file for the simulated DJ to run, instead of the app's settings (from
  /// `configuration.djFromMonth` on, when it is set).
  package var djPreferencesPath: String?
  package var folder: String
  /// Members of a simulated cohort (`--cohort`): each written to its own `person-NNNN`
  /// folder, seed `configuration.seed + i − 1` for the i-th, with effects drawn from
  /// `CohortPopulation`; nil for one person written into `folder` itself.
  package var cohort: Int?

  package init(
    configuration: SynthConfiguration, djPreferencesPath: String?, folder: String,
    cohort: Int? = nil
  ) {
    self.configuration = configuration
    self.djPreferencesPath = djPreferencesPath
    self.folder = folder
    self.cohort = cohort
  }

  /// The folder of cohort member `index` (1-based) of `count`: `person-0001`, zero-padded to
  /// four digits or as many as `count` has.
  package static func memberFolder(_ index: Int, of count: Int) -> String {
    let digits = String(index)
    let width = max(4, String(count).count)
    return "person-" + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// Why the request cannot run, in lower case as a usage error says it: `--dj-from` without
  /// a preference file to switch to, or a month outside the period
  /// (`SynthConfiguration.dayProblem`); nil when it can.
  package var usageProblem: String? {
    if configuration.djFromMonth != nil && djPreferencesPath == nil {
      return "'--dj-from' needs '--dj-preferences FILE', the settings the DJ switches to"
    }
    if cohort != nil && configuration.eveningAsleepMinutes != nil {
      return "'--evening-asleep' plants an effect in a lone person; a cohort's members draw"
        + " theirs from the population ('--cohort')"
    }
    if cohort != nil && configuration.person == .flat {
      return "'--cohort' cannot plant effects in a flat person, who feels no song differently;"
        + " choose another '--person'"
    }
    return configuration.dayProblem
  }
}

/// What `resonance synth` wrote.
package struct SynthResult: Sendable, Equatable {
  package var folder: String
  package var days: Int
  package var plays: Int
  package var files: [WrittenFile]
  package var seconds: Double
  /// Members written, for a cohort (`days` is each member's, `plays` all members'); nil for
  /// one person.
  package var persons: Int?

  package init(
    folder: String, days: Int, plays: Int, files: [WrittenFile], seconds: Double,
    persons: Int? = nil
  ) {
    self.folder = folder
    self.days = days
    self.plays = plays
    self.files = files
    self.seconds = seconds
    self.persons = persons
  }
}
