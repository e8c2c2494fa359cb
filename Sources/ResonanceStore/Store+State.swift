import ResonanceModel

/// What the state engine reads from the store beyond heart rate and HRV (`signal(_:)`): the
/// resting baseline's records, the person's birth year, and the manual mood inputs.
extension Store {
  /// The Health export's resting heart-rate records (bpm), each placed at its end — the instant
  /// the day's value was complete, so a baseline never uses a value before it was known — in
  /// time order.
  package func restingHeartRates() throws(StoreError) -> [SignalSample] {
    try connection.fetch(
      SignalSample.self,
      """
      SELECT end_ms AS time_ms, value_normalized AS value FROM health_records
      WHERE type_id = (SELECT id FROM health_types
                       WHERE identifier = 'HKQuantityTypeIdentifierRestingHeartRate')
        AND value_normalized IS NOT NULL
      ORDER BY end_ms, start_ms
      """)
  }

  /// The person's year of birth from the Health export, or nil when none was imported.
  package func birthYear() throws(StoreError) -> Int? {
    try connection.row("SELECT birth_year FROM person WHERE id = 1")?.int64("birth_year").map {
      Int($0)
    }
  }

  /// The mood inputs of the Watch and iPhone traces, in time order.
  package func moodInputs() throws(StoreError) -> [MoodInput] {
    try connection.fetch(
      MoodInput.self,
      "SELECT time_ms, offset_s, device, tap, valence, energy FROM mood_inputs ORDER BY time_ms, id"
    )
  }
}

extension SignalSample: RowDecodable {
  /// A reading as `restingHeartRates()` selects it: `time_ms` and `value`.
  package init(row: Row) throws(StoreError) {
    self.init(timeMs: row.int64("time_ms") ?? 0, value: row.double("value") ?? .nan)
  }
}

extension MoodInput: RowDecodable {
  /// A `mood_inputs` row as `moodInputs()` selects it.
  package init(row: Row) throws(StoreError) {
    self.init(
      time: row.timestamp("time_ms", offset: "offset_s"), device: row.string("device"),
      tap: row.int64("tap").map { Int($0) }, valence: row.double("valence"),
      energy: row.double("energy"))
  }
}
