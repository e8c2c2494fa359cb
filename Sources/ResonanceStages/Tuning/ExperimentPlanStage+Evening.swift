import ResonanceBrain
import ResonanceModel
import ResonanceStore
import ResonanceTuning

/// `resonance experiment plan --question evening-music`: calm music, the person's usual or no
/// music in the hour before bed, randomised by evening, by that night's minutes asleep
/// (`docs/experiments.md`, "Evening music").
extension ExperimentPlanStage {
  /// The smallest worthwhile gain in minutes asleep without `--margin`.
  static let defaultMinutes = 15.0
  /// The calm list: the songs estimated to lower heart rate most, at most this many, and no
  /// fewer than `minimumCalmSongs` (a shorter list would repeat itself night after night).
  static let calmSongs = 30
  static let minimumCalmSongs = 10

  /// - Throws: `StageError.missingInput` without sleep records or song-effect estimates;
  ///   `StageError.badData` with too few songs estimated to calm, or too little history.
  func planEvenings(
    store: Store, inForce: UserPreferences, lastDecisionDay: CalendarDay, alpha: Double,
    family: (alpha: Double, spent: Double, held: Double)
  ) throws -> ExperimentPlanOutcome {
    let path = request.store.path
    let nights = SleepNights.nights(from: try store.sleepIntervals())
    guard let lastNight = nights.last?.eveningDay else {
      throw StageError(
        .missingInput,
        "\(path): no sleep records: an evening-music experiment is planned on the nights' "
          + "minutes asleep (ingest the Health export with the Watch's sleep first)")
    }

    // The calm list: the songs whose estimated heart-rate effect is lowest, below 0.
    let estimates = try store.effectEstimates().filter {
      $0.signal == .heartRate && $0.estimate.isFinite
    }
    guard !estimates.isEmpty else {
      throw StageError(
        .missingInput,
        "\(path): no song-effect estimates: the calm list is chosen from them (run resonance "
          + "analyze first)")
    }
    let calm = estimates.filter { $0.estimate < 0 }.sorted {
      ($0.estimate, $0.songID) < ($1.estimate, $1.songID)
    }.prefix(Self.calmSongs)
    guard calm.count >= Self.minimumCalmSongs else {
      throw StageError(
        .badData,
        "\(path): \(calm.count) songs are estimated to lower heart rate, fewer than the "
          + "\(Self.minimumCalmSongs) a calm list needs: listen more, and analyze again")
    }
    let songs = Dictionary(
      try store.songRecords().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let catalog = try store.songCatalogIDs()
    let list = calm.compactMap { estimate -> ExperimentPlan.Song? in
      guard let song = songs[estimate.songID] else { return nil }
      return .init(
        catalogID: catalog[estimate.songID], title: song.title, artist: song.artist,
        heartRateEffect: estimate.estimate)
    }
    let arms: [ExperimentPlan.Arm] = [
      .init(name: "usual", preferences: inForce, evening: .usual),
      .init(name: "calm", preferences: inForce, evening: .calm, songs: list),
      .init(name: "none", preferences: inForce, evening: .noMusic),
    ]

    // The last year of nights: minutes asleep by evening.
    let lastDay = max(lastDecisionDay.daysSinceEpoch, lastNight)
    let first = lastNight - Int64(Self.historyDays) + 1
    var outcomes = [Double?](repeating: nil, count: Self.historyDays)
    var bedtimes: [Int64: Double] = [:]
    for night in nights {
      let local =
        night.bedtime.millisecondsSinceEpoch + Int64(night.bedtime.utcOffsetSeconds) * 1000
      bedtimes[night.eveningDay] = Double(local - night.eveningDay * 86_400_000) / 60_000
      if night.eveningDay >= first, let asleep = night.asleepMs {
        outcomes[Int(night.eveningDay - first)] = Double(asleep) / 60_000
      }
    }
    let start = request.start ?? CalendarDay(daysSinceEpoch: lastDay + 1)
    var plan = try design(
      question: .eveningMusic, outcome: "minutes-asleep", block: "evening", arms: arms,
      outcomes: outcomes,
      gain: request.margin.map { ($0, "margin") } ?? (Self.defaultMinutes, "default"),
      start: start, alpha: alpha, family: family)
    // What the app would predict for the plan's first weeknight and first Friday or Saturday
    // night, from the history's nights.
    let prediction = BedtimePrediction(bedtimes: bedtimes)
    let days = (0..<7).map { start.daysSinceEpoch + Int64($0) }
    let weeknight = days.first { !BedtimePrediction.isWeekendNight($0) }!
    let weekend = days.first { BedtimePrediction.isWeekendNight($0) }!
    plan.evening = .init(
      windowMinutes: ExperimentPlan.Evening.standardWindowMinutes,
      musicMinutes: ExperimentPlan.Evening.standardMusicMinutes,
      dayStartHour: ExperimentPlan.Evening.standardDayStartHour,
      lookbackDays: BedtimePrediction.lookbackDays,
      weeknightBedtime: BedtimePrediction.clock(prediction.minutes(forEvening: weeknight)),
      weekendBedtime: BedtimePrediction.clock(prediction.minutes(forEvening: weekend)))
    let file = PreferenceFile(recommendation: .keep, preferences: inForce, experiment: plan)
    try OutputFiles.write(try file.encoded(as: request.encoding), to: request.out)
    return ExperimentPlanOutcome(plan: plan, out: request.out)
  }
}
