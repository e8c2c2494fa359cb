import ResonanceModel

/// What the state engine reads from the store beyond heart rate and HRV (`signal(_:)`): the
/// resting baseline's records, the person's birth year, and the manual mood inputs.
extension Store {
  /// The Health export's resting heart-rate records (bpm), each placed at its end — the instant
  /// the day's value was complete, so a baseline never uses a value before it was known — in
  /// time order.
  package func restingHeartRates() throws(StoreError) -> [SignalSample] {
    try connection.rows(
      """
      SELECT end_ms, value_normalized FROM health_records
      WHERE type_id = (SELECT id FROM health_types
                       WHERE identifier = 'HKQuantityTypeIdentifierRestingHeartRate')
        AND value_normalized IS NOT NULL
      ORDER BY end_ms, start_ms
      """
    ).map { SignalSample(timeMs: $0.optionalInt64(0) ?? 0, value: $0[1].double ?? .nan) }
  }

  /// The person's year of birth from the Health export, or nil when none was imported.
  package func birthYear() throws(StoreError) -> Int? {
    try connection.row("SELECT birth_year FROM person WHERE id = 1")?.optionalInt64(0).map {
      Int($0)
    }
  }

  /// The mood inputs of the Watch and iPhone traces, in time order.
  package func moodInputs() throws(StoreError) -> [MoodInput] {
    try connection.rows(
      "SELECT time_ms, offset_s, device, tap, valence, energy FROM mood_inputs ORDER BY time_ms, id"
    ).map { r in
      MoodInput(
        time: Timestamp(
          millisecondsSinceEpoch: r.optionalInt64(0) ?? 0, utcOffsetSeconds: Int32(r.int(1))),
        device: r.string(2), tap: r.optionalInt64(3).map { Int($0) }, valence: r[4].double,
        energy: r[5].double)
    }
  }
}
