import ResonanceModel

/// Writes Health values into the store with prepared statements, inside the caller's
/// transaction. An exact duplicate (same type, source, start, end, value and unit) is stored
/// once; its metadata and beats are not written again.
///
/// Not `Sendable`: the writer thread owns it.
package final class HealthWriter {
  private let db: Connection
  private let importID: Int64
  /// Records the file added (not counting duplicates already in the store).
  package private(set) var recordsAdded = 0
  package private(set) var beatsAdded = 0
  package private(set) var workoutsAdded = 0

  /// The page cache while a Health file is written (`PRAGMA cache_size`, in KiB when
  /// negative): 4 MiB, a quarter of the store's. Records come type by type, in the identity
  /// index's order, so the pages in use are few; 4 MiB and 8 MiB import 1 GB exports in the
  /// same time (`docs/performance.md`).
  static let cacheSizePragma = -4096

  private var typeIDs: [String: Int64] = [:]
  private var sourceIDs: [String: Int64] = [:]
  private var deviceIDs: [HealthDevice: Int64] = [:]
  private var lastType: (identifier: String, id: Int64)?
  private var lastSource: (name: String, id: Int64)?
  private var lastDevice: (device: HealthDevice, id: Int64)?

  /// Records inserted by one statement when nothing needs their row ids (no beats, not in a
  /// Correlation): each statement's fixed cost (two cursors opened and closed, about four
  /// allocations, ending it) was about a fifth of a one-row insert's (docs/performance.md).
  static let defaultRecordsPerInsert = 16
  private let recordsPerInsert: Int
  /// Columns of a `health_records` row as the inserts bind them.
  private static let recordColumns: Int32 = 18

  private let insertRecord: Statement
  /// `insertRecord` for `recordsPerInsert` rows.
  private let insertRecords: Statement
  /// The metadata JSON of the record being written, in one buffer reused for every row.
  private var json: [UInt8] = []
  private let insertBeat: Statement
  private let linkCorrelation: Statement

  /// - Parameter recordsPerInsert: how many records one statement inserts when it can (tests
  ///   compare 1 with the default).
  init(store: Store, importID: Int64, recordsPerInsert: Int = defaultRecordsPerInsert)
    throws(StoreError)
  {
    precondition(recordsPerInsert >= 1)
    db = store.connection
    self.importID = importID
    self.recordsPerInsert = recordsPerInsert
    let insert = """
      INSERT OR IGNORE INTO health_records (import_id, type_id, source_id, source_version,
        device_id, unit, value_text, value, value_normalized, unit_normalized, creation_ms,
        creation_offset_s, start_ms, start_offset_s, end_ms, end_offset_s, correlation_id,
        metadata)
      VALUES
      """
    let row =
      "(" + Array(repeating: "?", count: Int(Self.recordColumns)).joined(separator: ", ") + ")"
    insertRecord = try db.prepare(insert + " " + row)
    insertRecords = try db.prepare(
      insert + " " + Array(repeating: row, count: recordsPerInsert).joined(separator: ",\n"))
    insertBeat = try db.prepare(
      "INSERT INTO health_beats (record_id, beat_index, time_ms, bpm) VALUES (?, ?, ?, ?)")
    linkCorrelation = try db.prepare(
      """
      UPDATE health_records SET correlation_id = ?
      WHERE type_id = ? AND source_id = ? AND start_ms = ? AND end_ms = ? AND value_text = ?
        AND unit = ? AND correlation_id IS NULL
      """)
  }

  /// Writes a batch of values in order.
  package func write(_ items: [HealthItem]) throws(StoreError) {
    // Read in place: an array's subscript copies each value out (every string and array in a
    // record retained, then released), on memory the reading thread allocated.
    try items.withUnsafeBufferPointer { (values) throws(StoreError) in
      // Records without beats are bound into `insertRecords`, a row at a time, and inserted
      // once it is full; anything else first inserts those bound so far one by one, so the
      // rows go in (and duplicates are told apart) in document order.
      var bound = 0
      for index in values.indices {
        if case .record(let record) = values[index], record.beats.isEmpty {
          try bind(record, correlation: nil, into: insertRecords, row: bound)
          bound += 1
          if bound == recordsPerInsert {
            try insertRecords.run()
            recordsAdded += db.changes
            bound = 0
          }
          continue
        }
        try insertOneByOne(values[(index - bound)..<index])
        bound = 0
        try write(values[index])
      }
      try insertOneByOne(values[(values.endIndex - bound)...])
    }
  }

  /// Inserts the records among `items` with the one-row statement, abandoning what was bound
  /// into `insertRecords` for them.
  private func insertOneByOne(_ items: UnsafeBufferPointer<HealthItem>.SubSequence)
    throws(StoreError)
  {
    guard !items.isEmpty else { return }
    insertRecords.reset()
    for index in items.indices {
      if case .record(let record) = items[index] { _ = try write(record, correlation: nil) }
    }
  }

  /// Writes one value, borrowed from its batch: the batch goes back to the reading thread,
  /// which frees the values it built.
  private func write(_ item: borrowing HealthItem) throws(StoreError) {
    switch item {
    case .record(let record): _ = try write(record, correlation: nil)
    case .correlation(let correlation): try write(correlation)
    case .workout(let workout): try write(workout)
    case .activitySummary(let summary): try write(summary)
    case .birthYear(let year):
      try db.execute(
        "INSERT OR REPLACE INTO person (id, birth_year, import_id) VALUES (1, ?, ?)",
        [year, importID])
    }
  }

  /// Inserts a record unless an identical one is stored; returns its new row id, or `nil`.
  private func write(_ r: HealthRecord, correlation: Int64?) throws(StoreError) -> Int64? {
    try bind(r, correlation: correlation, into: insertRecord, row: 0)
    try insertRecord.run()
    guard db.changes == 1 else { return nil }
    let id = db.lastInsertRowID
    recordsAdded += 1
    for (index, beat) in r.beats.enumerated() {
      insertBeat.bind(id, at: 1)
      insertBeat.bind(Int64(index), at: 2)
      insertBeat.bind(beat.timeMs, at: 3)
      insertBeat.bind(beat.bpm, at: 4)
      try insertBeat.run()
    }
    beatsAdded += r.beats.count
    return id
  }

  /// Binds a record as row `row` (from 0) of an insert into `health_records`.
  private func bind(_ r: HealthRecord, correlation: Int64?, into s: Statement, row: Int)
    throws(StoreError)
  {
    let at = Int32(row) * Self.recordColumns
    // Records come in long runs of one type, source, device and unit, and mostly one UTC
    // offset: those columns are bound only when they change.
    s.bindIfChanged(importID, at: at + 1)
    s.bindIfChanged(try typeID(r.type), at: at + 2)
    s.bindIfChanged(try sourceID(r.provenance.sourceName), at: at + 3)
    s.bindIfChanged(r.provenance.sourceVersion, at: at + 4)
    s.bindIfChanged(
      try r.provenance.device.map { (d) throws(StoreError) in try deviceID(d) }, at: at + 5)
    s.bindIfChanged(r.unit, at: at + 6)
    s.bindRowText(r.valueText, at: at + 7)
    s.bind(r.value, at: at + 8)
    s.bind(r.normalizedValue, at: at + 9)
    s.bindIfChanged(r.normalizedUnit, at: at + 10)
    s.bind(r.creation?.millisecondsSinceEpoch, at: at + 11)
    s.bindIfChanged(r.creation.map { Int64($0.utcOffsetSeconds) }, at: at + 12)
    s.bind(r.start.millisecondsSinceEpoch, at: at + 13)
    s.bindIfChanged(Int64(r.start.utcOffsetSeconds), at: at + 14)
    s.bind(r.end.millisecondsSinceEpoch, at: at + 15)
    s.bindIfChanged(Int64(r.end.utcOffsetSeconds), at: at + 16)
    s.bindIfChanged(correlation, at: at + 17)
    if r.metadata.isEmpty {
      s.bindIfChanged(nil as String?, at: at + 18)
    } else {
      json.removeAll(keepingCapacity: true)
      MetadataJSON.append(r.metadata, to: &json)
      s.bindRowText(utf8: json, at: at + 18)
    }
  }

  private func write(_ c: HealthCorrelation) throws(StoreError) {
    try db.execute(
      """
      INSERT OR IGNORE INTO health_correlations (import_id, type_id, source_id, source_version,
        device_id, creation_ms, creation_offset_s, start_ms, start_offset_s, end_ms, end_offset_s,
        metadata)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        importID, try typeID(c.type, kind: "correlation"), try sourceID(c.provenance.sourceName),
        c.provenance.sourceVersion,
        try c.provenance.device.map { (d) throws(StoreError) in try deviceID(d) },
        c.creation?.millisecondsSinceEpoch, c.creation.map { Int64($0.utcOffsetSeconds) },
        c.start.millisecondsSinceEpoch, Int64(c.start.utcOffsetSeconds),
        c.end.millisecondsSinceEpoch,
        Int64(c.end.utcOffsetSeconds), MetadataJSON.encode(c.metadata),
      ])
    guard db.changes == 1 else { return }
    let id = db.lastInsertRowID
    for record in c.records {
      // The same Record also stands at top level: stored once, linked to its Correlation.
      if try write(record, correlation: id) == nil {
        let s = linkCorrelation
        s.bind(id, at: 1)
        s.bind(try typeID(record.type), at: 2)
        s.bind(try sourceID(record.provenance.sourceName), at: 3)
        s.bind(record.start.millisecondsSinceEpoch, at: 4)
        s.bind(record.end.millisecondsSinceEpoch, at: 5)
        s.bind(record.valueText, at: 6)
        s.bind(record.unit, at: 7)
        try s.run()
      }
    }
  }

  private func write(_ w: HealthWorkout) throws(StoreError) {
    try db.execute(
      """
      INSERT OR IGNORE INTO workouts (import_id, activity_type, source_id, source_version,
        device_id, duration, duration_unit, total_distance, total_distance_unit,
        total_energy_burned, total_energy_burned_unit, time_zone, creation_ms,
        creation_offset_s, start_ms, start_offset_s, end_ms, end_offset_s, metadata)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        importID, w.activityType, try sourceID(w.provenance.sourceName), w.provenance.sourceVersion,
        try w.provenance.device.map { (d) throws(StoreError) in try deviceID(d) }, w.duration,
        w.durationUnit,
        w.totalDistance, w.totalDistanceUnit, w.totalEnergyBurned, w.totalEnergyBurnedUnit,
        w.timeZone, w.creation?.millisecondsSinceEpoch,
        w.creation.map { Int64($0.utcOffsetSeconds) },
        w.start.millisecondsSinceEpoch, Int64(w.start.utcOffsetSeconds),
        w.end.millisecondsSinceEpoch,
        Int64(w.end.utcOffsetSeconds), MetadataJSON.encode(w.metadata),
      ])
    guard db.changes == 1 else { return }
    let id = db.lastInsertRowID
    workoutsAdded += 1
    for s in w.statistics {
      try db.execute(
        """
        INSERT OR REPLACE INTO workout_statistics (workout_id, type, start_ms, start_offset_s,
          end_ms, end_offset_s, average, minimum, maximum, sum, unit)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          id, s.type, s.start?.millisecondsSinceEpoch, s.start.map { Int64($0.utcOffsetSeconds) },
          s.end?.millisecondsSinceEpoch, s.end.map { Int64($0.utcOffsetSeconds) }, s.average,
          s.minimum, s.maximum, s.sum, s.unit,
        ])
    }
    for e in w.events {
      try db.execute(
        """
        INSERT INTO workout_events (workout_id, type, date_ms, date_offset_s, duration, duration_unit)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          id, e.type, e.date.millisecondsSinceEpoch, Int64(e.date.utcOffsetSeconds), e.duration,
          e.durationUnit,
        ])
    }
    for r in w.routes {
      try db.execute(
        """
        INSERT INTO workout_routes (workout_id, source_name, start_ms, start_offset_s, end_ms,
          end_offset_s, file_path, inline_locations)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          id, r.sourceName, r.start?.millisecondsSinceEpoch,
          r.start.map { Int64($0.utcOffsetSeconds) },
          r.end?.millisecondsSinceEpoch, r.end.map { Int64($0.utcOffsetSeconds) }, r.filePath,
          r.inlineLocations,
        ])
    }
  }

  private func write(_ a: ActivitySummary) throws(StoreError) {
    func number(_ key: String) -> Double? { a.values[key].flatMap(Double.init) }
    let known: Set<String> = [
      "activeEnergyBurned", "activeEnergyBurnedGoal", "activeEnergyBurnedUnit", "appleMoveTime",
      "appleMoveTimeGoal", "appleExerciseTime", "appleExerciseTimeGoal", "appleStandHours",
      "appleStandHoursGoal",
    ]
    let other = a.values.filter { !known.contains($0.key) }.sorted { $0.key < $1.key }
      .map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    try db.execute(
      """
      INSERT OR IGNORE INTO activity_summaries (date, import_id, active_energy_burned,
        active_energy_burned_goal, active_energy_burned_unit, apple_move_time, apple_move_time_goal,
        apple_exercise_time, apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal,
        other)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        a.date, importID, number("activeEnergyBurned"), number("activeEnergyBurnedGoal"),
        a.values["activeEnergyBurnedUnit"], number("appleMoveTime") ?? number("appleMoveMinutes"),
        number("appleMoveTimeGoal") ?? number("appleMoveMinutesGoal"), number("appleExerciseTime"),
        number("appleExerciseTimeGoal"), number("appleStandHours"), number("appleStandHoursGoal"),
        other.isEmpty ? nil : other,
      ])
  }

  // MARK: - Lookups

  /// The id of a type, `kind` derived from the identifier unless given. Exports group Records
  /// by type, so the last lookup is checked first.
  private func typeID(_ identifier: String, kind: String? = nil) throws(StoreError) -> Int64 {
    if let last = lastType, last.identifier == identifier { return last.id }
    if let id = typeIDs[identifier] {
      lastType = (identifier, id)
      return id
    }
    let kind =
      kind
      ?? (identifier.hasPrefix("HKQuantityTypeIdentifier")
        ? "quantity" : identifier.hasPrefix("HKCategoryTypeIdentifier") ? "category" : "other")
    try db.execute(
      "INSERT OR IGNORE INTO health_types (identifier, kind) VALUES (?, ?)", [identifier, kind])
    let id =
      try db.row("SELECT id FROM health_types WHERE identifier = ?", [identifier])?.int64("id")
      ?? 0
    typeIDs[identifier] = id
    lastType = (identifier, id)
    return id
  }

  private func sourceID(_ name: String) throws(StoreError) -> Int64 {
    if let last = lastSource, last.name == name { return last.id }
    if let id = sourceIDs[name] {
      lastSource = (name, id)
      return id
    }
    let key = HealthProvenance.sourceKey(name)
    try db.execute(
      "INSERT OR IGNORE INTO health_sources (name, name_key) VALUES (?, ?)", [name, key])
    let id =
      try db.row("SELECT id FROM health_sources WHERE name_key = ?", [key])?.int64("id") ?? 0
    sourceIDs[name] = id
    lastSource = (name, id)
    return id
  }

  private func deviceID(_ device: HealthDevice) throws(StoreError) -> Int64 {
    if let last = lastDevice, last.device == device { return last.id }
    if let id = deviceIDs[device] {
      lastDevice = (device, id)
      return id
    }
    let values: [any SQLiteBindable] = [
      device.name, device.manufacturer, device.model, device.hardware, device.software,
    ]
    try db.execute(
      "INSERT OR IGNORE INTO health_devices (name, manufacturer, model, hardware, software) VALUES (?, ?, ?, ?, ?)",
      values)
    let id =
      try db.row(
        "SELECT id FROM health_devices WHERE name = ? AND manufacturer = ? AND model = ? AND hardware = ? AND software = ?",
        values)?.int64("id") ?? 0
    deviceIDs[device] = id
    lastDevice = (device, id)
    return id
  }
}
