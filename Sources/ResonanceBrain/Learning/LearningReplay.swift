import ResonanceModel

/// The seed's learning loop replayed over history, in time order: for each play, its skip
/// penalty and response credit update the EMA effect of its song in its session's context.
///
/// A play's share heard is `played / duration` where the source gives both; a play without
/// them (a Last.fm scrobble) counts as heard to the end unless marked skipped, when it counts as
/// an early skip. A play reaches its end when at least 99% was heard.
package enum LearningReplay {
  package struct Key: Sendable, Hashable {
    package var songID: Int64
    package var context: ActivityContext

    package init(songID: Int64, context: ActivityContext) {
      self.songID = songID
      self.context = context
    }
  }

  /// One play as the replay needs it.
  package struct Listen: Sendable {
    package var songID: Int64
    package var startMs: Int64
    package var context: ActivityContext
    package var listenFraction: Double?
    package var markedSkipped: Bool
    package var hrDeltaBPM: Double?
    package var hrvDeltaMs: Double?

    package init(
      songID: Int64, startMs: Int64, context: ActivityContext, listenFraction: Double?,
      markedSkipped: Bool, hrDeltaBPM: Double?, hrvDeltaMs: Double?
    ) {
      self.songID = songID
      self.startMs = startMs
      self.context = context
      self.listenFraction = listenFraction
      self.markedSkipped = markedSkipped
      self.hrDeltaBPM = hrDeltaBPM
      self.hrvDeltaMs = hrvDeltaMs
    }
  }

  /// The learned effects after every listen, each with the time of the last listen behind
  /// it, in song and then context order.
  package static func replay(_ listens: [Listen]) -> [SongEffect] {
    var effects: [Key: (effect: LearnedSongEffect, lastMs: Int64)] = [:]
    for listen in listens.sorted(by: { $0.startMs < $1.startMs }) {
      let share = listen.listenFraction ?? (listen.markedSkipped ? 0 : 1)
      let penalty = SkipPenaltyCalculator.penalty(
        listenFraction: share, markedSkipped: listen.markedSkipped, reachedEnd: share >= 0.99)
      let credit = ResponseCreditCalculator.credit(
        hrvDeltaMs: listen.hrvDeltaMs, hrDeltaBPM: listen.hrDeltaBPM, listenFraction: share)
      let key = Key(songID: listen.songID, context: listen.context)
      let before = effects[key]?.effect ?? LearnedSongEffect()
      effects[key] = (
        SongEffectUpdater.updated(
          before, credit: credit, skipPenalty: penalty, listenFraction: share), listen.startMs
      )
    }
    let order = ActivityContext.allCases
    return effects.map {
      SongEffect(
        songID: $0.key.songID, context: $0.key.context, effect: $0.value.effect,
        updatedAtMs: $0.value.lastMs)
    }.sorted {
      ($0.songID, order.firstIndex(of: $0.context) ?? 0)
        < ($1.songID, order.firstIndex(of: $1.context) ?? 0)
    }
  }
}
