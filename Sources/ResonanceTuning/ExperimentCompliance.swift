import ResonanceModel

extension ExperimentCompliance {
  /// What the decision log shows of the plan's `days` so far (`DecisionDay`s of the plan's
  /// first `elapsed` days): whether it names the arms at all, and each day with decisions
  /// that ran anything but its planned arm. A day whose decisions name no arm ran the
  /// settings in force, `none`.
  ///
  /// - Throws: the day and seed, when the log carries out a plan of another seed on the
  ///   plan's days: its arms are another plan's, and the analysis would be of the wrong design.
  package init(
    plan: ExperimentPlan, schedule: ExperimentSchedule, days: [DecisionDay], elapsed: Int
  ) throws(ForeignSeed) {
    let start = schedule.start.daysSinceEpoch
    var byDay: [Int: DecisionDay] = [:]
    for day in days {
      let i = Int(day.day.daysSinceEpoch - start)
      if i >= 0 && i < elapsed && day.decisions > 0 { byDay[i] = day }
    }
    for i in byDay.keys.sorted() {
      if let other = byDay[i]!.seeds.first(where: { $0 != plan.seed }) {
        throw ForeignSeed(day: byDay[i]!.day, seed: other)
      }
    }
    let logged = byDay.values.contains { !$0.seeds.isEmpty }
    var departures: [Departure] = []
    if logged {
      for i in byDay.keys.sorted() {
        let day = byDay[i]!
        let planned = plan.arms[schedule.assignment[i]].name
        guard day.arms != [planned: day.decisions] else { continue }
        let ran = day.arms.map { Ran(arm: $0.key ?? Self.noArm, decisions: $0.value) }
          .sorted { ($0.decisions, $1.arm) > ($1.decisions, $0.arm) }
        departures.append(Departure(day: day.day.description, planned: planned, ran: ran))
      }
    }
    self.init(
      logged: logged, daysWithDecisions: byDay.count,
      followedDays: logged ? byDay.count - departures.count : 0, departures: departures)
  }

  /// A log that carries out another plan on this plan's days.
  package struct ForeignSeed: Error, Equatable {
    package var day: CalendarDay
    package var seed: UInt64
  }

  /// The days of the plan so far that the log shows did not run their planned arm, by their
  /// index from the plan's start.
  package func departedDays(from start: CalendarDay) -> Set<Int> {
    Set(
      departures.compactMap { departure in
        CalendarDay(departure.day).map { Int($0.daysSinceEpoch - start.daysSinceEpoch) }
      })
  }
}
