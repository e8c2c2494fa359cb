import ResonanceIO
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads an Apple Health `export.xml` as SAX events and turns it into typed values: Records
/// (with metadata and beat-to-beat lists made absolute), Correlations with their Records,
/// Workouts with statistics, events and route summaries, ActivitySummaries, and from `Me` the
/// year of birth. A bad record is skipped with a warning naming its line; nothing else is lost.
///
/// Values go to `emit` in batches, in document order. Knows nothing of SQLite.
package final class AppleHealthReader: XMLEventHandler {
  /// The file as messages name it (`export.zip!apple_health_export/export.xml`).
  package let file: String
  package private(set) var counts = HealthReadCounts()
  package private(set) var diagnostics: [Diagnostic] = []
  /// Warnings beyond the ones kept in `diagnostics` are only counted.
  package private(set) var warningCount = 0
  private let exchange: ([HealthItem]) -> [HealthItem]
  private var batch: [HealthItem] = []
  private let batchSize: Int

  private var record: HealthRecord?
  /// The open Record's metadata and beats, gathered apart from it and moved in when it ends:
  /// appending to an array inside an optional stored property copies the whole record.
  private var recordMetadata: [MetadataEntry] = []
  private var lastMetadataCount = 1
  private var recordBeats: [HealthBeat] = []
  private var recordLine = 0
  private var correlation: HealthCorrelation?
  private var workout: HealthWorkout?
  private var route: HealthWorkout.Route?
  private var depth = 0
  private var strings = Interner()
  private var devices: [String: HealthDevice] = [:]
  /// The last device looked up and the key it was found under, kept apart rather than as an
  /// optional tuple, whose copy goes through the runtime's generic value witnesses.
  private var lastDeviceKey: String?
  private var lastDevice = HealthDevice()
  /// The metadata keys met lately, each with whether it names an identifier.
  private var metadataKeys = RecentStrings<Bool>(size: 256)
  /// The metadata values met lately, each with whether it holds an identifier: a value that
  /// repeats (a time zone, a version) is made into a string and judged once.
  private var metadataValues = RecentStrings<Bool>(size: 256)
  /// How deep the reader is in WorkoutActivity elements, whose children it passes over.
  private var activityDepth = 0
  /// The element names met in this document, by the address libxml2 keeps each at.
  private var elementNames: [(address: UnsafeRawPointer?, element: Element)] = []
  private var recordLayout: [(name: UnsafeRawPointer, field: RecordField)] = []
  /// Where the parser keeps the attribute names `key` and `value`, once met.
  private var metadataKeyName: UnsafeRawPointer?
  private var metadataValueName: UnsafeRawPointer?
  private enum MetadataField { case key, value, other }

  /// - Parameters:
  ///   - file: the name messages use.
  ///   - batchSize: items per call of `emit`.
  ///   - emit: receives the values in document order.
  package convenience init(
    file: String, batchSize: Int = 2048, emit: @escaping ([HealthItem]) -> Void
  ) {
    self.init(file: file, batchSize: batchSize) { full in
      emit(full)
      return []
    }
  }

  /// - Parameters:
  ///   - file: the name messages use.
  ///   - batchSize: items per batch.
  ///   - exchange: receives each batch in document order and returns an array to fill next. A
  ///     batch the consumer has finished with can come back this way: its storage is reused,
  ///     and its values are freed on the reader's thread, which allocated them.
  package init(
    file: String, batchSize: Int = 2048,
    exchange: @escaping ([HealthItem]) -> [HealthItem]
  ) {
    self.file = file
    self.batchSize = batchSize
    self.exchange = exchange
    batch.reserveCapacity(batchSize)
  }

  /// Hands over what is left in the batch; call once parsing has ended.
  package func flush() {
    guard !batch.isEmpty else { return }
    let full = batch
    batch = []
    batch = exchange(full)
    batch.removeAll(keepingCapacity: true)
    batch.reserveCapacity(batchSize)
  }

  private func send(_ item: consuming HealthItem) {
    batch.append(item)
    if batch.count >= batchSize { flush() }
  }

  private func warn(_ message: String, line: Int) {
    warningCount += 1
    if diagnostics.count < 1000 {
      diagnostics.append(Diagnostic(.warning, message, at: SourceLocation(file: file, line: line)))
    }
  }

  // MARK: - Events

  /// The elements the reader acts on.
  private enum Element {
    case record, metadataEntry, beat, workout, workoutStatistics, workoutEvent, workoutRoute
    case fileReference, location, correlation, activitySummary, me, healthData, passedOver
    case workoutActivity, other

    init(_ name: XMLText) {
      switch name.bytes.count {
      case 6 where name.equals("Record"): self = .record
      case 13 where name.equals("MetadataEntry"): self = .metadataEntry
      case 27 where name.equals("InstantaneousBeatsPerMinute"): self = .beat
      case 7 where name.equals("Workout"): self = .workout
      case 17 where name.equals("WorkoutStatistics"): self = .workoutStatistics
      case 12 where name.equals("WorkoutEvent"): self = .workoutEvent
      case 12 where name.equals("WorkoutRoute"): self = .workoutRoute
      case 13 where name.equals("FileReference"): self = .fileReference
      case 8 where name.equals("Location"): self = .location
      case 11 where name.equals("Correlation"): self = .correlation
      case 15 where name.equals("ActivitySummary"): self = .activitySummary
      case 2 where name.equals("Me"): self = .me
      case 10 where name.equals("HealthData"): self = .healthData
      case 15 where name.equals("WorkoutActivity"): self = .workoutActivity
      case _ where name.equals("ExportDate") || name.equals("HeartRateVariabilityMetadataList"):
        self = .passedOver
      default: self = .other
      }
    }
  }

  /// Which element `name` is. libxml2 keeps each name of a document at one address, so the
  /// names met so far answer by address, without comparing bytes (a few dozen at most: the
  /// export's element names; anything past that is compared).
  private func element(_ name: XMLText) -> Element {
    let address = UnsafeRawPointer(name.bytes.baseAddress)
    for known in elementNames where known.address == address { return known.element }
    let element = Element(name)
    if elementNames.count < 64 { elementNames.append((address, element)) }
    return element
  }

  package func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
    depth += 1
    let element = element(name)
    // A WorkoutActivity (iOS 16 on) repeats, for one activity of its Workout, statistics,
    // events and metadata the Workout itself carries: not added to the Workout twice.
    if activityDepth > 0 {
      if element == .workoutActivity { activityDepth += 1 }
      return
    }
    switch element {
    case .record:
      startRecord(attributes, line: line)
    case .metadataEntry:
      metadataEntry(attributes)
    case .beat:
      beat(attributes, line: line)
    case .workout:
      startWorkout(attributes, line: line)
    case .workoutStatistics:
      statistic(attributes)
    case .workoutEvent:
      workoutEvent(attributes, line: line)
    case .workoutRoute:
      let times = dates(attributes)
      route = HealthWorkout.Route(
        sourceName: attributes.value("sourceName").map(string) ?? "", start: times.start,
        end: times.end)
    case .fileReference:
      route?.filePath = attributes.value("path")?.string
    case .location:
      route?.inlineLocations += 1
    case .correlation:
      startCorrelation(attributes, line: line)
    case .activitySummary:
      activitySummary(attributes)
    case .me:
      if let birth = attributes.value("HKCharacteristicTypeIdentifierDateOfBirth"),
        birth.bytes.count >= 4,
        let date = FixedDateParser.date(birth.bytes)
      {
        send(.birthYear(Int(Timestamp.civil(fromDays: date).year)))
      }
    case .healthData:
      // A new document: its names are stored at new addresses.
      recordLayout = []
      elementNames = [(UnsafeRawPointer(name.bytes.baseAddress), .healthData)]
    case .workoutActivity:
      activityDepth = 1
    case .passedOver:
      break
    case .other:
      // ClinicalRecord, Audiogram, VisionPrescription and anything newer: named, not imported.
      if depth == 2 || (!record.isPresent && !workout.isPresent && !correlation.isPresent) {
        counts.notImported[name.string, default: 0] += 1
      }
    }
  }

  package func endElement(_ name: XMLText) {
    depth -= 1
    let element = element(name)
    if activityDepth > 0 {
      if element == .workoutActivity { activityDepth -= 1 }
      return
    }
    switch element {
    case .record:
      guard record.isPresent else { return }
      // Completed in place, then moved out: a copy would retain and release every string.
      record!.metadata = recordMetadata
      record!.beats = recordBeats
      if !recordMetadata.isEmpty { lastMetadataCount = min(recordMetadata.count, 32) }
      recordMetadata = []
      counts.records += correlation.isPresent ? 0 : 1
      counts.beats += correlation.isPresent ? 0 : recordBeats.count
      recordBeats = []
      if correlation.isPresent {
        correlation?.records.append(record.take()!)
      } else {
        send(.record(record.take()!))
      }
    case .correlation:
      guard let finished = correlation.take() else { return }
      counts.correlations += 1
      // Their Records also stand at top level (the export's DTD says so): not counted again.
      send(.correlation(finished))
    case .workout:
      guard let finished = workout.take() else { return }
      counts.workouts += 1
      send(.workout(finished))
    case .workoutRoute:
      if let finished = route { workout?.routes.append(finished) }
      route = nil
    default:
      break
    }
  }

  // MARK: - Elements

  private func startRecord(_ attributes: XMLAttributes, line: Int) {
    recordMetadata = []
    recordBeats = []
    var type: String?
    var sourceName: String?
    var sourceVersion: String?
    var device: HealthDevice?
    var unit = ""
    var valueText = ""
    var value: Double?
    var creation: Timestamp?
    var start: Timestamp?
    var end: Timestamp?
    var badDate: String?
    for i in 0..<attributes.count {
      let v = attributes.value(at: i)
      switch recordField(attributes, at: i) {
      case .type: type = strings.string(v.bytes, slot: .type)
      case .unit: unit = strings.string(v.bytes, slot: .unit)
      case .value:
        valueText = v.string
        value = number(v)
      case .sourceName: sourceName = strings.string(v.bytes, slot: .source)
      case .sourceVersion: sourceVersion = strings.string(v.bytes, slot: .version)
      case .device: device = self.device(v)
      case .creationDate:
        creation = FixedDateParser.healthDate(v.bytes)
        if creation == nil { badDate = "creationDate '\(v.string)'" }
      case .startDate:
        start = FixedDateParser.healthDate(v.bytes)
        if start == nil { badDate = "startDate '\(v.string)'" }
      case .endDate:
        end = FixedDateParser.healthDate(v.bytes)
        if end == nil { badDate = "endDate '\(v.string)'" }
      case .other: break
      }
    }
    guard let type, let sourceName, let start, let end, badDate == nil else {
      let missing = [
        type == nil ? "type" : nil, sourceName == nil ? "sourceName" : nil,
        start == nil && badDate == nil ? "startDate" : nil,
        end == nil && badDate == nil ? "endDate" : nil,
      ].compactMap { $0 }
      warn(
        badDate.map {
          "Record skipped: expected a date like 2024-01-15 08:30:00 -0800, found \($0)"
        }
          ?? "Record skipped: missing \(missing.joined(separator: ", "))", line: line)
      record = nil
      return
    }
    var normalized: (Double, String)?
    if let value, !unit.isEmpty { normalized = UnitNormalizer.normalize(value, unit: unit) }
    record = HealthRecord(
      type: type,
      provenance: HealthProvenance(
        sourceName: sourceName, sourceVersion: sourceVersion, device: device),
      unit: unit, valueText: valueText, value: value, normalizedValue: normalized?.0,
      normalizedUnit: normalized?.1, creation: creation, start: start, end: end)
    recordLine = line
  }

  /// A Record attribute the reader keeps.
  private enum RecordField {
    case type, unit, value, sourceName, sourceVersion, device, creationDate, startDate, endDate
    case other

    init(_ name: XMLText) {
      switch name.bytes.count {
      case 4 where name.equals("type"): self = .type
      case 4 where name.equals("unit"): self = .unit
      case 5 where name.equals("value"): self = .value
      case 10 where name.equals("sourceName"): self = .sourceName
      case 13 where name.equals("sourceVersion"): self = .sourceVersion
      case 6 where name.equals("device"): self = .device
      case 12 where name.equals("creationDate"): self = .creationDate
      case 9 where name.equals("startDate"): self = .startDate
      case 7 where name.equals("endDate"): self = .endDate
      default: self = .other
      }
    }
  }

  /// Which field Record attribute `index` is. Records come in long runs with the same
  /// attributes in the same order, and the parser hands over each name at one address per
  /// document, so the last Record's layout answers by address without reading the name.
  private func recordField(_ attributes: XMLAttributes, at index: Int) -> RecordField {
    let address = attributes.nameAddress(at: index)
    if index < recordLayout.count, recordLayout[index].name == address {
      return recordLayout[index].field
    }
    let field = RecordField(attributes.name(at: index))
    if index < recordLayout.count {
      recordLayout[index] = (address, field)
    } else {
      recordLayout.append((address, field))
    }
    return field
  }

  /// Which of a MetadataEntry's attributes attribute `index` is: told by the address the
  /// parser keeps its name at once `key` and `value` have been met, by its bytes until then.
  private func metadataField(_ attributes: XMLAttributes, at index: Int) -> MetadataField {
    let address = attributes.nameAddress(at: index)
    if address == metadataKeyName { return .key }
    if address == metadataValueName { return .value }
    let name = attributes.name(at: index)
    if name.equals("key") {
      metadataKeyName = address
      return .key
    }
    if name.equals("value") {
      metadataValueName = address
      return .value
    }
    return .other
  }

  private func metadataEntry(_ attributes: XMLAttributes) {
    var keyText: XMLText?
    var valueText: XMLText?
    for i in 0..<attributes.count {
      switch metadataField(attributes, at: i) {
      case .key: keyText = attributes.value(at: i)
      case .value: valueText = attributes.value(at: i)
      case .other: break
      }
    }
    guard let keyText else { return }
    let (key, isIdentifying) = metadataKeys.string(keyText.bytes) {
      PrivacyFilter.isIdentifyingKey($0)
    }
    if isIdentifying {
      counts.metadataDropped += 1
      return
    }
    var value = ""
    if let valueText {
      // A value met lately was judged then; a new one is judged on its bytes.
      let (string, identifies) = metadataValues.string(valueText.bytes) { _ in
        PrivacyFilter.containsIdentifier(valueText.bytes)
      }
      if identifies {
        counts.metadataDropped += 1
        return
      }
      value = string
    }
    let entry = MetadataEntry(key: key, value: value)
    if route.isPresent {
      return  // route metadata (sync versions) is not kept
    } else if record.isPresent {
      // Room for as many entries as the last record had, at once: growing from empty
      // reallocated three or four times per record.
      if recordMetadata.capacity == 0 { recordMetadata.reserveCapacity(lastMetadataCount) }
      recordMetadata.append(entry)
    } else if correlation.isPresent {
      correlation?.metadata.append(entry)
    } else if workout.isPresent {
      workout?.metadata.append(entry)
    }
  }

  /// A beat of an HRV record's list: the time of day is made absolute from the record's start
  /// (its local date and offset), rolling over midnight when the times wrap.
  private func beat(_ attributes: XMLAttributes, line: Int) {
    guard let start = record?.start else { return }
    guard let time = attributes.value("time"), let tod = FixedDateParser.timeOfDay(time.bytes)
    else {
      warn(
        "beat skipped: expected a time like 6:14:48.94 PM, found '\(attributes.value("time")?.string ?? "")'",
        line: line)
      return
    }
    let bpm = attributes.value("bpm").flatMap(number) ?? 0
    let offsetMs = Int64(start.utcOffsetSeconds) * 1000
    let localStart = start.millisecondsSinceEpoch + offsetMs
    let midnight = localStart - ((localStart % 86_400_000) + 86_400_000) % 86_400_000
    var local = midnight + tod
    if let last = recordBeats.last {
      let lastLocal = last.timeMs + offsetMs
      while local < lastLocal - 43_200_000 { local += 86_400_000 }
    } else {
      if local < localStart - 43_200_000 { local += 86_400_000 }
      if local > localStart + 43_200_000 { local -= 86_400_000 }
    }
    recordBeats.append(HealthBeat(timeMs: local - offsetMs, bpm: bpm))
  }

  private func startCorrelation(_ attributes: XMLAttributes, line: Int) {
    let times = dates(attributes)
    guard let type = attributes.value("type").map(string),
      let source = attributes.value("sourceName").map(string),
      let start = times.start, let end = times.end
    else {
      warn("Correlation skipped: missing type, sourceName or dates", line: line)
      return
    }
    correlation = HealthCorrelation(
      type: type, provenance: provenance(attributes, source: source), creation: times.creation,
      start: start, end: end)
  }

  private func startWorkout(_ attributes: XMLAttributes, line: Int) {
    let times = dates(attributes)
    guard let type = attributes.value("workoutActivityType").map(string),
      let source = attributes.value("sourceName").map(string), let start = times.start,
      let end = times.end
    else {
      warn("Workout skipped: missing workoutActivityType, sourceName or dates", line: line)
      return
    }
    var w = HealthWorkout(
      activityType: type, provenance: provenance(attributes, source: source),
      creation: times.creation,
      start: start, end: end)
    w.duration = attributes.value("duration").flatMap(number)
    w.durationUnit = attributes.value("durationUnit")?.string
    w.totalDistance = attributes.value("totalDistance").flatMap(number)
    w.totalDistanceUnit = attributes.value("totalDistanceUnit")?.string
    w.totalEnergyBurned = attributes.value("totalEnergyBurned").flatMap(number)
    w.totalEnergyBurnedUnit = attributes.value("totalEnergyBurnedUnit")?.string
    workout = w
  }

  private func statistic(_ attributes: XMLAttributes) {
    guard workout.isPresent, let type = attributes.value("type").map(string) else { return }
    var s = HealthWorkout.Statistic(type: type)
    let times = dates(attributes)
    s.start = times.start
    s.end = times.end
    s.average = attributes.value("average").flatMap(number)
    s.minimum = attributes.value("minimum").flatMap(number)
    s.maximum = attributes.value("maximum").flatMap(number)
    s.sum = attributes.value("sum").flatMap(number)
    s.unit = attributes.value("unit")?.string
    workout?.statistics.append(s)
  }

  private func workoutEvent(_ attributes: XMLAttributes, line: Int) {
    guard workout.isPresent else { return }
    guard let type = attributes.value("type").map(string),
      let date = attributes.value("date").flatMap({ FixedDateParser.healthDate($0.bytes) })
    else {
      warn("WorkoutEvent skipped: missing type or date", line: line)
      return
    }
    workout?.events.append(
      HealthWorkout.Event(
        type: type, date: date, duration: attributes.value("duration").flatMap(number),
        durationUnit: attributes.value("durationUnit")?.string))
  }

  private func activitySummary(_ attributes: XMLAttributes) {
    var date = ""
    var values: [String: String] = [:]
    for i in 0..<attributes.count {
      let key = attributes.name(at: i).string
      if key == "dateComponents" {
        date = attributes.value(at: i).string
      } else {
        values[key] = attributes.value(at: i).string
      }
    }
    counts.activitySummaries += 1
    send(.activitySummary(ActivitySummary(date: date, values: values)))
  }

  // MARK: - Attribute helpers

  private func dates(_ attributes: XMLAttributes) -> (
    creation: Timestamp?, start: Timestamp?, end: Timestamp?
  ) {
    (
      attributes.value("creationDate").flatMap { FixedDateParser.healthDate($0.bytes) },
      attributes.value("startDate").flatMap { FixedDateParser.healthDate($0.bytes) },
      attributes.value("endDate").flatMap { FixedDateParser.healthDate($0.bytes) }
    )
  }

  private func provenance(_ attributes: XMLAttributes, source: String) -> HealthProvenance {
    HealthProvenance(
      sourceName: source, sourceVersion: attributes.value("sourceVersion").map(string),
      device: attributes.value("device").map(device))
  }

  /// The device of a description string. The hex address differs on every record, so the
  /// cache is keyed on the text without it (`name:…, model:…`): interned without a copy per
  /// record when the address leads, as Apple writes it; from a copy without the address's
  /// digits when it comes elsewhere.
  private func device(_ text: XMLText) -> HealthDevice {
    var rest = text.bytes
    let key: String
    if rest.count > 2, rest[0] == UInt8(ascii: "<"), rest[1] == UInt8(ascii: "<"),
      let close = rest.firstIndex(of: UInt8(ascii: ">"))
    {
      rest = UnsafeBufferPointer(rebasing: rest[(close + 1)...])
      key = strings.string(rest, slot: .device)
    } else if let address = Self.hexAddress(in: rest) {
      var copy = Array(rest[..<address.lowerBound])
      copy += rest[address.upperBound...]
      key = copy.withUnsafeBufferPointer { strings.string($0, slot: .device) }
    } else {
      key = strings.string(rest, slot: .device)
    }
    if lastDeviceKey == key { return lastDevice }
    let device: HealthDevice
    if let known = devices[key] {
      device = known
    } else {
      device = DeviceDescription.parse(Substring(text.string))
      devices[key] = device
    }
    lastDeviceKey = key
    lastDevice = device
    return device
  }

  private func string(_ text: XMLText) -> String { strings.string(text.bytes) }

  /// A decimal number, or `nil` when the text is not entirely one.
  private func number(_ text: XMLText) -> Double? {
    let b = text.bytes
    guard b.count > 0, b.count < 64 else { return nil }
    if let value = AppleHealthReader.plainDecimal(b) { return value }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: b.count + 1) { buffer in
      for i in 0..<b.count { buffer[i] = CChar(bitPattern: b[i]) }
      buffer[b.count] = 0
      var end: UnsafeMutablePointer<CChar>?
      let value = strtod(buffer.baseAddress!, &end)
      guard let end, end == buffer.baseAddress! + b.count, value.isFinite else { return nil }
      return value
    }
  }
}

extension Optional {
  /// Whether a value is present. Tested by pattern: `!= nil` on an `Equatable` model value
  /// copies it and goes through `==`, which costs in the per-element paths.
  fileprivate var isPresent: Bool {
    if case .some = self { true } else { false }
  }
}
