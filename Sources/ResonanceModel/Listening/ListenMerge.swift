/// Each listening source's rank when two reports of one listen merge: the higher-ranked
/// source's report decides the play.
///
/// The ranks are a value, made where the formats are declared (Ingest's table) and handed to
/// the store with each import; a source the value does not rank ranks 0, below every ranked
/// one, and two sources of one rank leave the play stored first deciding.
package struct MergePrecedence: Sendable, Equatable {
  private var ranks: [ListeningSource: Int]

  /// - Parameter ranks: each source's rank; higher wins.
  package init(_ ranks: [ListeningSource: Int] = [:]) { self.ranks = ranks }

  /// The rank of `source`: 0 when it has none.
  package func rank(of source: ListeningSource) -> Int { ranks[source] ?? 0 }
}

/// The rules that make one play of one listen however many sources report it
/// (`docs/formats.md`, "One listen, one play").
///
/// A report whose song already has a play from **another** source starting within
/// `toleranceMs` of it is the same listen: the two merge, the higher-ranked source deciding
/// start, end, duration, skip and end reason, the other filling what the first lacks. A report
/// from a source that already reported a play of the song at the **same instant** is a
/// duplicate (two downloads of one history overlap) and is not stored again.
///
/// ```swift
/// let merge = ListenMerge(precedence: MergePrecedence([.spotify: 4, .lastFM: 2]))
/// switch merge.place(scrobble, near: stamps, full: { storedPlays }) {
/// case .alreadyStored: break
/// case .merged(let play): update(play)
/// case .new: insert(scrobble)
/// }
/// ```
package struct ListenMerge: Sendable {
  /// How far apart two sources' start times of one listen may be.
  package static let toleranceMs: Int64 = 90_000

  /// Each source's rank: the higher-ranked report of a listen decides it.
  package let precedence: MergePrecedence

  /// The rules, with the sources ranked by `precedence`.
  package init(precedence: MergePrecedence) { self.precedence = precedence }

  /// Where a new report goes.
  package enum Placement: Sendable, Equatable {
    /// Its source already reported this listen: nothing is stored.
    case alreadyStored
    /// It is another source's report of a stored play, which becomes this (same id).
    case merged(PlayRecord)
    /// A listen of its own.
    case new
  }

  /// The start times a play starting at `startMs` may share a listen with.
  package static func window(around startMs: Int64) -> ClosedRange<Int64> {
    (startMs - toleranceMs)...(startMs + toleranceMs)
  }

  /// Where `incoming` goes among the stored plays of its song.
  ///
  /// - Parameters:
  ///   - near: the stored plays of the song starting in `window(around:)` its start, as
  ///     stamps.
  ///   - full: those plays in full, asked for only when one of them could be another source's
  ///     report of the same listen.
  /// - Throws: what `full` throws.
  package func place<Failure: Error>(
    _ incoming: PlayRecord, near: [PlayStamp], full: () throws(Failure) -> [PlayRecord]
  ) throws(Failure) -> Placement {
    if near.contains(where: { Self.repeats($0.startMs, $0.sources, incoming) }) {
      return .alreadyStored
    }
    guard near.contains(where: { !$0.sources.contains(incoming.source) }) else { return .new }
    let candidates = try full()
    if candidates.contains(where: { Self.repeats($0.startMs, $0.sources, incoming) }) {
      return .alreadyStored
    }
    guard let partner = Self.partner(of: incoming, among: candidates) else { return .new }
    return .merged(combine(partner, incoming))
  }

  /// The stored play another source's report `incoming` is the same listen as: of those
  /// reported by sources disjoint from its own, the one starting nearest it (the first of a
  /// tie).
  package static func partner(of incoming: PlayRecord, among stored: [PlayRecord])
    -> PlayRecord?
  {
    stored.filter { $0.sources.isDisjoint(with: incoming.sources) }
      .min { abs($0.startMs - incoming.startMs) < abs($1.startMs - incoming.startMs) }
  }

  /// Whether a stored play starting at `startMs`, reported by `sources`, is the one
  /// `incoming`'s source reported already: the same source at the same instant.
  private static func repeats(
    _ startMs: Int64, _ sources: ListeningSources, _ incoming: PlayRecord
  ) -> Bool {
    startMs == incoming.startMs && sources.contains(incoming.source)
  }

  /// One listen from two reports: the higher-ranked source's (the first's on a tie) decides
  /// start, end, duration, skip and end reason; the other fills what the first lacks (played
  /// and media duration, completion, reasons, shuffle, the decision). A play whose offset was
  /// borrowed (Health data, the user's zone, UTC) takes the other's when that one is its
  /// source's own; a play that, so filled, still says neither how long it was played nor when
  /// it ended takes the other's end. The result keeps `a`'s id and song, and every source of
  /// both.
  package func combine(_ a: PlayRecord, _ b: PlayRecord) -> PlayRecord {
    let bLeads = precedence.rank(of: b.source) > precedence.rank(of: a.source)
    let (lead, other) = bLeads ? (b, a) : (a, b)
    var play = lead
    play.id = a.id
    play.songID = a.songID
    play.sources = a.sources.union(b.sources)
    if play.offsetSource != .source, other.offsetSource == .source {
      play.startOffset = other.startOffset
      play.endOffset = other.endOffset
      play.offsetSource = .source
    }
    play.playedMs = play.playedMs ?? other.playedMs
    play.mediaDurationMs = play.mediaDurationMs ?? other.mediaDurationMs
    play.completed = play.completed ?? other.completed
    play.endReason = play.endReason ?? other.endReason
    play.startReason = play.startReason ?? other.startReason
    play.shuffle = play.shuffle ?? other.shuffle
    play.decision = play.decision ?? other.decision
    if play.playedMs == nil, play.endMs == play.startMs {
      play.endMs = max(play.endMs, other.endMs)
    }
    return play
  }

  /// What a song's plays become once two songs turned out to be one (`collapse`).
  package struct Collapse: Sendable, Equatable {
    /// The plays that stay, in start order, as they now are.
    package var kept: [PlayRecord] = []
    /// The kept plays that changed (merged with another), once each, in start order.
    package var changed: [PlayRecord] = []
    /// The ids of the plays that go: merged into a kept one, or duplicates of one.
    package var removed: [Int64] = []
    /// How many of `removed` merged into another source's report.
    package var merged = 0
    /// How many of `removed` were a source's own report again (the same instant).
    package var duplicates = 0

    /// Nothing kept, nothing changed.
    package init() {}
  }

  /// The plays of one song after a song merge, in start order: a play within `toleranceMs`
  /// after the previous kept one, from disjoint sources, merges into it (`combine`); one at
  /// the same instant from the same sources is a duplicate and goes.
  ///
  /// - Complexity: O(*n*) for *n* plays sorted by start.
  package func collapse(_ plays: [PlayRecord]) -> Collapse {
    var result = Collapse()
    var changedIDs: Set<Int64> = []
    for play in plays {
      if var last = result.kept.last, play.startMs - last.startMs <= Self.toleranceMs,
        last.sources.isDisjoint(with: play.sources)
      {
        last = combine(last, play)
        result.kept[result.kept.count - 1] = last
        changedIDs.insert(last.id)
        result.removed.append(play.id)
        result.merged += 1
      } else if let last = result.kept.last, play.startMs == last.startMs,
        last.sources == play.sources
      {
        result.removed.append(play.id)
        result.duplicates += 1
      } else {
        result.kept.append(play)
      }
    }
    result.changed = result.kept.filter { changedIDs.contains($0.id) }
    return result
  }
}
