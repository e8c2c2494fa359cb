import ResonanceModel

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
