import ResonanceModel

/// The filters that run before scoring and remove candidates outright.
package enum GuardFilters {
  /// Why a candidate was rejected.
  package enum Rejection: String, Sendable, Equatable, Codable {
    case missingID = "missing-id"
    case playedRecently = "played-recently"
    case sameArtist = "same-artist"
    case nightBPM = "night-bpm"
  }

  /// A song that played less than this many minutes ago is not played again.
  package static let recencyFilterMinutes = 60.0
  /// At most this many of the last `artistWindow` plays may share an artist with a candidate:
  /// none, so an artist heard in the last three plays waits.
  package static let sameArtistLimit = 0
  package static let artistWindow = 3
  /// Between 22:00 and 05:00 local, nothing faster than this plays.
  package static let nightBPMHardCap = 110.0

  /// The reason `candidate` may not play at `moment`, or `nil` when it may.
  package static func rejection(of candidate: Candidate, at moment: DecisionMoment) -> Rejection? {
    guard let id = candidate.songID, !id.isEmpty else { return .missingID }
    if let last = candidate.lastPlayedAtMs,
      Double(moment.nowMs - last) / 60_000 < recencyFilterMinutes
    {
      return .playedRecently
    }
    let sameArtist = moment.recentArtists.prefix(artistWindow).filter { $0 == candidate.artist }
    if sameArtist.count > sameArtistLimit { return .sameArtist }
    if moment.localHour >= 22 || moment.localHour < 5,
      candidate.features.bpm > nightBPMHardCap
    {
      return .nightBPM
    }
    return nil
  }
}
