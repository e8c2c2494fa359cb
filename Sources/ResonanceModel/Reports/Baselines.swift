/// A person's normal range for a daily signal and the sustained change in it, if any: what
/// `hrv.md` shows (`docs/reports.md`, "Baselines and sustained changes").
package struct SignalBaseline: Sendable, Equatable {
  /// The two daily signals with a baseline.
  package enum Signal: String, Sendable, CaseIterable {
    /// The morning's ln RMSSD (ln ms) from the beat lists of the night's early hours.
    case morningLnRMSSD = "morning_ln_rmssd"
    /// Resting heart rate, bpm.
    case restingHeartRate = "resting_hr_bpm"

    /// How a page names it.
    package var label: String {
      switch self {
      case .morningLnRMSSD: "morning HRV (ln RMSSD)"
      case .restingHeartRate: "resting heart rate"
      }
    }

    /// The decimals a page gives its values: a tenth of a bpm, a hundredth of ln ms.
    package var places: Int { self == .restingHeartRate ? 1 : 2 }

    /// Its unit on a page.
    package var unit: String {
      switch self {
      case .morningLnRMSSD: "ln ms"
      case .restingHeartRate: "bpm"
      }
    }
  }

  /// One calendar week (Monday to Sunday) against the normal range of the 60 days before it.
  package struct Week: Sendable, Equatable {
    package var monday: CalendarDay
    /// Days with a value in the week, and their mean.
    package var days: Int
    package var mean: Double
    /// The baseline (mean of the 60 days before the week) and the smallest worthwhile change
    /// (half their standard deviation): the range is baseline ± swc.
    package var baseline: Double
    package var swc: Double

    package init(monday: CalendarDay, days: Int, mean: Double, baseline: Double, swc: Double) {
      self.monday = monday
      self.days = days
      self.mean = mean
      self.baseline = baseline
      self.swc = swc
    }

    /// −1 below the range, +1 above it, 0 inside.
    package var side: Int { mean < baseline - swc ? -1 : mean > baseline + swc ? 1 : 0 }
  }

  /// The strongest sustained change: the day the new level began, the step's size with its
  /// 90% interval, and the statistic the rule judged it by.
  package struct Change: Sendable, Equatable {
    package var day: CalendarDay
    package var step: Double
    package var low90: Double
    package var high90: Double
    /// The sup-F statistic after the serial-correlation correction, and the bar it cleared.
    package var statistic: Double
    package var threshold: Double

    package init(
      day: CalendarDay, step: Double, low90: Double, high90: Double, statistic: Double,
      threshold: Double
    ) {
      self.day = day
      self.step = step
      self.low90 = low90
      self.high90 = high90
      self.statistic = statistic
      self.threshold = threshold
    }
  }

  package var signal: Signal
  /// The days with a value.
  package var days: Int
  /// The range as of the last day: nil with fewer than `minimumDays` values in its 60 days.
  package var current: (baseline: Double, swc: Double, lastWeekMean: Double?)?
  /// Every week with at least `minimumWeekDays` values and a range before it.
  package var weeks: [Week]
  /// Nil when the rule finds no sustained change (or there are too few days to look).
  package var change: Change?
  /// Whether there were enough days to look for a change.
  package var searched: Bool

  /// The window of the normal range, the fewest values it needs, the fewest values a week
  /// needs to be judged.
  package static let windowDays = 60
  package static let minimumDays = 30
  package static let minimumWeekDays = 3
  /// The bar a sustained change must clear: the 1% point of the sup-F statistic for a step at
  /// an unknown day, 15% trimmed, when the model also holds a line (`scripts/supf_critical.py`
  /// simulates it: 14.0 at a year of days, 14.2 at ten; rounded up). Andrews' (1993) 12.35 is
  /// the bar without the line; with it, about one plain year in fifty would be called a change.
  package static let supFThreshold = 14.5
  /// The fewest values each side of a sustained change.
  package static let minimumSegment = 28

  package init(
    signal: Signal, days: Int, current: (baseline: Double, swc: Double, lastWeekMean: Double?)?,
    weeks: [Week], change: Change?, searched: Bool
  ) {
    self.signal = signal
    self.days = days
    self.current = current
    self.weeks = weeks
    self.change = change
    self.searched = searched
  }

  package static func == (a: SignalBaseline, b: SignalBaseline) -> Bool {
    a.signal == b.signal && a.days == b.days && a.weeks == b.weeks && a.change == b.change
      && a.searched == b.searched && a.current?.baseline == b.current?.baseline
      && a.current?.swc == b.current?.swc && a.current?.lastWeekMean == b.current?.lastWeekMean
  }
}
