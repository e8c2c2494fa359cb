import ResonanceModel

/// One night's main sleep period, built from sleep-analysis records by `SleepNights`.
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
  /// The source whose records were preferred (see `SleepNights`).
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

/// Nights from sleep-analysis records, and the night after a listening session.
///
/// Rules (`docs/brain.md`, "Sleep and session quality"):
/// - **Periods**: records of every source, in start order, join one period while each starts
///   less than `gapMs` (90 minutes) after the latest end so far.
/// - **Nights**: a period whose first moment falls between 18:00 and 06:00 local time (UTC
///   plus that record's own offset) belongs to that evening's night; of several, the one with
///   the most time in bed is the night, the first on a tie. Periods starting 06:00–18:00 are
///   naps and never nights.
/// - **Sources**: within a period, each moment takes its state from the best-ranked source
///   with an asleep, stage or awake record there: sources with more staged time first, then
///   more asleep time, then by name. Lower sources fill only the moments the better ones
///   leave uncovered, so overlapping iPhone and Watch records are never counted twice. Within
///   one source the more specific claim wins: a stage, then awake, then unstaged asleep.
///   In-bed records count towards the period's span only.
package enum SleepNights {
  /// Records closer than this join one period: 90 minutes.
  package static let defaultGapMs: Int64 = 90 * 60_000
  /// How long after a session's end the next night's bedtime may come: 18 hours.
  package static let defaultReachMs: Int64 = 18 * 3_600_000
  /// Local hours at which a night may start: from 18:00 to before 06:00.
  package static let eveningStartHour: Int64 = 18
  package static let morningEndHour: Int64 = 6

  private static let dayMs: Int64 = 86_400_000
  private static let hourMs: Int64 = 3_600_000

  /// The nights in the records, in bedtime order, one per evening at most.
  ///
  /// Records whose end is not after their start are left out.
  ///
  /// - Complexity: O(n log n) for n records.
  package static func nights(from intervals: [SleepInterval], gapMs: Int64 = defaultGapMs)
    -> [NightSleep]
  {
    var best: [Int64: NightSleep] = [:]
    for period in periods(from: intervals, gapMs: gapMs) {
      let first = period[0].start
      let localMs = first.millisecondsSinceEpoch + Int64(first.utcOffsetSeconds) * 1000
      let hour = floorDivide(localMs, dayMs).remainder / hourMs
      guard hour >= eveningStartHour || hour < morningEndHour else { continue }
      let evening = floorDivide(localMs - eveningStartHour * hourMs, dayMs).quotient
      let night = summary(of: period, eveningDay: evening)
      if let kept = best[evening], kept.timeInBedMs >= night.timeInBedMs { continue }
      best[evening] = night
    }
    return best.values.sorted { $0.bedtime < $1.bedtime }
  }

  /// The records grouped into periods (each in start order), in time order.
  package static func periods(from intervals: [SleepInterval], gapMs: Int64 = defaultGapMs)
    -> [[SleepInterval]]
  {
    let ordered = intervals.filter { $0.end > $0.start }.sorted {
      ($0.start.millisecondsSinceEpoch, $0.end.millisecondsSinceEpoch)
        < ($1.start.millisecondsSinceEpoch, $1.end.millisecondsSinceEpoch)
    }
    var groups: [[SleepInterval]] = []
    var lastEnd = Int64.min
    for interval in ordered {
      if groups.isEmpty || interval.start.millisecondsSinceEpoch - lastEnd >= gapMs {
        groups.append([interval])
      } else {
        groups[groups.count - 1].append(interval)
      }
      lastEnd = max(lastEnd, interval.end.millisecondsSinceEpoch)
    }
    return groups
  }

  /// A period's night: its span, and each moment's state from the preferred source.
  private static func summary(of period: [SleepInterval], eveningDay: Int64) -> NightSleep {
    // Rank the sources: most staged time, then most asleep time, then name.
    var staged: [String: Int64] = [:]
    var asleep: [String: Int64] = [:]
    for r in period {
      let length = r.end.millisecondsSinceEpoch - r.start.millisecondsSinceEpoch
      if r.value.isStage { staged[r.source, default: 0] += length }
      if r.value.isAsleep { asleep[r.source, default: 0] += length }
    }
    func key(_ source: String) -> (Int64, Int64, String) {
      (-(staged[source] ?? 0), -(asleep[source] ?? 0), source)
    }
    let sources = Set(period.map(\.source)).sorted { key($0) < key($1) }
    var rank: [String: Int] = [:]
    for (index, source) in sources.enumerated() { rank[source] = index }
    func priority(_ r: SleepInterval) -> (Int, Int) {
      let specificity =
        switch r.value {
        case .deep, .rem, .core: 0
        case .awake: 1
        case .asleepUnspecified: 2
        case .inBed: 3
        }
      return (rank[r.source] ?? 0, specificity)
    }

    // Sweep the elementary spans between consecutive record boundaries.
    let states = period.filter { $0.value != .inBed }
    var boundaries = Set<Int64>()
    for r in states {
      boundaries.insert(r.start.millisecondsSinceEpoch)
      boundaries.insert(r.end.millisecondsSinceEpoch)
    }
    let cuts = boundaries.sorted()
    var next = 0
    var active: [SleepInterval] = []
    var totals: [SleepValue: Int64] = [:]
    var onset: Timestamp?
    for (a, b) in zip(cuts, cuts.dropFirst()) {
      while next < states.count, states[next].start.millisecondsSinceEpoch <= a {
        active.append(states[next])
        next += 1
      }
      active.removeAll { $0.end.millisecondsSinceEpoch <= a }
      guard let chosen = active.min(by: { priority($0) < priority($1) }) else { continue }
      totals[chosen.value, default: 0] += b - a
      if onset == nil, chosen.value.isAsleep {
        onset = Timestamp(
          millisecondsSinceEpoch: a, utcOffsetSeconds: chosen.start.utcOffsetSeconds)
      }
    }

    var last = period[0]
    for r in period where r.end > last.end { last = r }
    let stagedMs = [SleepValue.core, .deep, .rem].reduce(0) { $0 + (totals[$1] ?? 0) }
    let asleepMs = stagedMs + (totals[.asleepUnspecified] ?? 0)
    let hasStages = stagedMs > 0
    return NightSleep(
      bedtime: period[0].start, wake: last.end, eveningDay: eveningDay, sleepOnset: onset,
      asleepMs: states.isEmpty ? nil : asleepMs, stagedMs: hasStages ? stagedMs : nil,
      deepMs: hasStages ? totals[.deep] ?? 0 : nil, remMs: hasStages ? totals[.rem] ?? 0 : nil,
      primarySource: sources[0])
  }

  /// The night after a session: the first night the person fell asleep after the session
  /// began (its sleep onset, or its bedtime when no record says asleep, is after the session's
  /// start), provided its bedtime is no more than `reachMs` after the session's end.
  ///
  /// Music played in bed still finds its night: the bedtime may come before the session's end
  /// as long as sleep came after the session's start. Listening in the small hours, after
  /// falling asleep, belongs to no night unless the next one starts within reach.
  ///
  /// - Parameter nights: in bedtime order, as `nights(from:)` gives them.
  /// - Complexity: O(log n) for n nights.
  package static func nextNight(
    sessionStartMs: Int64, sessionEndMs: Int64, in nights: [NightSleep],
    reachMs: Int64 = defaultReachMs
  ) -> NightSleep? {
    let next = nights.partitioningIndex { onsetMs($0) > sessionStartMs }
    guard next < nights.count else { return nil }
    let night = nights[next]
    return night.bedtime.millisecondsSinceEpoch - sessionEndMs <= reachMs ? night : nil
  }

  /// Each session's next night (see `nextNight(sessionStartMs:sessionEndMs:in:reachMs:)`),
  /// in the sessions' order.
  ///
  /// - Complexity: O((s + n) log n) for s sessions and n nights.
  package static func nextNights(
    for sessions: [ListeningSession], in nights: [NightSleep], reachMs: Int64 = defaultReachMs
  ) -> [NightSleep?] {
    let ordered = nights.sorted { onsetMs($0) < onsetMs($1) }
    return sessions.map {
      nextNight(
        sessionStartMs: $0.start.millisecondsSinceEpoch, sessionEndMs: $0.endMs, in: ordered,
        reachMs: reachMs)
    }
  }

  private static func onsetMs(_ night: NightSleep) -> Int64 {
    (night.sleepOnset ?? night.bedtime).millisecondsSinceEpoch
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
    let q = a >= 0 ? a / b : (a - b + 1) / b
    return (q, a - q * b)
  }
}
