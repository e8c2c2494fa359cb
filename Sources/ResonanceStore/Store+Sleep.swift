import ResonanceModel

/// What night reconstruction reads from the store.
extension Store {
  /// The Health type identifier of sleep-analysis records.
  package static let sleepAnalysisType = "HKCategoryTypeIdentifierSleepAnalysis"

  /// Every sleep-analysis record, as the intervals nights are built from, in start order (then
  /// end, then row id), each end with its own UTC offset and the source's name.
  ///
  /// Records whose value is not one of HealthKit's sleep-analysis values (in bed, asleep,
  /// asleep unspecified, core, deep, REM, awake) are left out: nothing can be said of them.
  ///
  /// - Throws: `StoreError` when the query fails.
  package func sleepIntervals() throws(StoreError) -> [SleepInterval] {
    try connection.rows(
      """
      SELECT r.start_ms, r.start_offset_s, r.end_ms, r.end_offset_s, r.value_text, s.name
      FROM health_records r
      JOIN health_sources s ON s.id = r.source_id
      WHERE r.type_id = (SELECT id FROM health_types WHERE identifier = ?)
      ORDER BY r.start_ms, r.end_ms, r.id
      """, [Self.sleepAnalysisType]
    ).compactMap { r in
      guard let value = SleepValue(healthKit: r.string("value_text")) else { return nil }
      return SleepInterval(
        start: r.timestamp("start_ms", offset: "start_offset_s"),
        end: r.timestamp("end_ms", offset: "end_offset_s"), value: value, source: r.string("name"))
    }
  }
}
