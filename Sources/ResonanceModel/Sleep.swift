/// What a sleep-analysis record (`HKCategoryTypeIdentifierSleepAnalysis`) says about its span.
///
/// Both eras map here: before iOS 16 a record is in bed, asleep (no stage) or awake; from iOS
/// 16 the Watch writes core, deep and REM stages and awake, and an unstaged asleep is
/// `AsleepUnspecified`. The deprecated `Asleep` and `AsleepUnspecified` share HealthKit's raw
/// value 1 and mean the same thing, so both are `.asleepUnspecified`.
package enum SleepValue: String, Sendable, Equatable, CaseIterable {
  case inBed, asleepUnspecified, awake, core, deep, rem

  /// The value for a HealthKit category value as the export writes it
  /// (`HKCategoryValueSleepAnalysisAsleepDeep`); `nil` for anything else.
  package init?(healthKit text: String) {
    switch text {
    case "HKCategoryValueSleepAnalysisInBed": self = .inBed
    case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified":
      self = .asleepUnspecified
    case "HKCategoryValueSleepAnalysisAwake": self = .awake
    case "HKCategoryValueSleepAnalysisAsleepCore": self = .core
    case "HKCategoryValueSleepAnalysisAsleepDeep": self = .deep
    case "HKCategoryValueSleepAnalysisAsleepREM": self = .rem
    default: return nil
    }
  }

  /// Asleep, with or without a stage.
  package var isAsleep: Bool {
    switch self {
    case .asleepUnspecified, .core, .deep, .rem: true
    case .inBed, .awake: false
    }
  }

  /// A sleep stage (core, deep or REM), which only iOS 16 and later record.
  package var isStage: Bool { self == .core || self == .deep || self == .rem }
}

/// One sleep-analysis record: a span, what it says, and which source wrote it.
///
/// Each end keeps the UTC offset the source recorded, so local-time questions (was this
/// evening or afternoon?) use the offset the person lived in.
package struct SleepInterval: Sendable, Equatable {
  package var start: Timestamp
  package var end: Timestamp
  package var value: SleepValue
  /// The source's name as the export writes it (`Anna's Apple Watch`, `AutoSleep`).
  package var source: String

  package init(start: Timestamp, end: Timestamp, value: SleepValue, source: String) {
    self.start = start
    self.end = end
    self.value = value
    self.source = source
  }
}
