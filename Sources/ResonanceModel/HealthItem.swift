/// One thing a Health export reader found, in document order.
///
/// The rare, large cases are `indirect`, so that an array of items (a batch of mostly Records)
/// is sized for a Record, not for a Workout.
package enum HealthItem: Sendable {
  case record(HealthRecord)
  indirect case correlation(HealthCorrelation)
  indirect case workout(HealthWorkout)
  indirect case activitySummary(ActivitySummary)
  /// From `Me`, only the year of birth (for age); nothing else is read.
  case birthYear(Int)
}
