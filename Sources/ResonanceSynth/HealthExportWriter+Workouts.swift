import ResonanceModel

/// The export's Workouts, with their events, statistics and routes (GPX for the zip), and the
/// ActivitySummary of each day.
extension HealthExportWriter {
  // MARK: - Workouts and activity summaries

  mutating func workouts() throws {
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
        if history.configuration.writesZip, window.contains(start) {
          routes.append((name, gpx(start: start, end: end)))
        }
      }
      line.add(" </Workout>\n")
      try emit(at: start)
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

  mutating func activitySummaries() throws {
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
      try emit(at: history.calendar.utcMs(day: plan.day, localMinutes: 0))
    }
  }
}
