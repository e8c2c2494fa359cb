/// The UTC offsets a person lived in over time, as one source (the Health data) shows them:
/// for sources that record no offset (Spotify, Last.fm), the offset of the nearest known moment.
///
/// A point says "at this instant the offset was this". The offset at an instant is that of the
/// latest point at or before it, when that point is at most `reach` earlier; otherwise that of
/// the earliest point after it within `reach`; otherwise unknown.
package struct UTCOffsetTimeline: Sendable, Equatable {
  /// How far from a known point the offset is still trusted: a day and a half, so that a
  /// night without Health samples still takes the evening's offset.
  package static let reachMs: Int64 = 36 * 3_600_000

  private var times: [Int64] = []
  private var offsets: [Int32] = []

  /// Points in any order; at one instant with two offsets, the later in the list wins.
  package init(points: [(ms: Int64, offset: Int32)]) {
    let sorted = points.enumerated().sorted {
      ($0.element.ms, $0.offset) < ($1.element.ms, $1.offset)
    }
    for (_, point) in sorted {
      if let last = times.last, last == point.ms {
        offsets[offsets.count - 1] = point.offset
        continue
      }
      times.append(point.ms)
      offsets.append(point.offset)
    }
  }

  package var isEmpty: Bool { times.isEmpty }

  /// The offset at `ms`, or nil when no point is within reach.
  package func offset(atMs ms: Int64) -> Int32? {
    // The first point after ms.
    let low = times.partitioningIndex { $0 > ms }
    if low > 0, ms - times[low - 1] <= Self.reachMs { return offsets[low - 1] }
    if low < times.count, times[low] - ms <= Self.reachMs { return offsets[low] }
    return nil
  }
}
