/// One play as the store keeps it, with the fields the merge rules decide or fill: the
/// `playback_events` row of one listen, however many sources reported it.
///
/// Times are UTC milliseconds since the epoch; offsets are seconds east of UTC.
package struct PlayRecord: Sendable, Equatable {
  /// The row's id (0 before the store gives it one).
  package var id: Int64
  /// The song it is a play of (`songs.id`).
  package var songID: Int64
  /// The source whose report decides the play's start, duration, skip and end reason.
  package var source: ListeningSource
  /// Every source that reported it.
  package var sources: ListeningSources
  /// When the listen began.
  package var startMs: Int64
  /// The UTC offset at the start.
  package var startOffset: Int32
  /// Where the offsets came from.
  package var offsetSource: OffsetSource
  /// When the listen ended, never before `startMs`.
  package var endMs: Int64
  /// The UTC offset at the end.
  package var endOffset: Int32
  /// Milliseconds listened; `nil` where no reporting source says (Last.fm).
  package var playedMs: Int64?
  /// The song's length as a source gives it.
  package var mediaDurationMs: Int64?
  /// Whether the deciding source marks it as skipped.
  package var wasSkipped: Bool
  /// Whether a source marks it as played to its end; `nil` where none says.
  package var completed: Bool?
  /// Why it ended, as a source spells it.
  package var endReason: String?
  /// Why it began, as a source spells it.
  package var startReason: String?
  /// Whether it played on shuffle, where a source says.
  package var shuffle: Bool?
  /// The decision that chose the song, for a play the decision log reported.
  package var decision: Int64?

  /// A play with the given fields.
  package init(
    id: Int64, songID: Int64, source: ListeningSource, sources: ListeningSources,
    startMs: Int64, startOffset: Int32, offsetSource: OffsetSource, endMs: Int64,
    endOffset: Int32, playedMs: Int64?, mediaDurationMs: Int64?, wasSkipped: Bool,
    completed: Bool?, endReason: String?, startReason: String?, shuffle: Bool?,
    decision: Int64?
  ) {
    self.id = id
    self.songID = songID
    self.source = source
    self.sources = sources
    self.startMs = startMs
    self.startOffset = startOffset
    self.offsetSource = offsetSource
    self.endMs = endMs
    self.endOffset = endOffset
    self.playedMs = playedMs
    self.mediaDurationMs = mediaDurationMs
    self.wasSkipped = wasSkipped
    self.completed = completed
    self.endReason = endReason
    self.startReason = startReason
    self.shuffle = shuffle
    self.decision = decision
  }

  /// What the merge checks need of it.
  package var stamp: PlayStamp { PlayStamp(id: id, startMs: startMs, sources: sources) }

  /// `playedMs / mediaDurationMs`, at most 1; `nil` when either is unknown or the media
  /// duration is not positive.
  package var listenFraction: Double? {
    guard let played = playedMs, let media = mediaDurationMs, media > 0 else { return nil }
    return min(1, Double(played) / Double(media))
  }
}

/// Where a stored play starts and which sources reported it: what the "same listen" checks
/// need, small enough to keep a month of plays in memory.
package struct PlayStamp: Sendable, Equatable {
  /// The play's id (`playback_events.id`).
  package var id: Int64
  /// UTC milliseconds.
  package var startMs: Int64
  /// Every source that reported it.
  package var sources: ListeningSources

  /// The stamp of play `id`.
  package init(id: Int64, startMs: Int64, sources: ListeningSources) {
    self.id = id
    self.startMs = startMs
    self.sources = sources
  }
}
