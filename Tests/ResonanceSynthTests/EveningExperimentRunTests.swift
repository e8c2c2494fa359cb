import ResonanceModel
import ResonanceTuning
import Testing

@testable import ResonanceSynth

@Suite("synth carries out an evening-music plan: calm music, the usual or none before bed")
struct EveningExperimentRunTests {
  /// Usual, calm and no music before bed, evening by evening, for 42 days from 2022-08-01,
  /// after June and July; the calm list is the library's ten songs that lower heart rate most.
  static func run(asleep: Double? = 15) -> (SynthHistory, ExperimentPlan) {
    var configuration = ExperimentRunTests.history
    configuration.months = 4
    configuration.eveningAsleepMinutes = asleep
    let songs = LibraryGenerator.songs(
      count: configuration.songs, seed: configuration.seed, effectScale: 1, tempoSlope: nil)
    let calm = songs.sorted { $0.hrEffectBPM < $1.hrEffectBPM }.prefix(10).map {
      ExperimentPlan.Song(
        catalogID: $0.catalogID, title: $0.title, artist: $0.artist,
        heartRateEffect: $0.hrEffectBPM)
    }
    let arms = [
      ExperimentPlan.Arm(name: "usual", preferences: .appDefault, evening: .usual),
      ExperimentPlan.Arm(name: "calm", preferences: .appDefault, evening: .calm, songs: calm),
      ExperimentPlan.Arm(name: "none", preferences: .appDefault, evening: .noMusic),
    ]
    var plan = ExperimentRunTests.plan()
    let start = CalendarDay("2022-08-01")!
    let schedule = ExperimentSchedule(arms: 3, start: start, cycles: 2, seed: 9)
    plan.question = .eveningMusic
    plan.arms = arms
    plan.days = schedule.days
    plan.assignment = [:]
    for (i, arm) in schedule.assignment.enumerated() {
      plan.assignment[CalendarDay(daysSinceEpoch: start.daysSinceEpoch + Int64(i)).description] =
        arms[arm].name
    }
    plan.evening = .init(
      windowMinutes: 60, musicMinutes: 10, dayStartHour: 6, lookbackDays: 28,
      weeknightBedtime: "23:00", weekendBedtime: "23:45")
    configuration.experiment = plan
    return (LifeSimulator.run(configuration), plan)
  }

  @Test(
    "on no-music evenings the DJ plays nothing from the hour before the predicted bedtime, only the person by hand; on calm evenings the DJ plays the calm list then; nights after music before bed gain the planted minutes"
  )
  func evenings() throws {
    let (history, plan) = Self.run()
    let calmIDs = Set(plan.arms[1].songs!.map(\.catalogID))
    var (calmEvenings, noneEvenings, handPlayed, calmWithMusic) = (0, 0, 0, 0)
    for day in 0..<history.days.count {
      guard let arm = history.eveningArm(day: day) else { continue }
      let from = history.calendar.utcMs(
        day: day, localMinutes: history.predictedBedtime(day: day) - 60)
      let bed = history.calendar.utcMs(day: day, localMinutes: history.days[day].bed)
      let window = history.plays.filter { $0.startMs >= from && $0.startMs < bed }
      switch arm.evening {
      case .noMusic?:
        noneEvenings += 1
        #expect(window.allSatisfy { !$0.byDJ }, "day \(day): the DJ played on a no-music evening")
        if !window.isEmpty { handPlayed += 1 }
      case .calm?:
        calmEvenings += 1
        let dj = window.filter(\.byDJ)
        #expect(dj.allSatisfy { calmIDs.contains(history.songs[$0.song].catalogID) })
        if Physiology.eveningMusic(history, bedMs: bed, hours: 1) { calmWithMusic += 1 }
      default:
        break
      }
    }
    #expect(calmEvenings == 14 && noneEvenings == 14)
    #expect(calmWithMusic >= 11, "the calm arm's evenings mostly have music before bed")
    #expect(handPlayed >= 1 && handPlayed <= 8, "some no-music evenings are broken by hand")
    let nights = history.nights.compactMap { n in n.eveningMusic.map { ($0, n.asleepGainMinutes!) }
    }
    #expect(nights.count == history.nights.count)
    #expect(nights.filter(\.0).allSatisfy { abs($0.1 - 15) < 1e-9 || $0.1 < 15 })
    #expect(nights.filter { !$0.0 }.allSatisfy { $0.1 == 0 })
    #expect(nights.filter(\.0).map(\.1).reduce(0, +) / Double(nights.filter(\.0).count) > 14.5)
  }

  @Test("the app's bedtime: the median of the last 28 days' nights of the kind")
  func bedtime() {
    // Evenings 0…27 (1970-01-01 was a Thursday): weeknights at 23:00 + d minutes,
    // Friday and Saturday nights at 00:30.
    var bedtimes: [Int64: Double] = [:]
    for day in Int64(0)..<28 {
      bedtimes[day] = BedtimePrediction.isWeekendNight(day) ? 24.5 * 60 : 23 * 60 + Double(day)
    }
    let prediction = BedtimePrediction(bedtimes: bedtimes)
    #expect(BedtimePrediction.isWeekendNight(1) && BedtimePrediction.isWeekendNight(2))
    #expect(!BedtimePrediction.isWeekendNight(0) && !BedtimePrediction.isWeekendNight(3))
    #expect(prediction.minutes(forEvening: 29) == 24.5 * 60)  // a Friday
    // Weeknights 8…27 within the last 28 days of evening 31 (Sunday): their median.
    let weeknights = (Int64(3)..<28).filter { !BedtimePrediction.isWeekendNight($0) }
      .map { 23 * 60 + Double($0) }
    let n = weeknights.count
    let median = n % 2 == 1 ? weeknights[n / 2] : (weeknights[n / 2 - 1] + weeknights[n / 2]) / 2
    #expect(prediction.minutes(forEvening: 31) == median)
    #expect(BedtimePrediction(bedtimes: [:]).minutes(forEvening: 5) == 23 * 60)
    #expect(BedtimePrediction.clock(24.5 * 60) == "00:30")
  }
}
