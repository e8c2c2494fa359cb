/// The device a Health sample came from, parsed from the export's description string
/// (`<<HKDevice: 0x…>, name:…, manufacturer:…, model:…, hardware:…, software:…>`). The hex
/// address and any identifier in the string are never kept.
package struct HealthDevice: Sendable, Hashable {
  package var name = ""
  package var manufacturer = ""
  package var model = ""
  package var hardware = ""
  package var software = ""

  package init(
    name: String = "", manufacturer: String = "", model: String = "", hardware: String = "",
    software: String = ""
  ) {
    self.name = name
    self.manufacturer = manufacturer
    self.model = model
    self.hardware = hardware
    self.software = software
  }
}

/// A key and value from a `MetadataEntry`, as written.
package struct MetadataEntry: Sendable, Hashable {
  package var key: String
  package var value: String

  package init(key: String, value: String) {
    self.key = key
    self.value = value
  }
}

/// One beat of a beat-to-beat series: its absolute time and the instantaneous rate Apple gave.
package struct HealthBeat: Sendable, Equatable {
  package var timeMs: Int64
  package var bpm: Double

  package init(timeMs: Int64, bpm: Double) {
    self.timeMs = timeMs
    self.bpm = bpm
  }
}

/// Where a sample came from: the source name as written and its version and device.
package struct HealthProvenance: Sendable, Equatable {
  package var sourceName: String
  package var sourceVersion: String?
  package var device: HealthDevice?

  package init(sourceName: String, sourceVersion: String? = nil, device: HealthDevice? = nil) {
    self.sourceName = sourceName
    self.sourceVersion = sourceVersion
    self.device = device
  }
}

/// A `Record` element: a quantity or category sample.
package struct HealthRecord: Sendable, Equatable {
  /// The `type` attribute exactly as written, e.g. `HKQuantityTypeIdentifierHeartRate`.
  package var type: String
  package var provenance: HealthProvenance
  /// The unit as written (`count/min`, `Cal`), empty for categories.
  package var unit: String
  /// The value as written: a number, a category value, or empty when absent.
  package var valueText: String
  /// The value as a number, in `unit`; `nil` for category values.
  package var value: Double?
  /// The value in the unit the analysis uses (see `UnitNormalizer`), and that unit.
  package var normalizedValue: Double?
  package var normalizedUnit: String?
  package var creation: Timestamp?
  package var start: Timestamp
  package var end: Timestamp
  package var metadata: [MetadataEntry]
  package var beats: [HealthBeat]

  package init(
    type: String, provenance: HealthProvenance, unit: String, valueText: String, value: Double?,
    normalizedValue: Double? = nil, normalizedUnit: String? = nil, creation: Timestamp?,
    start: Timestamp, end: Timestamp, metadata: [MetadataEntry] = [], beats: [HealthBeat] = []
  ) {
    self.type = type
    self.provenance = provenance
    self.unit = unit
    self.valueText = valueText
    self.value = value
    self.normalizedValue = normalizedValue
    self.normalizedUnit = normalizedUnit
    self.creation = creation
    self.start = start
    self.end = end
    self.metadata = metadata
    self.beats = beats
  }

  /// `quantity` for `HKQuantityTypeIdentifier…`, `category` for `HKCategoryTypeIdentifier…`,
  /// `other` for anything else (stored all the same).
  package var kind: String {
    if type.hasPrefix("HKQuantityTypeIdentifier") { return "quantity" }
    if type.hasPrefix("HKCategoryTypeIdentifier") { return "category" }
    return "other"
  }
}

/// A `Correlation` (blood pressure, food) with the Records inside it.
package struct HealthCorrelation: Sendable, Equatable {
  package var type: String
  package var provenance: HealthProvenance
  package var creation: Timestamp?
  package var start: Timestamp
  package var end: Timestamp
  package var metadata: [MetadataEntry]
  package var records: [HealthRecord]

  package init(
    type: String, provenance: HealthProvenance, creation: Timestamp?, start: Timestamp,
    end: Timestamp, metadata: [MetadataEntry] = [], records: [HealthRecord] = []
  ) {
    self.type = type
    self.provenance = provenance
    self.creation = creation
    self.start = start
    self.end = end
    self.metadata = metadata
    self.records = records
  }
}

/// A `Workout` with its statistics, events, route summaries and metadata.
package struct HealthWorkout: Sendable, Equatable {
  /// A `WorkoutStatistics` element.
  package struct Statistic: Sendable, Equatable {
    package var type: String
    package var start: Timestamp?
    package var end: Timestamp?
    package var average: Double?
    package var minimum: Double?
    package var maximum: Double?
    package var sum: Double?
    package var unit: String?

    package init(type: String) { self.type = type }
  }

  /// A `WorkoutEvent` element.
  package struct Event: Sendable, Equatable {
    package var type: String
    package var date: Timestamp
    package var duration: Double?
    package var durationUnit: String?

    package init(
      type: String, date: Timestamp, duration: Double? = nil, durationUnit: String? = nil
    ) {
      self.type = type
      self.date = date
      self.duration = duration
      self.durationUnit = durationUnit
    }
  }

  /// A `WorkoutRoute`'s summary; its GPS points are never read.
  package struct Route: Sendable, Equatable {
    package var sourceName: String
    package var start: Timestamp?
    package var end: Timestamp?
    /// The `FileReference` path, e.g. `/workout-routes/route_2019-06-11_3.00pm.gpx`.
    package var filePath: String?
    /// Inline `Location` children of pre-2019 exports, counted and not kept.
    package var inlineLocations: Int

    package init(
      sourceName: String, start: Timestamp?, end: Timestamp?, filePath: String? = nil,
      inlineLocations: Int = 0
    ) {
      self.sourceName = sourceName
      self.start = start
      self.end = end
      self.filePath = filePath
      self.inlineLocations = inlineLocations
    }
  }

  package var activityType: String
  package var provenance: HealthProvenance
  package var duration: Double?
  package var durationUnit: String?
  package var totalDistance: Double?
  package var totalDistanceUnit: String?
  package var totalEnergyBurned: Double?
  package var totalEnergyBurnedUnit: String?
  package var creation: Timestamp?
  package var start: Timestamp
  package var end: Timestamp
  package var metadata: [MetadataEntry] = []
  package var statistics: [Statistic] = []
  package var events: [Event] = []
  package var routes: [Route] = []

  package init(
    activityType: String, provenance: HealthProvenance, creation: Timestamp?, start: Timestamp,
    end: Timestamp
  ) {
    self.activityType = activityType
    self.provenance = provenance
    self.creation = creation
    self.start = start
    self.end = end
  }

  /// The `HKTimeZone` metadata value, when the workout carries one.
  package var timeZone: String? { metadata.first { $0.key == "HKTimeZone" }?.value }
}

/// An `ActivitySummary`: one day's rings. Values are as written (units in the `…Unit` field).
package struct ActivitySummary: Sendable, Equatable {
  /// `yyyy-MM-dd`, a local date.
  package var date: String
  /// Every attribute but `dateComponents`, keyed as written.
  package var values: [String: String]

  package init(date: String, values: [String: String]) {
    self.date = date
    self.values = values
  }
}

extension HealthProvenance {
  /// The identity of a source name: typographic apostrophes and no-break spaces made plain, so
  /// `Jane's iPhone` and `Jane’s iPhone` are one source.
  package static func sourceKey(_ name: String) -> String {
    var key = ""
    key.reserveCapacity(name.utf8.count)
    for scalar in name.unicodeScalars {
      switch scalar {
      case "\u{2019}", "\u{2018}", "\u{02BC}", "\u{2032}": key.append("'")
      case "\u{00A0}", "\u{202F}", "\u{2007}": key.append(" ")
      default: key.unicodeScalars.append(scalar)
      }
    }
    return key
  }
}
