import ResonanceIO
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the simulated person's Apple Health `export.xml`, as the Health app does: an
/// internal DTD with the export-version comment, `Record`s grouped by type, then Correlations,
/// Workouts and ActivitySummaries; dates in the offset of the day; device description strings
/// with escaped brackets and a fresh hex address per record; iOS 16's sleep stages after its
/// release and the older InBed/Asleep values before it.
struct HealthExportWriter {
  // The members that the steps in HealthExportWriter+Records.swift and +Workouts.swift use are
  // internal rather than private: Swift has no access level for the files of one type, and only
  // SynthWriter makes a HealthExportWriter. The rest stay private.
  let history: SynthHistory
  let out: OutputFile
  /// Routes of outdoor workouts, for the zip's `workout-routes/` folder: (file name, GPX).
  var routes: [(name: String, gpx: String)] = []
  var line = TextBuilder()
  var rng: SplitMix64
  var activeEnergyByDay: [Double]
  /// The instants whose records are written: every record is drawn, so that the draws are
  /// those of the whole export, and written when it starts in the window. An experiment's
  /// export is the history's own export before the plan's first day, then the whole
  /// period's records from it (`SynthWriter`).
  var window: Range<Int64> = .min ..< .max
  /// Where the open `<Record` starts.
  private var recordStart: Int64 = 0
  /// The iOS 16 release (2022-09-12): sleep stages and mindful values change here.
  static let iOS16Ms: Int64 = 1_662_940_800_000

  init(history: SynthHistory, out: OutputFile) {
    self.history = history
    self.out = out
    rng = SplitMix64(seed: history.configuration.seed, stream: "health-export")
    activeEnergyByDay = [Double](repeating: 0, count: history.days.count)
  }

  var scale: Double { history.configuration.scale }
  var watch: String { history.person.watchName }
  var phone: String { history.person.phoneName }

  mutating func write(progress: (Int) -> Void) throws {
    try writeHeader()
    try writeRecords(progress: progress)
    try writeEnd()
  }

  /// `</HealthData>`.
  func writeEnd() throws { try out.write("</HealthData>\n") }

  /// Every record, correlation, workout and activity summary, by type.
  mutating func writeRecords(progress: (Int) -> Void) throws {
    let steps: [(inout HealthExportWriter) throws -> Void] = [
      { try $0.heartRate() }, { try $0.restingAndWalkingHeartRate() }, { try $0.hrvSDNN() },
      { try $0.respiratoryRate() }, { try $0.stepsAndDistance() }, { try $0.activeEnergy() },
      { try $0.basalEnergy() }, { try $0.bloodPressureRecords() }, { try $0.sleepAnalysis() },
      { try $0.mindfulSessions() }, { try $0.bloodPressureCorrelations() },
      { try $0.workouts() }, { try $0.activitySummaries() },
    ]
    for (i, step) in steps.enumerated() {
      try step(&self)
      progress(i + 1)
    }
  }

  /// Writes the line when `time` is in the window.
  func emit(at time: Int64) throws {
    if window.contains(time) { try out.write(bytes: line.bytes) }
  }

  static var stepCount: Int { 13 }

  // MARK: - Header

  /// The DTD, `ExportDate` and `Me`.
  mutating func writeHeader() throws {
    try out.write(HealthExportWriter.dtd)
    let lastDay = history.days.count
    let exportMs = history.calendar.utcMs(day: lastDay, localMinutes: 9 * 60 + 12)
    line.clear()
    line.add("<HealthData locale=\"en_US\">\n <ExportDate value=\"")
    line.healthDate(exportMs, offset: history.calendar.offset(utcMs: exportMs))
    line.add("\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"")
    line.add(history.person.birthDate)
    line.add(
      "\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
    )
    try out.write(bytes: line.bytes)
  }

  // MARK: - Record writing

  enum Device { case watch, phone, cuff, none }

  mutating func deviceString(_ device: Device, at ms: Int64) {
    let address = "0x28" + String(rng.next() % 0xFFF_FFFF, radix: 16)
    switch device {
    case .watch:
      let software = ms < Self.iOS16Ms ? "8.7" : "9.1"
      line.add(
        "&lt;&lt;HKDevice: \(address)&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:\(software)&gt;"
      )
    case .phone:
      let software = ms < Self.iOS16Ms ? "15.6" : "16.1"
      line.add(
        "&lt;&lt;HKDevice: \(address)&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:\(software)&gt;"
      )
    case .cuff:
      line.add(
        "&lt;&lt;HKDevice: \(address)&gt;, name:BPM Connect, manufacturer:Withings, model:BPM Connect&gt;"
      )
    case .none: break
    }
  }

  func sourceVersion(_ device: Device, at ms: Int64) -> String {
    switch device {
    case .watch: ms < Self.iOS16Ms ? "8.7" : "9.1"
    case .phone: ms < Self.iOS16Ms ? "15.6" : "16.1"
    case .cuff: "6.3.1"
    case .none: "1.0"
    }
  }

  /// Opens a `<Record` with everything but the value, which the caller adds.
  mutating func openRecord(
    type: String, source: String, device: Device, unit: String?, start: Int64, end: Int64
  ) {
    recordStart = start
    line.add(" <Record type=\"")
    line.add(type)
    line.add("\" sourceName=\"")
    line.xmlEscaped(source)
    line.add("\" sourceVersion=\"")
    line.add(sourceVersion(device, at: start))
    if device != .none {
      line.add("\" device=\"")
      deviceString(device, at: start)
    }
    if let unit {
      line.add("\" unit=\"")
      line.add(unit)
    }
    let offset = history.calendar.offset(utcMs: start)
    line.add("\" creationDate=\"")
    line.healthDate(end + 60_000 + Int64(rng.int(0...240_000)), offset: offset)
    line.add("\" startDate=\"")
    line.healthDate(start, offset: offset)
    line.add("\" endDate=\"")
    line.healthDate(end, offset: offset)
    line.add("\"")
  }

  mutating func quantity(
    _ type: String, source: String, device: Device, unit: String, start: Int64, end: Int64,
    value: Double, places: Int, metadata: [(String, String)] = []
  ) throws {
    line.clear()
    openRecord(type: type, source: source, device: device, unit: unit, start: start, end: end)
    line.add(" value=\"")
    line.number(value, places)
    line.add("\"")
    try closeRecord(metadata: metadata)
  }

  mutating func category(
    _ type: String, source: String, device: Device, start: Int64, end: Int64, value: String?,
    metadata: [(String, String)] = []
  ) throws {
    line.clear()
    openRecord(type: type, source: source, device: device, unit: nil, start: start, end: end)
    if let value {
      line.add(" value=\"")
      line.add(value)
      line.add("\"")
    }
    try closeRecord(metadata: metadata)
  }

  /// Ends the open `<Record`: empty, or with its metadata entries; then writes the line.
  private mutating func closeRecord(metadata: [(String, String)]) throws {
    if metadata.isEmpty {
      line.add("/>\n")
    } else {
      line.add(">\n")
      for (key, value) in metadata { metadataEntry(key, value, indent: "  ") }
      line.add(" </Record>\n")
    }
    try emit(at: recordStart)
  }

  mutating func metadataEntry(_ key: String, _ value: String, indent: StaticString) {
    line.add(indent)
    line.add("<MetadataEntry key=\"")
    line.add(key)
    line.add("\" value=\"")
    line.xmlEscaped(value)
    line.add("\"/>\n")
  }

  /// Minutes of the day's span with the activity the writer is sampling.
  func activity(at ms: Int64) -> Activity {
    Activity(rawValue: history.activity[history.minute(ms)]) ?? .rest
  }

  var endMs: Int64 { history.t0Ms + Int64(history.minuteCount - 1) * 60_000 }
}
