import Testing

@testable import ResonanceModel

/// `docs/formats.md`, "One listen, one play", rule by rule.
@Suite("One listen, one play: the merge rules")
struct ListenMergeTests {
  /// Today's ranks, as Ingest's table gives them.
  static let merge = ListenMerge(
    precedence: MergePrecedence([
      .appleMusic: 4, .spotify: 4, .spotifyAccount: 3, .lastFM: 2, .decisionLog: 1,
    ]))
  static let start: Int64 = 1_710_057_600_000

  static func play(
    _ source: ListeningSource, id: Int64 = 0, at start: Int64 = start, playedMs: Int64? = 180_000,
    skipped: Bool = false, offset: Int32 = 3_600, offsetSource: OffsetSource = .source
  ) -> PlayRecord {
    PlayRecord(
      id: id, songID: 7, source: source, sources: ListeningSources(source), startMs: start,
      startOffset: offset, offsetSource: offsetSource,
      endMs: start + (playedMs ?? 0), endOffset: offset, playedMs: playedMs,
      mediaDurationMs: nil, wasSkipped: skipped, completed: nil, endReason: nil,
      startReason: nil, shuffle: nil, decision: nil)
  }

  /// Where `incoming` goes among `stored`, and whether the stored plays were asked for.
  static func place(_ incoming: PlayRecord, among stored: [PlayRecord]) -> (
    ListenMerge.Placement, asked: Bool
  ) {
    var asked = false
    let placement = merge.place(incoming, near: stored.map(\.stamp)) {
      asked = true
      return stored
    }
    return (placement, asked)
  }

  @Test("another source's report within 90 s is the same listen; one 91 s away is another")
  func tolerance() throws {
    let stored = Self.play(.spotify, id: 1)
    let within = Self.place(Self.play(.lastFM, at: Self.start + 90_000), among: [stored]).0
    guard case .merged(let merged) = within else {
      Issue.record("expected a merge, found \(within)")
      return
    }
    #expect(merged.id == 1 && merged.sources == [ListeningSources(.spotify), .init(.lastFM)])
    #expect(ListenMerge.window(around: Self.start) == (Self.start - 90_000)...(Self.start + 90_000))
    // The store hands over only the plays in the window: one 91 s away is not among them.
    let outside = Self.play(.lastFM, at: Self.start + 91_000)
    let near = [stored].filter { ListenMerge.window(around: outside.startMs).contains($0.startMs) }
    #expect(Self.place(outside, among: near).0 == .new)
  }

  @Test("the higher-ranked source decides start, end, duration, skip and end reason")
  func higherRankDecides() {
    var decision = Self.play(.decisionLog, id: 1, at: Self.start + 20_000, skipped: true)
    decision.decision = 12
    decision.mediaDurationMs = 200_000
    var apple = Self.play(.appleMusic, playedMs: 200_000)
    apple.endReason = "NATURAL_END_OF_TRACK"
    apple.completed = true
    // Whichever came first, Apple Music's row decides; the log fills what the row lacks.
    for merged in [Self.merge.combine(decision, apple), Self.merge.combine(apple, decision)] {
      #expect(merged.source == .appleMusic && merged.startMs == Self.start)
      #expect(merged.playedMs == 200_000 && !merged.wasSkipped && merged.completed == true)
      #expect(merged.endReason == "NATURAL_END_OF_TRACK")
      #expect(merged.decision == 12 && merged.mediaDurationMs == 200_000)
      #expect(merged.sources.members == [.appleMusic, .decisionLog])
    }
    #expect(Self.merge.combine(decision, apple).id == 1, "the stored play's id stays")
  }

  @Test("the decision log's outcome decides only a play no history reports")
  func decisionLogLowest() {
    let log = Self.play(.decisionLog, id: 1, skipped: true)
    for history in [ListeningSource.lastFM, .spotifyAccount, .spotify, .appleMusic] {
      let merged = Self.merge.combine(log, Self.play(history, at: Self.start + 5_000))
      #expect(merged.source == history && !merged.wasSkipped, "\(history)")
    }
    #expect(Self.merge.combine(log, log).wasSkipped)
  }

  @Test("sources of one rank: the play stored first decides; an unranked source ranks lowest")
  func ties() {
    let apple = Self.play(.appleMusic, id: 1)
    let spotify = Self.play(.spotify, at: Self.start + 30_000, skipped: true)
    #expect(Self.merge.combine(apple, spotify).source == .appleMusic)
    #expect(Self.merge.combine(spotify, apple).source == .spotify)
    let unranked = ListenMerge(precedence: MergePrecedence([.lastFM: 2]))
    #expect(MergePrecedence().rank(of: .spotify) == 0)
    #expect(unranked.combine(Self.play(.spotify), Self.play(.lastFM)).source == .lastFM)
  }

  @Test("a play whose offset was borrowed takes its partner's own")
  func offsetSource() {
    let spotify = Self.play(.spotify, id: 1, offset: 0, offsetSource: .utc)
    let apple = Self.play(.appleMusic, at: Self.start + 10_000, offset: -25_200)
    let merged = Self.merge.combine(spotify, apple)
    #expect(merged.source == .spotify, "the first of one rank decides")
    #expect(merged.offsetSource == .source && merged.startOffset == -25_200)
    #expect(merged.endOffset == -25_200)
    // The other way round: the leader's own offset stays.
    let kept = Self.merge.combine(apple, spotify)
    #expect(kept.offsetSource == .source && kept.startOffset == -25_200)
    let neither = Self.merge.combine(
      spotify, Self.play(.lastFM, offset: 7_200, offsetSource: .user))
    #expect(neither.offsetSource == .utc && neither.startOffset == 0)
  }

  @Test("a leader that, filled in, still says neither played time nor end takes its partner's end")
  func endFromPartner() {
    let scrobble = Self.play(.lastFM, id: 1, playedMs: nil)
    var log = Self.play(.decisionLog, at: Self.start + 2_000, playedMs: nil)
    log.endMs = Self.start + 150_000
    let merged = Self.merge.combine(scrobble, log)
    #expect(merged.source == .lastFM && merged.playedMs == nil)
    #expect(merged.endMs == Self.start + 150_000)
    // A partner with a played time fills that instead, and the leader's end stands.
    let timed = Self.merge.combine(scrobble, Self.play(.decisionLog, playedMs: 150_000))
    #expect(timed.playedMs == 150_000 && timed.endMs == Self.start)
  }

  @Test(
    "a source's own report at the same instant is already stored; a moment apart, another listen")
  func duplicates() {
    let stored = Self.play(.spotify, id: 1)
    let again = Self.place(Self.play(.spotify), among: [stored])
    #expect(again.0 == .alreadyStored && !again.asked, "decided from the stamps alone")
    let later = Self.place(Self.play(.spotify, at: Self.start + 30_000), among: [stored])
    #expect(later.0 == .new && !later.asked, "one source's two listens never merge")
    // Merged plays carry every source: a report from either is already stored.
    var merged = stored
    merged.sources.insert(ListeningSources(.lastFM))
    #expect(Self.place(Self.play(.lastFM), among: [merged]).0 == .alreadyStored)
  }

  @Test("the stored plays are read in full only when another source's is near")
  func fullOnlyWhenNeeded() {
    #expect(!Self.place(Self.play(.spotify), among: []).asked)
    #expect(Self.place(Self.play(.spotify), among: [Self.play(.appleMusic, id: 1)]).asked)
  }

  @Test("of several partners, the nearest start; a partner's own sources must be disjoint")
  func nearestPartner() {
    let far = Self.play(.appleMusic, id: 1, at: Self.start - 80_000)
    let near = Self.play(.appleMusic, id: 2, at: Self.start + 10_000)
    var both = Self.play(.appleMusic, id: 3, at: Self.start)
    both.sources.insert(ListeningSources(.lastFM))
    let incoming = Self.play(.lastFM, at: Self.start + 1_000)
    #expect(ListenMerge.partner(of: incoming, among: [far, near, both])?.id == 2)
    guard case .merged(let merged) = Self.place(incoming, among: [far, near]).0 else {
      Issue.record("expected a merge")
      return
    }
    #expect(merged.id == 2)
  }

  @Test("after a song merge: plays one listen merge, duplicates go, the rest stay in order")
  func collapse() {
    let plays = [
      Self.play(.appleMusic, id: 1),
      Self.play(.decisionLog, id: 2, at: Self.start + 30_000),
      Self.play(.appleMusic, id: 3, at: Self.start + 600_000),
      Self.play(.appleMusic, id: 4, at: Self.start + 600_000),
      Self.play(.appleMusic, id: 5, at: Self.start + 650_000),
    ]
    let result = Self.merge.collapse(plays)
    #expect(result.kept.map(\.id) == [1, 3, 5])
    #expect(result.removed == [2, 4] && result.merged == 1 && result.duplicates == 1)
    #expect(result.changed.map(\.id) == [1])
    #expect(result.kept[0].sources.members == [.appleMusic, .decisionLog])
    #expect(Self.merge.collapse([]) == ListenMerge.Collapse())
  }

  @Test("sources as the store writes them: sorted names, comma-separated, and back")
  func sourceNames() {
    let set: ListeningSources = [.init(.lastFM), .init(.appleMusic), .init(.decisionLog)]
    #expect(set.names == "apple-music,decision-log,last-fm")
    #expect(ListeningSources(names: set.names) == set)
    #expect(ListeningSources(names: "spotify,not-a-source") == ListeningSources(.spotify))
    #expect(ListeningSources(names: "").isEmpty)
  }
}
