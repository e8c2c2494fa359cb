import ResonanceModel

/// The stored plays of one span of time, by song, in start order: what the listening writer
/// checks each play against in memory rather than with a query.
///
/// The span is loaded a month at a time (`spanMs`), so a file in time order loads each span
/// once, and it always covers one contiguous range. `trim(before:)` drops what a file in time
/// order has left behind, so a long file keeps a month or two of plays in memory, not all of
/// them; a later play that reaches back loads that span again.
///
/// A class: the writer checks every play against it, and a struct read out of the writer's
/// property for that would be one more retain and release of its tables per play.
final class PlayWindow {
  /// How much of the stored history is loaded at a time.
  static let spanMs: Int64 = 30 * 86_400_000

  private var plays: [Int64: [PlayStamp]] = [:]
  /// The span loaded; nil before the first play.
  private(set) var range: ClosedRange<Int64>?

  /// Makes the window cover `low...high`, loading the stored plays of the missing span with
  /// `load` (by song, in start order).
  ///
  /// - Throws: what `load` throws.
  func cover<Failure: Error>(
    _ low: Int64, _ high: Int64,
    load: (ClosedRange<Int64>) throws(Failure) -> [Int64: [PlayStamp]]
  ) throws(Failure) {
    guard let current = range else {
      let span = low...(high + Self.spanMs)
      for (song, stamps) in try load(span) { plays[song] = stamps }
      range = span
      return
    }
    if low < current.lowerBound {
      let span = min(low, current.lowerBound - Self.spanMs)...(current.lowerBound - 1)
      for (song, stamps) in try load(span) {
        plays[song, default: []].insert(contentsOf: stamps, at: 0)
      }
      range = span.lowerBound...current.upperBound
    }
    if let current = range, high > current.upperBound {
      let span = (current.upperBound + 1)...max(high, current.upperBound + Self.spanMs)
      for (song, stamps) in try load(span) { plays[song, default: []].append(contentsOf: stamps) }
      range = current.lowerBound...span.upperBound
    }
  }

  /// The plays of `song` starting in `span` (a copy: a slice would keep the song's array
  /// shared, and the next append would copy all of it).
  func plays(of song: Int64, in span: ClosedRange<Int64>) -> [PlayStamp] {
    guard let stamps = plays[song] else { return [] }
    var i = Self.firstIndex(stamps, atOrAfter: span.lowerBound)
    var near: [PlayStamp] = []
    while i < stamps.count, stamps[i].startMs <= span.upperBound {
      near.append(stamps[i])
      i += 1
    }
    return near
  }

  /// Keeps the window in step with a play of `song` just written, in place (the arrays are not
  /// copied). A play that existed before may have moved: its old entry goes first.
  func remember(_ stamp: PlayStamp, of song: Int64, isNew: Bool) {
    guard let range else { return }
    if !isNew { plays[song]?.removeAll { $0.id == stamp.id } }
    guard range.contains(stamp.startMs) else { return }
    if let last = plays[song]?.last, last.startMs > stamp.startMs {
      let i = Self.firstIndex(plays[song]!, atOrAfter: stamp.startMs)
      plays[song]!.insert(stamp, at: i)
    } else {
      plays[song, default: []].append(stamp)
    }
  }

  /// Replaces what the window holds of `song` with `stamps` (in start order), those in its
  /// span.
  func replace(_ song: Int64, with stamps: [PlayStamp]) {
    guard let range else { return }
    plays[song] = stamps.filter { range.contains($0.startMs) }
  }

  /// Forgets `song` (merged into another).
  func forget(_ song: Int64) { plays[song] = nil }

  /// Drops the plays that start before `low`.
  func trim(before low: Int64) {
    guard let current = range, low > current.lowerBound, low <= current.upperBound else { return }
    for (song, stamps) in plays {
      let cut = Self.firstIndex(stamps, atOrAfter: low)
      if cut == stamps.count {
        plays[song] = nil
      } else if cut > 0 {
        plays[song] = Array(stamps[cut...])
      }
    }
    range = low...current.upperBound
  }

  private static func firstIndex(_ stamps: [PlayStamp], atOrAfter ms: Int64) -> Int {
    stamps.partitioningIndex { $0.startMs >= ms }
  }
}
