import ResonanceModel

/// Plans each simulated day: sleep, work, commutes, walks and workouts.
enum DayPlanner {
  /// Trips: about one every hundred days, alternating a week in Europe (+9 h from home) and
  /// five days in New York (+3 h). A trip is drawn only when its ten days fit the period, and
  /// one that starts in the history before an experiment only when they fit the history, so
  /// that the history's trips are those a run of the history alone draws.
  static func trips(dayCount: Int, historyDays: Int, seed: UInt64) -> [SynthCalendar.Trip] {
    var rng = SplitMix64(seed: seed, stream: "trips")
    var trips: [SynthCalendar.Trip] = []
    var day = 20 + rng.int(0...20)
    var europe = true
    while day + 9 < dayCount {
      let length = europe ? rng.int(6...9) : rng.int(4...6)
      if day >= historyDays || day + 9 < historyDays {
        trips.append(
          .init(
            firstDay: day, lastDay: day + length - 1, shiftSeconds: europe ? 32_400 : 10_800,
            place: europe ? "Europe/Paris" : "America/New_York"))
        europe.toggle()
      }
      day += 80 + rng.int(0...40)
    }
    return trips
  }

  static func plan(day: Int, calendar: SynthCalendar, rng: inout SplitMix64) -> DayPlan {
    let weekday = calendar.weekday(day: day)
    let trip = calendar.trips.first { day >= $0.firstDay && day <= $0.lastDay }
    let isWeekend = weekday == 0 || weekday == 6
    let isWorkday = !isWeekend && trip == nil && !rng.chance(0.04)
    let wake = isWorkday ? rng.normal(6 * 60 + 50, 20) : rng.normal(8 * 60 + 30, 40)
    let tomorrowWeekend = weekday == 5 || weekday == 6
    let bed = tomorrowWeekend ? rng.normal(23 * 60 + 50, 40) : rng.normal(23 * 60 + 5, 30)
    var plan = DayPlan(
      day: day, weekday: weekday, isWorkday: isWorkday, tripPlace: trip?.place, wake: wake,
      bed: bed)
    if isWorkday {
      let leave = wake + rng.normal(85, 10)
      plan.commutes = [
        .init(start: leave, end: leave + rng.normal(32, 4)),
        .init(start: 17 * 60 + 30 + rng.normal(0, 15), end: 0),
      ]
      plan.commutes[1].end = plan.commutes[1].start + rng.normal(34, 5)
      let morning = plan.commutes[0].end + 10
      plan.deepWork = [.init(start: morning, end: 12 * 60 - rng.uniform(0, 20))]
      plan.deepWork.append(.init(start: 13 * 60 + rng.uniform(0, 20), end: 15 * 60 + 30))
      plan.deepWork.append(.init(start: 16 * 60, end: plan.commutes[1].start - 10))
      for _ in 0..<rng.int(0...3) {
        let start = (9 * 60 + rng.uniform(0, 7 * 60)).rounded()
        plan.meetings.append(.init(start: start, end: start + rng.pick([25, 30, 45, 60])))
      }
      plan.walks = [.init(start: 12 * 60 + rng.uniform(0, 15), end: 12 * 60 + rng.uniform(20, 40))]
    } else {
      let start = 10 * 60 + rng.uniform(0, 6 * 60)
      plan.walks = [.init(start: start, end: start + rng.uniform(20, 70))]
    }
    // Workouts: Monday, Wednesday and Friday evenings, Saturday mornings; one in five skipped.
    let kind: DayPlan.WorkoutKind?
    switch weekday {
    case 1, 3: kind = rng.chance(0.8) ? .running : nil
    case 5: kind = rng.chance(0.75) ? rng.pick([.strength, .hiit]) : nil
    case 6: kind = rng.chance(0.8) ? rng.pick([.cycling, .yoga, .running]) : nil
    default: kind = rng.chance(0.08) ? .yoga : nil
    }
    if let kind, trip == nil || rng.chance(0.4) {
      let start =
        weekday == 6 ? 9 * 60 + 30 + rng.uniform(0, 60) : 18 * 60 + 30 + rng.uniform(0, 40)
      plan.workout = (kind, .init(start: start, end: start + rng.uniform(30, 55)))
    }
    return plan
  }
}
