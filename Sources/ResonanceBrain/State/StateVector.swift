import ResonanceModel

/// A span of time the engine estimates state over — a listening session — with its context.
///
/// Times are UTC milliseconds; the span is half-open, `startMs ..< endMs`.
package struct StatePeriod: Sendable, Equatable {
  package var startMs: Int64
  package var endMs: Int64
  package var context: ActivityContext

  package init(startMs: Int64, endMs: Int64, context: ActivityContext) {
    self.startMs = startMs
    self.endMs = endMs
    self.context = context
  }
}

/// What the engine knows of the person's age, for the maximum heart rate.
package enum PersonAge: Sendable, Equatable {
  /// The Health export's year of birth; the age at a period is its UTC year minus this.
  case birthYear(Int)
  /// An age in whole years, the same for every period.
  case years(Int)
  /// Neither is known: the engine uses `StateEngine.defaultAgeYears`, flagged.
  case unknown
}
