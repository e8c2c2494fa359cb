import ResonanceModel

/// The seven components a play the person chose themselves would have had in the DJ's
/// scorer, rebuilt from the history (`docs/tuning.md`, "The pairwise cross-check"). No
/// decision log exists for such a play, so the moment is approximated: the need is the
/// context's at neutral stress (0.5; the state engine ran for the DJ's sessions only), the
/// song's features are the analysis's estimates, its play count and last play are those the
/// store holds before it (plays before the first export are unknown), the library's largest
/// play count is the largest so far, and the learned effect is none (0.5).
package enum PlayComponents {
  /// Neutral stress for a moment the state engine did not see.
  package static let neutralStress = 0.5

  /// For each play in `plays` (start order), its components, or nil when it has no context or
  /// its song no estimated features.
  ///
  /// - Complexity: O(plays).
  package static func reconstruct(
    _ plays: [RankingPlay], features: [Int64: SongFeatures]
  ) -> [ScoringComponents?] {
    var counts: [Int64: Int] = [:]
    var last: [Int64: Int64] = [:]
    var maxCount = 0
    return plays.map { play in
      defer {
        counts[play.songID, default: 0] += 1
        maxCount = max(maxCount, counts[play.songID]!)
        last[play.songID] = play.start.millisecondsSinceEpoch
      }
      guard let context = play.context, let songFeatures = features[play.songID] else {
        return nil
      }
      let moment = DecisionMoment(
        need: NeedRule.need(context: context, stress: neutralStress), context: context,
        nowMs: play.start.millisecondsSinceEpoch,
        localHour: localHour(play.start),
        stress: neutralStress, previous: nil, recentArtists: [],
        maxPlayCount: max(1, maxCount))
      let candidate = Candidate(
        songID: String(play.songID), artist: "", features: songFeatures,
        playCount: counts[play.songID] ?? 0, learnedEffect: nil,
        lastPlayedAtMs: last[play.songID])
      return SongScorer.components(for: candidate, at: moment)
    }
  }

  /// The local hour with fraction of an instant, in its own offset.
  static func localHour(_ time: Timestamp) -> Double {
    let local = time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000
    let day: Int64 = 86_400_000
    return Double(((local % day) + day) % day) / 3_600_000
  }
}
