import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The export's Records, grouped by type as the Health app writes them: heart rate, HRV with
/// its beats, respiratory rate, steps and energy, blood pressure (with its Correlations), sleep
/// stages and mindful minutes.
extension HealthExportWriter {
  // MARK: - Heart

  /// Heart rate: every ~5 minutes awake at rest, ~10 asleep, every 5 s in workouts (densities
  /// divided by `--scale`), with the motion context Apple attaches.
  mutating func heartRate() throws {
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

  mutating func restingAndWalkingHeartRate() throws {
    for plan in history.days {
      let start = history.calendar.utcMs(day: plan.day, localMinutes: 0)
      let end = history.calendar.utcMs(day: plan.day, localMinutes: 1439.9)
      try quantity(
        "HKQuantityTypeIdentifierRestingHeartRate", source: watch, device: .watch,
        unit: "count/min", start: start, end: end,
        value: (Physiology.restingRecord(history, day: plan.day) + rng.normal(0, 1)).rounded(),
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
  mutating func hrvSDNN() throws {
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
    try emit(at: start)
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

  mutating func respiratoryRate() throws {
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
  mutating func stepsAndDistance() throws {
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
  mutating func activeEnergy() throws {
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
  mutating func basalEnergy() throws {
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

  mutating func bloodPressureRecords() throws {
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

  mutating func bloodPressureCorrelations() throws {
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
      try emit(at: t)
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
        try emit(at: t)
      }
      if window.contains(t) { try out.write(" </Correlation>\n") }
    }
  }

  // MARK: - Sleep and mindfulness

  mutating func sleepAnalysis() throws {
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
  mutating func mindfulSessions() throws {
    for session in history.breathing {
      let end = session.startMs + Int64(session.pattern.sessionSeconds * 1000)
      try category(
        "HKCategoryTypeIdentifierMindfulSession", source: "Resonance", device: .none,
        start: session.startMs, end: end,
        value: session.startMs >= Self.iOS16Ms ? "HKCategoryValueNotApplicable" : nil)
    }
  }
}
