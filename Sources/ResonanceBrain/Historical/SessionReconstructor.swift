import ResonanceModel

extension HistoricalPlay {
  /// Share of the song listened to, 0…1; nil when the source gave no duration.
  package var listenFraction: Double? {
    guard let played = playedMs, let media = mediaDurationMs, media > 0 else { return nil }
    return min(1, max(0, Double(played) / Double(media)))
  }
}

/// What the data shows around a moment, for the context cascade: each field nil when no
/// source says.
package struct ContextEvidence: Sendable, Equatable {
  /// A Watch workout covers the moment.
  package var inWorkout: Bool
  /// The Mac's Focus mode (`work`, `personal`, `sleep`, …), app category and meeting status.
  package var macFocus: String?
  package var macAppCategory: String?
  package var inMeeting: Bool?
  /// The Watch's motion: true when the person is moving (not stationary, not in a workout).
  package var isMoving: Bool?

  package init(
    inWorkout: Bool = false, macFocus: String? = nil, macAppCategory: String? = nil,
    inMeeting: Bool? = nil, isMoving: Bool? = nil
  ) {
    self.inWorkout = inWorkout
    self.macFocus = macFocus
    self.macAppCategory = macAppCategory
    self.inMeeting = inMeeting
    self.isMoving = isMoving
  }
}

/// The seed's five-level context cascade, highest priority first: a Watch workout; the Mac's
/// signals (a work Focus, a work app, a meeting); motion; the time of day, weekend-aware; the
/// fallback. `docs/brain.md` gives the hours.
package enum ContextCascade {
  /// App categories that mean focused work.
  package static let workApps: Set<String> = [
    "developer-tools", "productivity", "writing", "design", "office", "education",
  ]

  package static func context(_ evidence: ContextEvidence, at time: Timestamp) -> ActivityContext {
    if evidence.inWorkout { return .workout }
    let focus = evidence.macFocus?.lowercased()
    if evidence.inMeeting == true || focus == "work" || focus == "deep work"
      || evidence.macAppCategory.map(workApps.contains) == true
    {
      return .deepWork
    }
    if evidence.isMoving == true { return .commute }
    let hour = LocalTime.hour(time)
    let weekend = LocalTime.isWeekend(time)
    // Weekends start and end an hour later.
    let shift = weekend ? 1.0 : 0.0
    switch hour {
    case (21.5 + shift)..<24, 0..<(1 + shift): return .preSleep
    case (5.5 + shift)..<(9 + shift): return .wakeUp
    case 18..<(21.5 + shift): return .relax
    case 9..<18 where weekend: return .relax
    default: return .general
    }
  }
}

/// Local clock readings of an instant in the offset the person lived in.
package enum LocalTime {
  /// Hour of the day with its fraction, 0 ..< 24.
  package static func hour(_ time: Timestamp) -> Double {
    let local = time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000
    let ms = ((local % 86_400_000) + 86_400_000) % 86_400_000
    return Double(ms) / 3_600_000
  }

  /// Day of the week, 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
  package static func weekday(_ time: Timestamp) -> Int {
    let local = time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000
    let days = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
    return Int(((days + 4) % 7 + 7) % 7)
  }

  package static func isWeekend(_ time: Timestamp) -> Bool {
    let day = weekday(time)
    return day == 0 || day == 6
  }
}

/// `SessionReconstructor` (the seed's `Historical/`): plays grouped into sessions.
///
/// A play starting more than `gapMs` after the end of the one before opens a new session (30
/// minutes by default, the usual convention). Grouping uses UTC instants, so midnight,
/// daylight saving and a change of offset on a trip never split a session. A session's context
/// is the one most of its plays were in (each play's by the cascade at its start); ties go to
/// the context higher in the cascade.
package enum SessionReconstructor {
  package static let defaultGapMs: Int64 = 30 * 60_000

  package static func sessions(
    _ plays: [HistoricalPlay], gapMs: Int64 = defaultGapMs,
    evidence: (Timestamp) -> ContextEvidence
  ) -> [ListeningSession] {
    let ordered = plays.sorted {
      ($0.start.millisecondsSinceEpoch, $0.id) < ($1.start.millisecondsSinceEpoch, $1.id)
    }
    var groups: [[HistoricalPlay]] = []
    var lastEnd = Int64.min
    for play in ordered {
      if groups.isEmpty || play.start.millisecondsSinceEpoch - lastEnd > gapMs {
        groups.append([play])
      } else {
        groups[groups.count - 1].append(play)
      }
      lastEnd = max(lastEnd, play.endMs)
    }
    return groups.flatMap { group -> [ListeningSession] in
      let contexts = group.map { ContextCascade.context(evidence($0.start), at: $0.start) }
      return runs(contexts).map { run in
        session(Array(group[run.range]), context: run.context ?? majority(contexts[run.range]))
      }
    }
  }

  /// Plays in a row with one context that make a session of their own inside a longer one.
  package static let minimumContextRun = 3

  /// A gap-bounded group split where its context changes for good: runs of at least
  /// `minimumContextRun` plays keep their context, shorter runs join the run before them (or,
  /// at the start, the one after). With no run that long the group stays whole, and its
  /// context is decided by `majority` (nil here).
  static func runs(_ contexts: [ActivityContext]) -> [(
    range: Range<Int>, context: ActivityContext?
  )] {
    var runs: [(range: Range<Int>, context: ActivityContext)] = []
    var start = 0
    for i in 1...contexts.count where i == contexts.count || contexts[i] != contexts[start] {
      runs.append((start..<i, contexts[start]))
      start = i
    }
    var merged: [(range: Range<Int>, context: ActivityContext)] = []
    var pendingStart: Int?
    for run in runs {
      if run.range.count < minimumContextRun {
        if let last = merged.last {
          merged[merged.count - 1].range = last.range.lowerBound..<run.range.upperBound
        } else if pendingStart == nil {
          pendingStart = run.range.lowerBound
        }
      } else if let last = merged.last, last.context == run.context {
        merged[merged.count - 1].range = last.range.lowerBound..<run.range.upperBound
      } else {
        merged.append(((pendingStart ?? run.range.lowerBound)..<run.range.upperBound, run.context))
        pendingStart = nil
      }
    }
    guard !merged.isEmpty else { return [(0..<contexts.count, nil)] }
    return merged.map { ($0.range, $0.context) }
  }

  /// The context most plays had; a tie goes to the context earlier in `ActivityContext`.
  static func majority(_ contexts: ArraySlice<ActivityContext>) -> ActivityContext {
    var tally: [ActivityContext: Int] = [:]
    for context in contexts { tally[context, default: 0] += 1 }
    let order = ActivityContext.allCases
    return tally.max { a, b in
      a.value != b.value
        ? a.value < b.value
        : (order.firstIndex(of: a.key) ?? 0) > (order.firstIndex(of: b.key) ?? 0)
    }?.key ?? .general
  }

  static func session(_ group: [HistoricalPlay], context: ActivityContext) -> ListeningSession {
    let fractions = group.compactMap(\.listenFraction)
    return ListeningSession(
      playIDs: group.map(\.id), start: group[0].start,
      endMs: group.map(\.endMs).max() ?? group[0].endMs, context: context,
      skipRate: Double(group.filter(\.wasSkipped).count) / Double(group.count),
      engagement: fractions.isEmpty
        ? nil : fractions.reduce(0, +) / Double(fractions.count))
  }
}
