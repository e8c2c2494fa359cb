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
  let history: SynthHistory
  let out: OutputFile
  /// Routes of outdoor workouts, for the zip's `workout-routes/` folder: (file name, GPX).
  private(set) var routes: [(name: String, gpx: String)] = []
  private var line = TextBuilder()
  private var rng: SplitMix64
  private var activeEnergyByDay: [Double]
  /// The iOS 16 release (2022-09-12): sleep stages and mindful values change here.
  static let iOS16Ms: Int64 = 1_662_940_800_000

  init(history: SynthHistory, out: OutputFile) {
    self.history = history
    self.out = out
    rng = SplitMix64(seed: history.configuration.seed, stream: "health-export")
    activeEnergyByDay = [Double](repeating: 0, count: history.days.count)
  }

  private var scale: Double { history.configuration.scale }
  private var watch: String { history.person.watchName }
  private var phone: String { history.person.phoneName }

  mutating func write(progress: (Int) -> Void) throws {
    try header()
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
    try out.write("</HealthData>\n")
  }

  static var stepCount: Int { 13 }

  // MARK: - Header

  private mutating func header() throws {
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

  private enum Device { case watch, phone, cuff, none }

  private mutating func deviceString(_ device: Device, at ms: Int64) {
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

  private func sourceVersion(_ device: Device, at ms: Int64) -> String {
    switch device {
    case .watch: ms < Self.iOS16Ms ? "8.7" : "9.1"
    case .phone: ms < Self.iOS16Ms ? "15.6" : "16.1"
    case .cuff: "6.3.1"
    case .none: "1.0"
    }
  }

  /// Opens a `<Record` with everything but the value, which the caller adds.
  private mutating func openRecord(
    type: String, source: String, device: Device, unit: String?, start: Int64, end: Int64
  ) {
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

  private mutating func quantity(
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

  private mutating func category(
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
    try out.write(bytes: line.bytes)
  }

  private mutating func metadataEntry(_ key: String, _ value: String, indent: StaticString) {
    line.add(indent)
    line.add("<MetadataEntry key=\"")
    line.add(key)
    line.add("\" value=\"")
    line.xmlEscaped(value)
    line.add("\"/>\n")
  }

  /// Minutes of the day's span with the activity the writer is sampling.
  private func activity(at ms: Int64) -> Activity {
    Activity(rawValue: history.activity[history.minute(ms)]) ?? .rest
  }

  private var endMs: Int64 { history.t0Ms + Int64(history.minuteCount - 1) * 60_000 }

  // MARK: - Heart

  /// Heart rate: every ~5 minutes awake at rest, ~10 asleep, every 5 s in workouts (densities
  /// divided by `--scale`), with the motion context Apple attaches.
  private mutating func heartRate() throws {
    var t = history.t0Ms + 60_000
    let end = endMs
    while t < end {
      let now = activity(at: t)
      let value = WatchSensor.heartRate(history, at: t).rounded()
      let context: String =
        switch now {
        case .workout, .walking: "2"
        case .asleep: "0"
        default: "1"
        }
      try quantity(
        "HKQuantityTypeIdentifierHeartRate", source: watch, device: .watch, unit: "count/min",
        start: t, end: t, value: value, places: 0,
        metadata: [("HKMetadataKeyHeartRateMotionContext", context)])
      let gapSeconds: Double =
        switch now {
        case .workout: rng.uniform(4, 6)
        case .asleep: rng.uniform(480, 720)
        default: rng.uniform(200, 400)
        }
      t += Int64(max(1, gapSeconds / scale) * 1000)
    }
  }

  private mutating func restingAndWalkingHeartRate() throws {
    for plan in history.days {
      let start = history.calendar.utcMs(day: plan.day, localMinutes: 0)
      let end = history.calendar.utcMs(day: plan.day, localMinutes: 1439.9)
      try quantity(
        "HKQuantityTypeIdentifierRestingHeartRate", source: watch, device: .watch,
        unit: "count/min", start: start, end: end,
        value: (Physiology.restingHR(history, day: plan.day) + rng.normal(0, 1)).rounded(),
        places: 0)
    }
    for plan in history.days where !plan.walks.isEmpty || !plan.commutes.isEmpty {
      let start = history.calendar.utcMs(day: plan.day, localMinutes: 0)
      let end = history.calendar.utcMs(day: plan.day, localMinutes: 1439.9)
      try quantity(
        "HKQuantityTypeIdentifierWalkingHeartRateAverage", source: watch, device: .watch,
        unit: "count/min", start: start, end: end,
        value: (Physiology.restingHR(history, day: plan.day) + 40 + rng.normal(0, 3)).rounded(),
        places: 0)
    }
  }

  /// SDNN readings a few times a day, mostly asleep and at rest, each with its beat-to-beat
  /// list (`InstantaneousBeatsPerMinute`, local time of day only, as Apple writes it).
  private mutating func hrvSDNN() throws {
    for plan in history.days {
      var times: [Double] = []
      for _ in 0..<rng.int(2...3) { times.append(plan.bed + rng.uniform(60, 400)) }
      for _ in 0..<rng.int(1...2) { times.append(plan.wake + rng.uniform(30, 14 * 60)) }
      if plan.day > 0 { times.append(rng.uniform(10, max(11, plan.wake - 10))) }
      for minute in times.sorted() {
        let start = history.calendar.utcMs(day: plan.day, localMinutes: minute)
        guard start < endMs - 120_000 else { continue }
        if activity(at: start) == .workout || activity(at: start) == .walking { continue }
        try hrvRecord(at: start)
      }
    }
  }

  private mutating func hrvRecord(at start: Int64) throws {
    let hr = history.heartRate(at: start)
    let target = WatchSensor.hrv(history, at: start)
    let meanRR = 60_000 / hr
    var beats: [Int64] = []
    var rr: [Double] = []
    var t = Double(start)
    var last = 0.0
    while t < Double(start) + 60_000 {
      // RR intervals around the mean, correlated beat to beat, spread close to the SDNN.
      last = 0.5 * last + target * 0.87 * rng.normal()
      let interval = max(300, min(2000, meanRR + last))
      t += interval
      rr.append(interval)
      beats.append(Int64(t))
    }
    let mean = rr.reduce(0, +) / Double(rr.count)
    let sdnn = sqrt(rr.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(rr.count - 1))
    let end = beats.last ?? start
    line.clear()
    openRecord(
      type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: watch, device: .watch,
      unit: "ms", start: start, end: end)
    line.add(" value=\"")
    line.number(sdnn, 4)
    line.add("\">\n  <HeartRateVariabilityMetadataList>\n")
    let offset = history.calendar.offset(utcMs: start)
    for (i, beat) in beats.enumerated() {
      line.add("   <InstantaneousBeatsPerMinute bpm=\"")
      line.int(Int((60_000 / rr[i]).rounded()))
      line.add("\" time=\"")
      timeOfDay12h(beat, offset: offset)
      line.add("\"/>\n")
    }
    line.add("  </HeartRateVariabilityMetadataList>\n </Record>\n")
    try out.write(bytes: line.bytes)
  }

  /// `6:14:48.94 PM`: the en_US locale's time of day with centiseconds.
  private mutating func timeOfDay12h(_ utcMs: Int64, offset: Int32) {
    let local = utcMs + Int64(offset) * 1000
    let msOfDay = Int(((local % 86_400_000) + 86_400_000) % 86_400_000)
    let hour24 = msOfDay / 3_600_000
    let hour12 = hour24 % 12 == 0 ? 12 : hour24 % 12
    line.int(hour12)
    line.add(":")
    line.padded(msOfDay / 60_000 % 60, 2)
    line.add(":")
    line.padded(msOfDay / 1000 % 60, 2)
    line.add(".")
    line.padded(msOfDay % 1000 / 10, 2)
    line.add(hour24 < 12 ? " AM" : " PM")
  }

  private mutating func respiratoryRate() throws {
    for night in history.nights {
      var t = night.bedMs + 20 * 60_000
      while t < night.wakeMs {
        let end = t + Int64(rng.uniform(60, 180) * 1000)
        try quantity(
          "HKQuantityTypeIdentifierRespiratoryRate", source: watch, device: .watch,
          unit: "count/min", start: t, end: end, value: rng.normal(14.5, 0.8), places: 1)
        t += Int64(max(60, rng.uniform(1800, 3600) / scale) * 1000)
      }
    }
  }

  // MARK: - Movement

  /// Steps from both the iPhone and the Watch, overlapping as they do in life; the iPhone also
  /// writes distance. A few iPhone records carry a straight apostrophe in the source name.
  private mutating func stepsAndDistance() throws {
    for plan in history.days {
      var blocks = plan.commutes + plan.walks
      if let workout = plan.workout, workout.kind == .running { blocks.append(workout.block) }
      for block in blocks.sorted(by: { $0.start < $1.start }) {
        var minute = block.start
        let cadence = 105 + rng.normal(0, 6)
        while minute < block.end {
          let length = min(block.end - minute, rng.uniform(3, 9))
          let start = history.calendar.utcMs(day: plan.day, localMinutes: minute)
          let end = history.calendar.utcMs(day: plan.day, localMinutes: minute + length)
          let steps = (cadence * length).rounded()
          let source = rng.chance(0.03) ? "Jane's iPhone" : phone
          try quantity(
            "HKQuantityTypeIdentifierStepCount", source: source, device: .phone, unit: "count",
            start: start, end: end, value: steps, places: 0)
          try quantity(
            "HKQuantityTypeIdentifierStepCount", source: watch, device: .watch, unit: "count",
            start: start + 20_000, end: end - 10_000,
            value: (steps * rng.uniform(0.93, 1.04)).rounded(),
            places: 0)
          minute += length
        }
      }
      // Scattered steps through the waking day, iPhone only.
      for hour in stride(from: plan.wake + 30, to: plan.bed - 30, by: 70.0) {
        let start = history.calendar.utcMs(day: plan.day, localMinutes: hour)
        try quantity(
          "HKQuantityTypeIdentifierStepCount", source: phone, device: .phone, unit: "count",
          start: start, end: start + 240_000, value: Double(rng.int(15...260)), places: 0)
      }
    }
    for plan in history.days {
      for block in (plan.commutes + plan.walks).sorted(by: { $0.start < $1.start }) {
        let start = history.calendar.utcMs(day: plan.day, localMinutes: block.start)
        let end = history.calendar.utcMs(day: plan.day, localMinutes: block.end)
        try quantity(
          "HKQuantityTypeIdentifierDistanceWalkingRunning", source: phone, device: .phone,
          unit: "km", start: start, end: end, value: (block.end - block.start) * 0.08, places: 5)
      }
    }
  }

  /// Active energy from the Watch about once a minute while awake (densities × `--scale`).
  private mutating func activeEnergy() throws {
    for plan in history.days {
      var minute = plan.wake
      while minute < plan.bed {
        let length = max(0.25, rng.uniform(0.6, 1.4) / scale)
        let start = history.calendar.utcMs(day: plan.day, localMinutes: minute)
        let end = history.calendar.utcMs(day: plan.day, localMinutes: minute + length)
        let rate: Double =
          switch activity(at: start) {
          case .workout: plan.workout?.kind.kcalPerMinute ?? 8
          case .walking: 4.2
          case .asleep: 0.05
          default: 0.25
          }
        let value = max(0.001, rate * length * rng.uniform(0.8, 1.2))
        activeEnergyByDay[plan.day] += value
        try quantity(
          "HKQuantityTypeIdentifierActiveEnergyBurned", source: watch, device: .watch,
          unit: "Cal", start: start, end: end, value: value, places: 3)
        minute += length
      }
    }
  }

  /// Basal energy from the Watch every few minutes, around the clock.
  private mutating func basalEnergy() throws {
    var t = history.t0Ms
    let end = endMs
    while t < end {
      let asleep = activity(at: t) == .asleep
      let length = max(15, (asleep ? rng.uniform(500, 700) : rng.uniform(100, 200)) / scale)
      let stop = t + Int64(length * 1000)
      try quantity(
        "HKQuantityTypeIdentifierBasalEnergyBurned", source: watch, device: .watch, unit: "Cal",
        start: t, end: stop, value: 1.05 * length / 60 * rng.uniform(0.95, 1.05), places: 3)
      t = stop
    }
  }

  // MARK: - Blood pressure (a Correlation whose Records also stand at top level)

  private var bloodPressureTimes: [(Int64, Double, Double)] {
    var rng = SplitMix64(seed: history.configuration.seed, stream: "blood-pressure")
    var times: [(Int64, Double, Double)] = []
    for plan in history.days where plan.weekday == 0 && rng.chance(0.7) {
      let t = history.calendar.utcMs(day: plan.day, localMinutes: plan.wake + 40)
      times.append((t, rng.normal(118, 6).rounded(), rng.normal(76, 5).rounded()))
    }
    return times
  }

  private mutating func bloodPressureRecords() throws {
    let readings = bloodPressureTimes
    for (t, systolic, _) in readings {
      try quantity(
        "HKQuantityTypeIdentifierBloodPressureSystolic", source: "Health Mate", device: .cuff,
        unit: "mmHg", start: t, end: t, value: systolic, places: 0)
    }
    for (t, _, diastolic) in readings {
      try quantity(
        "HKQuantityTypeIdentifierBloodPressureDiastolic", source: "Health Mate", device: .cuff,
        unit: "mmHg", start: t, end: t, value: diastolic, places: 0)
    }
  }

  private mutating func bloodPressureCorrelations() throws {
    for (t, systolic, diastolic) in bloodPressureTimes {
      let offset = history.calendar.offset(utcMs: t)
      line.clear()
      line.add(
        " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health Mate\" sourceVersion=\"6.3.1\" device=\""
      )
      deviceString(.cuff, at: t)
      line.add("\" creationDate=\"")
      line.healthDate(t + 30_000, offset: offset)
      line.add("\" startDate=\"")
      line.healthDate(t, offset: offset)
      line.add("\" endDate=\"")
      line.healthDate(t, offset: offset)
      line.add("\">\n")
      metadataEntry("HKWasUserEntered", "0", indent: "  ")
      try out.write(bytes: line.bytes)
      for (type, value) in [
        ("HKQuantityTypeIdentifierBloodPressureSystolic", systolic),
        ("HKQuantityTypeIdentifierBloodPressureDiastolic", diastolic),
      ] {
        line.clear()
        line.add(" ")
        openRecord(type: type, source: "Health Mate", device: .cuff, unit: "mmHg", start: t, end: t)
        line.add(" value=\"")
        line.number(value, 0)
        line.add("\"/>\n")
        try out.write(bytes: line.bytes)
      }
      try out.write(" </Correlation>\n")
    }
  }

  // MARK: - Sleep and mindfulness

  private mutating func sleepAnalysis() throws {
    let type = "HKCategoryTypeIdentifierSleepAnalysis"
    for night in history.nights {
      let zone = history.days[night.day].tripPlace ?? "America/Los_Angeles"
      try category(
        type, source: phone, device: .phone, start: night.bedMs - 600_000,
        end: night.wakeMs + 300_000,
        value: "HKCategoryValueSleepAnalysisInBed", metadata: [("HKTimeZone", zone)])
      let a = history.minute(night.bedMs)
      let b = history.minute(night.wakeMs)
      var m = a
      let modern = night.bedMs >= Self.iOS16Ms
      while m < b {
        let stage = history.sleep[m]
        var n = m
        if modern {
          while n < b && history.sleep[n] == stage { n += 1 }
        } else {
          // Before iOS 16 the Watch wrote only "asleep" spans; awake minutes are gaps.
          while n < b
            && (history.sleep[n] == SleepStage.awake.rawValue)
              == (stage == SleepStage.awake.rawValue)
          {
            n += 1
          }
        }
        let value: String?
        switch (modern, SleepStage(rawValue: stage) ?? .core) {
        case (false, .awake): value = nil
        case (false, _): value = "HKCategoryValueSleepAnalysisAsleep"
        case (true, .deep): value = "HKCategoryValueSleepAnalysisAsleepDeep"
        case (true, .rem): value = "HKCategoryValueSleepAnalysisAsleepREM"
        case (true, .awake): value = "HKCategoryValueSleepAnalysisAwake"
        case (true, _): value = "HKCategoryValueSleepAnalysisAsleepCore"
        }
        if let value {
          try category(
            type, source: watch, device: .watch, start: history.t0Ms + Int64(m) * 60_000,
            end: history.t0Ms + Int64(n) * 60_000, value: value)
        }
        m = n
      }
    }
  }

  /// Mindful minutes after each breathing session: a value of NotApplicable after iOS 16,
  /// no value before it.
  private mutating func mindfulSessions() throws {
    for session in history.breathing {
      let end = session.startMs + Int64(session.pattern.sessionSeconds * 1000)
      try category(
        "HKCategoryTypeIdentifierMindfulSession", source: "Resonance", device: .none,
        start: session.startMs, end: end,
        value: session.startMs >= Self.iOS16Ms ? "HKCategoryValueNotApplicable" : nil)
    }
  }

  // MARK: - Workouts and activity summaries

  private mutating func workouts() throws {
    for plan in history.days {
      guard let workout = plan.workout else { continue }
      let start = history.calendar.utcMs(day: plan.day, localMinutes: workout.block.start)
      let end = history.calendar.utcMs(day: plan.day, localMinutes: workout.block.end)
      let offset = history.calendar.offset(utcMs: start)
      let minutes = workout.block.end - workout.block.start
      let energy = workout.kind.kcalPerMinute * minutes * 0.9
      let km =
        workout.kind == .running ? minutes / 5.6 : workout.kind == .cycling ? minutes / 2.4 : 0
      line.clear()
      line.add(" <Workout workoutActivityType=\"")
      line.add(workout.kind.rawValue)
      line.add("\" duration=\"")
      line.number(minutes, 4)
      line.add("\" durationUnit=\"min\"")
      if start < Self.iOS16Ms {
        // Older exports still carry the totals on the Workout itself.
        line.add(" totalDistance=\"")
        line.number(km * 0.621371, 4)
        line.add("\" totalDistanceUnit=\"mi\" totalEnergyBurned=\"")
        line.number(energy, 3)
        line.add("\" totalEnergyBurnedUnit=\"Cal\"")
      }
      line.add(" sourceName=\"")
      line.xmlEscaped(watch)
      line.add("\" sourceVersion=\"")
      line.add(sourceVersion(.watch, at: start))
      line.add("\" device=\"")
      deviceString(.watch, at: start)
      line.add("\" creationDate=\"")
      line.healthDate(end + 20_000, offset: offset)
      line.add("\" startDate=\"")
      line.healthDate(start, offset: offset)
      line.add("\" endDate=\"")
      line.healthDate(end, offset: offset)
      line.add("\">\n")
      metadataEntry("HKIndoorWorkout", workout.kind.isOutdoor ? "0" : "1", indent: "  ")
      metadataEntry("HKTimeZone", plan.tripPlace ?? "America/Los_Angeles", indent: "  ")
      line.add("  <MetadataEntry key=\"HKAverageMETs\" value=\"")
      line.number(workout.kind.kcalPerMinute * 0.9, 4)
      line.add(" kcal/hr·kg\"/>\n")
      if workout.kind.isOutdoor {
        line.add("  <MetadataEntry key=\"HKWeatherTemperature\" value=\"")
        line.int(rng.int(48...84))
        line.add(" degF\"/>\n  <MetadataEntry key=\"HKElevationAscended\" value=\"")
        line.int(rng.int(300...9000))
        line.add(" cm\"/>\n")
      }
      var t = start
      if workout.kind == .running {
        let kmMs = Int64(5.6 * 60_000)
        while t + kmMs < end {
          workoutEvent("HKWorkoutEventTypeSegment", at: t, offset: offset, minutes: 5.6)
          t += kmMs
        }
      }
      if rng.chance(0.3) {
        let pause = start + (end - start) / 2
        workoutEvent("HKWorkoutEventTypePause", at: pause, offset: offset, minutes: nil)
        workoutEvent("HKWorkoutEventTypeResume", at: pause + 45_000, offset: offset, minutes: nil)
      }
      let hrs = stride(from: start, to: end, by: 5_000).map {
        WatchSensor.heartRate(history, at: $0)
      }
      statistics(
        "HKQuantityTypeIdentifierActiveEnergyBurned", start, end, offset, sum: energy, unit: "Cal")
      statistics(
        "HKQuantityTypeIdentifierHeartRate", start, end, offset,
        average: hrs.reduce(0, +) / Double(max(1, hrs.count)), minimum: hrs.min() ?? 0,
        maximum: hrs.max() ?? 0, unit: "count/min")
      if km > 0 {
        statistics(
          workout.kind == .running
            ? "HKQuantityTypeIdentifierDistanceWalkingRunning"
            : "HKQuantityTypeIdentifierDistanceCycling",
          start, end, offset, sum: km, unit: "km")
      }
      if workout.kind.isOutdoor {
        let name = routeName(start, offset: offset)
        line.add("  <WorkoutRoute sourceName=\"")
        line.xmlEscaped(watch)
        line.add("\" sourceVersion=\"")
        line.add(sourceVersion(.watch, at: start))
        line.add("\" creationDate=\"")
        line.healthDate(end + 60_000, offset: offset)
        line.add("\" startDate=\"")
        line.healthDate(start, offset: offset)
        line.add("\" endDate=\"")
        line.healthDate(end, offset: offset)
        line.add("\">\n   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n")
        line.add("   <FileReference path=\"/workout-routes/\(name)\"/>\n  </WorkoutRoute>\n")
        if history.configuration.writesZip {
          routes.append((name, gpx(start: start, end: end)))
        }
      }
      line.add(" </Workout>\n")
      try out.write(bytes: line.bytes)
    }
  }

  private mutating func workoutEvent(_ type: String, at t: Int64, offset: Int32, minutes: Double?) {
    line.add("  <WorkoutEvent type=\"")
    line.add(type)
    line.add("\" date=\"")
    line.healthDate(t, offset: offset)
    if let minutes {
      line.add("\" duration=\"")
      line.number(minutes, 4)
      line.add("\" durationUnit=\"min")
    }
    line.add("\"/>\n")
  }

  private mutating func statistics(
    _ type: String, _ start: Int64, _ end: Int64, _ offset: Int32, average: Double? = nil,
    minimum: Double? = nil, maximum: Double? = nil, sum: Double? = nil, unit: String
  ) {
    line.add("  <WorkoutStatistics type=\"")
    line.add(type)
    line.add("\" startDate=\"")
    line.healthDate(start, offset: offset)
    line.add("\" endDate=\"")
    line.healthDate(end, offset: offset)
    for (name, value) in [
      ("average", average), ("minimum", minimum), ("maximum", maximum), ("sum", sum),
    ] {
      if let value {
        line.add("\" \(name)=\"")
        line.number(value, 4)
      }
    }
    line.add("\" unit=\"")
    line.add(unit)
    line.add("\"/>\n")
  }

  /// `route_2022-06-01_6.41pm.gpx`, named by the local start time as the Health app does.
  private func routeName(_ start: Int64, offset: Int32) -> String {
    var text = TextBuilder()
    text.civil(start + Int64(offset) * 1000)
    let stamp = String(decoding: text.bytes, as: UTF8.self)
    let hour = Int(stamp.dropFirst(11).prefix(2)) ?? 0
    let minute = stamp.dropFirst(14).prefix(2)
    let h12 = hour % 12 == 0 ? 12 : hour % 12
    return "route_\(stamp.prefix(10))_\(h12).\(minute)\(hour < 12 ? "am" : "pm").gpx"
  }

  /// A route's GPX, drawn from its own stream so that writing routes (`--zip`) leaves the
  /// export's bytes exactly as without them.
  private func gpx(start: Int64, end: Int64) -> String {
    var rng = SplitMix64(seed: history.configuration.seed ^ UInt64(start), stream: "route")
    var text = TextBuilder()
    text.add(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Apple Health Export\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n <trk>\n  <trkseg>\n"
    )
    var lat = 37.7749 + rng.normal(0, 0.01)
    var lon = -122.4194 + rng.normal(0, 0.01)
    for t in stride(from: start, to: end, by: 10_000) {
      lat += rng.normal(0, 0.0002)
      lon += rng.normal(0, 0.0002)
      text.add("   <trkpt lon=\"")
      text.fixed(lon, 6)
      text.add("\" lat=\"")
      text.fixed(lat, 6)
      text.add("\"><ele>")
      text.fixed(12 + rng.normal(0, 2), 2)
      text.add("</ele><time>")
      text.isoUTC(t, milliseconds: false)
      text.add("</time></trkpt>\n")
    }
    text.add("  </trkseg>\n </trk>\n</gpx>\n")
    return String(decoding: text.bytes, as: UTF8.self)
  }

  private mutating func activitySummaries() throws {
    for plan in history.days {
      var date = TextBuilder()
      date.civil((history.calendar.firstDay + Int64(plan.day)) * 86_400_000)
      line.clear()
      line.add(" <ActivitySummary dateComponents=\"")
      line.bytes.append(contentsOf: date.bytes.prefix(10))
      line.add("\" activeEnergyBurned=\"")
      line.number(activeEnergyByDay[plan.day], 3)
      line.add(
        "\" activeEnergyBurnedGoal=\"450\" activeEnergyBurnedUnit=\"Cal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\""
      )
      let exercise = plan.workout.map { $0.block.end - $0.block.start } ?? 0
      line.int(Int(exercise + Double(plan.commutes.count) * 12))
      line.add("\" appleExerciseTimeGoal=\"30\" appleStandHours=\"")
      line.int(rng.int(7...14))
      line.add("\" appleStandHoursGoal=\"12\"/>\n")
      try out.write(bytes: line.bytes)
    }
  }
}
