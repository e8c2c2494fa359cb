/// Breathing practice against HRV: what `breathing.md` answers and `validate` checks.
///
/// Three figures, each an association the page states with its interval: the change within a
/// session, the days with practice against the days without, and the weeks with more practice
/// against the weeks with less (`docs/reports.md` gives the methods).
package struct PracticeEffects: Sendable, Equatable {
  /// The change within sessions: SDNN after the session less SDNN before it, pooled.
  package struct WithinSession: Sendable, Equatable {
    /// Sessions with both readings.
    package var sessions: Int
    package var meanBefore: Double
    package var meanAfter: Double
    /// The mean of the sessions' changes, ms, with a 90% Student-t interval over sessions.
    package var change: Double
    package var low90: Double
    package var high90: Double

    package init(
      sessions: Int, meanBefore: Double, meanAfter: Double, change: Double, low90: Double,
      high90: Double
    ) {
      self.sessions = sessions
      self.meanBefore = meanBefore
      self.meanAfter = meanAfter
      self.change = change
      self.low90 = low90
      self.high90 = high90
    }
  }

  /// One outcome on days with practice against days without.
  package struct DayComparison: Sendable, Equatable {
    /// The outcome's key (`night_sdnn_ms`, `morning_resting_hr_bpm`) and its words.
    package var outcome: String
    package var label: String
    package var unit: String
    /// Days with the outcome measured, with practice and without.
    package var daysWith: Int
    package var daysWithout: Int
    package var meanWith: Double?
    package var meanWithout: Double?
    /// The practice coefficient of a least-squares fit with the weekday and a workout that
    /// day, with its 90% interval; nil when the sufficiency rule is not met.
    package var adjusted: Double?
    package var low90: Double?
    package var high90: Double?
    /// The practice coefficient's standard error (what `resonance export` hands on).
    package var se: Double?

    package init(
      outcome: String, label: String, unit: String, daysWith: Int, daysWithout: Int,
      meanWith: Double?, meanWithout: Double?, adjusted: Double? = nil, low90: Double? = nil,
      high90: Double? = nil
    ) {
      self.outcome = outcome
      self.label = label
      self.unit = unit
      self.daysWith = daysWith
      self.daysWithout = daysWithout
      self.meanWith = meanWith
      self.meanWithout = meanWithout
      self.adjusted = adjusted
      self.low90 = low90
      self.high90 = high90
    }
  }

  /// The least-squares slope of a week's mean overnight SDNN on its number of sessions.
  package struct DoseResponse: Sendable, Equatable {
    /// Weeks with an overnight SDNN, from the first week with practice to the last.
    package var weeks: Int
    /// ms per extra session a week, with its 90% interval.
    package var slope: Double
    package var low90: Double
    package var high90: Double
    /// Every week: its Monday, sessions and mean overnight SDNN.
    package var points: [(week: CalendarDay, sessions: Int, sdnn: Double)]

    package init(
      weeks: Int, slope: Double, low90: Double, high90: Double,
      points: [(week: CalendarDay, sessions: Int, sdnn: Double)]
    ) {
      self.weeks = weeks
      self.slope = slope
      self.low90 = low90
      self.high90 = high90
      self.points = points
    }

    package static func == (a: DoseResponse, b: DoseResponse) -> Bool {
      a.weeks == b.weeks && a.slope == b.slope && a.low90 == b.low90 && a.high90 == b.high90
        && a.points.elementsEqual(b.points) {
          $0.week == $1.week && $0.sessions == $1.sessions && $0.sdnn == $1.sdnn
        }
    }
  }

  /// Nil with no session that has both readings.
  package var withinSession: WithinSession?
  /// That night's overnight SDNN, then the next morning's resting heart rate.
  package var days: [DayComparison]
  /// Nil with fewer than `PracticeEffects.minimumWeeks` weeks.
  package var dose: DoseResponse?

  /// The fewest days on each side a comparison needs (Bearable's rule), and the number on each
  /// side from which it is called more than a hint.
  package static let minimumDays = 3
  package static let recommendedDays = 30
  /// The fewest weeks the dose–response slope needs.
  package static let minimumWeeks = 6

  package init(withinSession: WithinSession?, days: [DayComparison], dose: DoseResponse?) {
    self.withinSession = withinSession
    self.days = days
    self.dose = dose
  }

  /// The comparison of `outcome`, if any.
  package func day(_ outcome: String) -> DayComparison? {
    days.first { $0.outcome == outcome }
  }
}
