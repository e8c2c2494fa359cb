/// What `resonance report` reads from the store and what the Brain's report statistics make
/// of it: plain values, so that the pages (ResonanceReports) format figures and never query.

/// A listening session as the analysis stored it (`historical_sessions`).
package struct SessionRecord: Sendable, Equatable {
  package var id: Int64
  package var start: Timestamp
  package var end: Timestamp
  /// The context the session was reconstructed in.
  package var context: ActivityContext
  package var plays: Int
  /// Skipped plays over plays, 0…1.
  package var skipRate: Double
  /// Mean share of each song listened to, 0…1.
  package var engagement: Double?
  package var meanHeartRate: Double?
  package var meanHRV: Double?
  /// Heart rate during the session's plays less before them, in beats per minute.
  package var heartRateChange: Double?
  /// SDNN during less before, in milliseconds.
  package var hrvChange: Double?
  /// The next night's sleep score, 0…1.
  package var sleepScore: Double?
  /// The seed's session quality, 0…1, and the parts it stood on.
  package var quality: Double?
  package var qualityBasis: [QualityComponent]
  package var nextNightID: Int64?

  /// A session from its parts, as described on each property.
  package init(
    id: Int64, start: Timestamp, end: Timestamp, context: ActivityContext, plays: Int,
    skipRate: Double,
    engagement: Double? = nil, meanHeartRate: Double? = nil, meanHRV: Double? = nil,
    heartRateChange: Double? = nil, hrvChange: Double? = nil, sleepScore: Double? = nil,
    quality: Double? = nil, qualityBasis: [QualityComponent] = [], nextNightID: Int64? = nil
  ) {
    self.id = id
    self.start = start
    self.end = end
    self.context = context
    self.plays = plays
    self.skipRate = skipRate
    self.engagement = engagement
    self.meanHeartRate = meanHeartRate
    self.meanHRV = meanHRV
    self.heartRateChange = heartRateChange
    self.hrvChange = hrvChange
    self.sleepScore = sleepScore
    self.quality = quality
    self.qualityBasis = qualityBasis
    self.nextNightID = nextNightID
  }

  /// Minutes from the first play's start to the last one's end.
  package var minutes: Double {
    Double(end.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 60_000
  }
}

/// A night as the analysis stored it (`sleep_nights`), with the heart's figures while asleep.
package struct NightRecord: Sendable, Equatable {
  package var id: Int64
  /// The local day the night began on.
  package var evening: CalendarDay
  package var bedtime: Timestamp
  package var wake: Timestamp
  package var asleepMs: Int64?
  package var deepShare: Double?
  package var efficiency: Double?
  /// Mean heart rate and SDNN between bedtime and waking (the Brain fills them).
  package var overnightHeartRate: Double?
  package var overnightHRV: Double?

  package init(
    id: Int64, evening: CalendarDay, bedtime: Timestamp, wake: Timestamp, asleepMs: Int64?,
    deepShare: Double?, efficiency: Double?, overnightHeartRate: Double? = nil,
    overnightHRV: Double? = nil
  ) {
    self.id = id
    self.evening = evening
    self.bedtime = bedtime
    self.wake = wake
    self.asleepMs = asleepMs
    self.deepShare = deepShare
    self.efficiency = efficiency
    self.overnightHeartRate = overnightHeartRate
    self.overnightHRV = overnightHRV
  }

  /// Hours asleep.
  package var asleepHours: Double? { asleepMs.map { Double($0) / 3_600_000 } }
}

/// A song as the reports name it, with its play counts.
package struct SongRecord: Sendable, Equatable {
  package var id: Int64
  package var title: String
  package var artist: String
  package var genre: String
  package var plays: Int
  package var skips: Int

  package init(id: Int64, title: String, artist: String, genre: String, plays: Int, skips: Int) {
    self.id = id
    self.title = title
    self.artist = artist
    self.genre = genre
    self.plays = plays
    self.skips = skips
  }
}

/// One outcome compared between two groups of nights, with and without adjustment.
///
/// "With" is the first group: the nights after an evening with music, or, in a split of those
/// evenings by what was played (`EveningSplit`), the nights after the calmer or slower ones;
/// "without" is the other group.
package struct GroupComparison: Sendable, Equatable {
  /// The CSV's name for the outcome (`asleep_h`) and the page's (`time asleep`).
  package var outcome: String
  package var label: String
  package var unit: String
  /// Nights with the outcome measured in the first group and in the second, and their means.
  package var nightsWith: Int
  package var nightsWithout: Int
  package var meanWith: Double?
  package var meanWithout: Double?
  /// meanWith − meanWithout, with the 90% interval of a seeded bootstrap over nights.
  package var difference: Double?
  package var low90: Double?
  package var high90: Double?
  /// The same difference from a regression that also has the evening's weekday, a workout
  /// that day and the bedtime's clock time, with its 90% interval (±1.645 standard errors).
  package var adjusted: Double?
  package var adjustedLow90: Double?
  package var adjustedHigh90: Double?
  /// The adjusted difference's standard error (what `resonance export` hands on).
  package var adjustedSE: Double?

  package init(
    outcome: String, label: String, unit: String, nightsWith: Int, nightsWithout: Int,
    meanWith: Double? = nil, meanWithout: Double? = nil, difference: Double? = nil,
    low90: Double? = nil, high90: Double? = nil, adjusted: Double? = nil,
    adjustedLow90: Double? = nil, adjustedHigh90: Double? = nil
  ) {
    self.outcome = outcome
    self.label = label
    self.unit = unit
    self.nightsWith = nightsWith
    self.nightsWithout = nightsWithout
    self.meanWith = meanWith
    self.meanWithout = meanWithout
    self.difference = difference
    self.low90 = low90
    self.high90 = high90
    self.adjusted = adjusted
    self.adjustedLow90 = adjustedLow90
    self.adjustedHigh90 = adjustedHigh90
  }
}

/// A night beside the evening before it, as the sleep page lists it.
package struct EveningNight: Sendable, Equatable {
  package var night: NightRecord
  /// Minutes of music in the four hours before bedtime.
  package var eveningMinutes: Double
  package var eveningMusic: Bool
  /// The evening's weekday: 0 Monday … 6 Sunday.
  package var weekday: Int
  package var workoutThatDay: Bool
  /// What was played that evening (`ReportStatistics.withEveningSongs`): the minutes of the
  /// session plays heard in the four hours before bedtime (0 when none was).
  package var heardMinutes: Double
  /// The mean heart-rate effect of the songs heard then, in bpm against the person's average
  /// song, each weighted by its minutes heard in the window; songs without an estimate are
  /// left out, and nil when no song heard then has one.
  package var heartRateEffect: Double?
  /// The share of `heardMinutes` whose song has a heart-rate estimate, 0…1; nil when nothing
  /// was heard.
  package var estimatedShare: Double?
  /// The mean tempo of the songs heard then, in BPM, weighted the same way; nil when no song
  /// heard then has a feature estimate.
  package var tempoBPM: Double?

  package init(
    night: NightRecord, eveningMinutes: Double, eveningMusic: Bool, weekday: Int,
    workoutThatDay: Bool, heardMinutes: Double = 0, heartRateEffect: Double? = nil,
    estimatedShare: Double? = nil, tempoBPM: Double? = nil
  ) {
    self.night = night
    self.eveningMinutes = eveningMinutes
    self.eveningMusic = eveningMusic
    self.weekday = weekday
    self.workoutThatDay = workoutThatDay
    self.heardMinutes = heardMinutes
    self.heartRateEffect = heartRateEffect
    self.estimatedShare = estimatedShare
    self.tempoBPM = tempoBPM
  }

  /// The local clock time of bedtime in hours after the evening's midnight: 23.5 for 23:30,
  /// 24.75 for 00:45 the next morning.
  package var bedtimeHours: Double {
    let local =
      night.bedtime.millisecondsSinceEpoch
      + Int64(night.bedtime.utcOffsetSeconds) * 1_000
    return Double(local - night.evening.daysSinceEpoch * 86_400_000) / 3_600_000
  }
}

/// A straight-line trend: its slope per unit of x with a 90% interval, and the fitted line's
/// value at x = `origin`.
package struct LinearTrend: Sendable, Equatable {
  package var slope: Double
  package var low90: Double
  package var high90: Double
  package var points: Int
  package var origin: Double
  package var intercept: Double

  package init(
    slope: Double, low90: Double, high90: Double, points: Int, origin: Double = 0,
    intercept: Double = 0
  ) {
    self.slope = slope
    self.low90 = low90
    self.high90 = high90
    self.points = points
    self.origin = origin
    self.intercept = intercept
  }

  /// The fitted line at `x`.
  package func value(at x: Double) -> Double { intercept + slope * (x - origin) }
}

/// One week's sessions: how many, and their mean quality.
package struct WeeklyQuality: Sendable, Equatable {
  /// The Monday the week starts on.
  package var week: CalendarDay
  package var sessions: Int
  package var meanQuality: Double?
  package var meanSkipRate: Double

  package init(week: CalendarDay, sessions: Int, meanQuality: Double?, meanSkipRate: Double) {
    self.week = week
    self.sessions = sessions
    self.meanQuality = meanQuality
    self.meanSkipRate = meanSkipRate
  }
}

/// One local day's resting heart and HRV.
package struct DailyVitals: Sendable, Equatable {
  package var day: CalendarDay
  /// Where a day's resting heart rate came from.
  package enum RestingSource: String, Sendable, Equatable, CaseIterable {
    /// Health's resting-heart-rate records that day.
    case health
    /// The lowest hourly mean of the day's heart-rate readings taken at rest.
    case lowestHourAtRest = "lowest hour at rest"
  }

  /// Health's resting heart rate that day, or else the lowest hourly mean of the readings
  /// taken at rest; `restingSource` says which (nil with no resting figure).
  package var restingHeartRate: Double?
  package var restingSource: RestingSource?
  /// The mean of the Watch's SDNN readings that day, and how many.
  package var sdnn: Double?
  package var sdnnReadings: Int
  /// The mean RMSSD of the day's beat-to-beat lists, and how many.
  package var rmssd: Double?
  package var beatLists: Int

  /// A day from its parts, as described on each property.
  package init(
    day: CalendarDay, restingHeartRate: Double?, restingSource: RestingSource?, sdnn: Double?,
    sdnnReadings: Int, rmssd: Double?, beatLists: Int
  ) {
    self.day = day
    self.restingHeartRate = restingHeartRate
    self.restingSource = restingSource
    self.sdnn = sdnn
    self.sdnnReadings = sdnnReadings
    self.rmssd = rmssd
    self.beatLists = beatLists
  }
}

/// A song's learned effect in one context, beside its identity: the rankings' rows.
package struct RankedSong: Sendable, Equatable {
  package var song: SongRecord
  /// The context the effect was learned in.
  package var context: ActivityContext
  /// The learning loop's calm and energy scores in that context, −1…1, and the plays behind.
  package var calm: Double
  package var energy: Double
  package var samples: Int

  /// A ranked song from its parts, as described on each property.
  package init(
    song: SongRecord, context: ActivityContext, calm: Double, energy: Double, samples: Int
  ) {
    self.song = song
    self.context = context
    self.calm = calm
    self.energy = energy
    self.samples = samples
  }
}

/// How many sessions there are, how many have a quality, and their mean quality.
package struct SessionOverview: Sendable, Equatable {
  package var sessions: Int
  package var rated: Int
  package var meanQuality: Double?

  package init(sessions: Int, rated: Int, meanQuality: Double?) {
    self.sessions = sessions
    self.rated = rated
    self.meanQuality = meanQuality
  }
}

/// The best sessions against the worst: the few at each end, and the mean of each part of a
/// session in the best quarter and in the worst.
/// How far the session-quality rule moves the mean quality of the sessions that measured HRV
/// when their reading is hidden (`ReportStatistics.hrvMasking`): predicted from the person's
/// other sessions, as the rule does, and left out with the other parts reweighted, as the
/// seed does.
package struct QualityMasking: Sendable, Equatable {
  package var sessions: Int
  package var predictedShift: Double
  package var renormalisedShift: Double

  /// A masking result from its parts, as described on the type.
  package init(sessions: Int, predictedShift: Double, renormalisedShift: Double) {
    self.sessions = sessions
    self.predictedShift = predictedShift
    self.renormalisedShift = renormalisedShift
  }
}

package struct SessionContrast: Sendable, Equatable {
  /// A part of a session, by its CSV name (`skip_rate`, `hr_delta_bpm`, …).
  package struct Part: Sendable, Equatable {
    package var name: String
    package var best: Double?
    package var worst: Double?

    package init(name: String, best: Double?, worst: Double?) {
      self.name = name
      self.best = best
      self.worst = worst
    }
  }

  /// Sessions in each quarter, and per context how many of them are in the best and the worst.
  package struct ContextCount: Sendable, Equatable {
    /// The context, and how many of its sessions are in the best and in the worst quarter.
    package var context: ActivityContext
    package var best: Int
    package var worst: Int

    /// A count from its parts, as described on each property.
    package init(context: ActivityContext, best: Int, worst: Int) {
      self.context = context
      self.best = best
      self.worst = worst
    }
  }

  /// The best first, and the worst, worst first.
  package var best: [SessionRecord]
  package var worst: [SessionRecord]
  package var quarter: Int
  package var parts: [Part]
  package var contexts: [ContextCount]

  package init(
    best: [SessionRecord], worst: [SessionRecord], quarter: Int, parts: [Part],
    contexts: [ContextCount]
  ) {
    self.best = best
    self.worst = worst
    self.quarter = quarter
    self.parts = parts
    self.contexts = contexts
  }
}

/// The days of `hrv.md` in a few figures: how many have each reading, the means, and the
/// first four weeks against the last four (nil when the days span less than eight weeks).
package struct VitalsOverview: Sendable, Equatable {
  package var days: Int
  package var restingDays: Int
  package var sdnnDays: Int
  package var rmssdDays: Int
  package var meanResting: Double?
  package var meanSDNN: Double?
  package var restingEarlyLate: (early: Double, late: Double)?
  package var sdnnEarlyLate: (early: Double, late: Double)?

  package init(
    days: Int, restingDays: Int, sdnnDays: Int, rmssdDays: Int, meanResting: Double?,
    meanSDNN: Double?, restingEarlyLate: (early: Double, late: Double)?,
    sdnnEarlyLate: (early: Double, late: Double)?
  ) {
    self.days = days
    self.restingDays = restingDays
    self.sdnnDays = sdnnDays
    self.rmssdDays = rmssdDays
    self.meanResting = meanResting
    self.meanSDNN = meanSDNN
    self.restingEarlyLate = restingEarlyLate
    self.sdnnEarlyLate = sdnnEarlyLate
  }

  package static func == (a: VitalsOverview, b: VitalsOverview) -> Bool {
    a.days == b.days && a.restingDays == b.restingDays && a.sdnnDays == b.sdnnDays
      && a.rmssdDays == b.rmssdDays && a.meanResting == b.meanResting
      && a.meanSDNN == b.meanSDNN && a.restingEarlyLate?.early == b.restingEarlyLate?.early
      && a.restingEarlyLate?.late == b.restingEarlyLate?.late
      && a.sdnnEarlyLate?.early == b.sdnnEarlyLate?.early
      && a.sdnnEarlyLate?.late == b.sdnnEarlyLate?.late
  }
}
