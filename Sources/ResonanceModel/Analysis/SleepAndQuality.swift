/// One night's main sleep period, built from sleep-analysis records (`sleep_nights`).
///
/// Durations are in milliseconds of real (UTC) time, so a night across a daylight-saving change
/// is as long as it really was. Shares are 0…1. A value the records cannot give is `nil`, never
/// guessed: without asleep or awake records (an iPhone's in-bed span alone) there is no asleep
/// time, and without stages (before iOS 16, or a source that writes none) no deep or REM share.
package struct NightSleep: Sendable, Equatable {
  /// The first moment any record covers, in that record's offset.
  package var bedtime: Timestamp
  /// The last moment any record covers, in that record's offset.
  package var wake: Timestamp
  /// The local day (days since 1970-01-01) of the evening the night belongs to: a night that
  /// starts at 01:30 on a Sunday belongs to Saturday.
  package var eveningDay: Int64
  /// The first moment asleep; `nil` when no record says asleep.
  package var sleepOnset: Timestamp?
  /// Wake − bedtime: the whole period, short gaps included.
  package var timeInBedMs: Int64
  /// Time asleep (staged or not), each moment counted once; `nil` when no record in the
  /// period says asleep or awake.
  package var asleepMs: Int64?
  /// Time with a stage (core, deep or REM); `nil` when the night has none.
  package var stagedMs: Int64?
  package var deepMs: Int64?
  package var remMs: Int64?
  /// The source whose records were preferred.
  package var primarySource: String

  package init(
    bedtime: Timestamp, wake: Timestamp, eveningDay: Int64, sleepOnset: Timestamp?,
    asleepMs: Int64?, stagedMs: Int64?, deepMs: Int64?, remMs: Int64?, primarySource: String
  ) {
    self.bedtime = bedtime
    self.wake = wake
    self.eveningDay = eveningDay
    self.sleepOnset = sleepOnset
    self.timeInBedMs = wake.millisecondsSinceEpoch - bedtime.millisecondsSinceEpoch
    self.asleepMs = asleepMs
    self.stagedMs = stagedMs
    self.deepMs = deepMs
    self.remMs = remMs
    self.primarySource = primarySource
  }

  /// The evening's local date, `YYYY-MM-DD`.
  package var evening: String {
    String(Timestamp.iso8601UTC(millisecondsSinceEpoch: eveningDay * 86_400_000).prefix(10))
  }

  /// Time in bed not asleep: falling asleep, waking in the night and lying in, in minutes.
  package var awakeMinutes: Double? {
    asleepMs.map { Double(timeInBedMs - $0) / 60_000 }
  }

  /// Asleep / in bed, 0…1.
  package var efficiency: Double? {
    guard let asleepMs, timeInBedMs > 0 else { return nil }
    return Double(asleepMs) / Double(timeInBedMs)
  }

  /// Deep sleep's share of the staged asleep time, 0…1; `nil` without stages.
  package var deepShare: Double? { share(deepMs) }

  /// REM sleep's share of the staged asleep time, 0…1; `nil` without stages.
  package var remShare: Double? { share(remMs) }

  /// Deep + REM share of the staged asleep time, 0…1; `nil` without stages.
  package var restorativeShare: Double? {
    guard let deep = deepShare, let rem = remShare else { return nil }
    return deep + rem
  }

  private func share(_ ms: Int64?) -> Double? {
    guard let ms, let staged = stagedMs, staged > 0 else { return nil }
    return Double(ms) / Double(staged)
  }
}

/// One of the four parts of the seed's session quality.
package enum QualityComponent: String, Sendable, Equatable, CaseIterable, Codable {
  case skip, hrv, engagement, sleep
}

/// A session's quality, 0…1, with the components that stood behind it. The Brain's
/// `SessionQualityScorer` computes it; `docs/brain.md` gives the weights and the rule for a
/// component that was not measured.
package struct SessionQuality: Sendable, Equatable {
  /// The weighted mean of the measured and predicted components, weights renormalised over
  /// them; `nil` when none is available.
  package var score: Double?
  /// Each measured component's value, 0…1.
  package var values: [QualityComponent: Double]
  /// Each component that was not measured but predicted from the person's own sessions,
  /// 0…1 (`SessionQualityScorer.completed`); empty for a quality of measured parts alone.
  package var predicted: [QualityComponent: Double]

  package init(
    score: Double?, values: [QualityComponent: Double],
    predicted: [QualityComponent: Double] = [:]
  ) {
    self.score = score
    self.values = values
    self.predicted = predicted
  }

  /// The measured components behind the score, in the seed's order.
  package var basis: [QualityComponent] { QualityComponent.allCases.filter { values[$0] != nil } }
}

/// What one session's next night and quality came to (columns of `historical_sessions`).
package struct SessionOutcome: Sendable, Equatable {
  /// The index of its next night in `AnalysisResults.nights`, or nil when none is in reach.
  package var nextNight: Int?
  /// The next night's sleep score, 0…1 (`sleep_correlation_score`).
  package var sleepScore: Double?
  /// The session quality composite, 0…1; nil when no component was available.
  package var quality: Double?
  /// The components behind `quality`, in the seed's order.
  package var basis: [QualityComponent]

  package init(
    nextNight: Int?, sleepScore: Double?, quality: Double?, basis: [QualityComponent]
  ) {
    self.nextNight = nextNight
    self.sleepScore = sleepScore
    self.quality = quality
    self.basis = basis
  }
}
