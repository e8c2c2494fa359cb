import ResonanceModel

/// The listening kinds these tests import as. The kinds are Ingest's table's, which the store
/// does not know (it keeps a kind's name in the ledger and nothing else), so the store's tests
/// name the ones they use themselves, as Ingest names them.
extension ListeningFileKind {
  static let spotifyExtended = Self(name: "spotify-extended-history")
  static let applePlayActivity = Self(name: "apple-music-play-activity")
}
