import ResonanceModel

/// The filters that run before scoring and remove candidates outright.
package enum GuardFilters {
  /// Why a candidate was rejected.
  package enum Rejection: String, Sendable, Equatable, Codable {
    case missingID = "missing-id"
    case playedRecently = "played-recently"
    case sameArtist = "same-artist"
    case nightBPM = "night-bpm"
    /// Faster than the real-time adjuster's ceiling.
    case bpmCeiling = "bpm-ceiling"
  }

  /// The reason `candidate` may not play at `moment`, or `nil` when it may. The rules and
  /// their numbers are the preferences' (`repeatBlockMinutes`, `sameArtistLimit` of the last
  /// `sameArtistWindow` plays, `nightHardCapBPM` from `nightStartHour` to `nightEndHour`),
  /// with the adjuster's ceiling when it has one.
  package static func rejection(
    of candidate: Candidate, at moment: DecisionMoment,
    preferences: UserPreferences = .appDefault, adjuster: AdjusterState = AdjusterState()
  ) -> Rejection? {
    guard let id = candidate.songID, !id.isEmpty else { return .missingID }
    if let last = candidate.lastPlayedAtMs,
      Double(moment.nowMs - last) / 60_000 < preferences.repeatBlockMinutes
    {
      return .playedRecently
    }
    let sameArtist = moment.recentArtists.prefix(preferences.sameArtistWindow).filter {
      $0 == candidate.artist
    }
    if sameArtist.count > preferences.sameArtistLimit { return .sameArtist }
    if SongScorer.isNight(moment.localHour, preferences),
      candidate.features.bpm > preferences.nightHardCapBPM
    {
      return .nightBPM
    }
    if let ceiling = adjuster.bpmCeiling, candidate.features.bpm > ceiling { return .bpmCeiling }
    return nil
  }
}
