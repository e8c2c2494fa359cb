/// One thing a Health export reader found, in document order.
package enum HealthItem: Sendable {
  case record(HealthRecord)
  case correlation(HealthCorrelation)
  case workout(HealthWorkout)
  case activitySummary(ActivitySummary)
  /// From `Me`, only the year of birth (for age); nothing else is read.
  case birthYear(Int)
}
