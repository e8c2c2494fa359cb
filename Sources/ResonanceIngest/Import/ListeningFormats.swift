import ResonanceIO
import ResonanceModel

/// The listening file kinds, as the table below names them (`--as`, the ledger's `importer`).
///
/// A kind is a `ListeningFileKind`, a Model struct wrapping the name, not a case of a closed
/// Model enum. The set of listening formats is Ingest's to know (DESIGN: "Formats live in
/// ResonanceIngest"): with a Model enum, every new format would add a case there and to every
/// switch over it, in modules that have no business knowing formats. What crosses the module
/// boundary — to the store's ledger, to the import summary — is only the name, and whatever a
/// module needs beyond it (a library's spelling winning, the source's rank) travels as its own
/// value. Only this table makes kinds; the Model keeps one closed enum, `ListeningSource`, one
/// case per service whose plays the store tells apart.
extension ListeningFileKind {
  /// `apple-music-play-activity`.
  package static let applePlayActivity = Self(name: "apple-music-play-activity")
  /// `apple-music-daily-tracks`.
  package static let appleDailyTracks = Self(name: "apple-music-daily-tracks")
  /// `apple-music-track-play-history`.
  package static let appleTrackPlayHistory = Self(name: "apple-music-track-play-history")
  /// `apple-music-library-tracks`.
  package static let appleLibraryTracks = Self(name: "apple-music-library-tracks")
  /// `music-library-xml`.
  package static let musicLibraryXML = Self(name: "music-library-xml")
  /// `spotify-extended-history`.
  package static let spotifyExtended = Self(name: "spotify-extended-history")
  /// `spotify-account-history`.
  package static let spotifyAccount = Self(name: "spotify-account-history")
  /// `last-fm-scrobbles`.
  package static let lastFM = Self(name: "last-fm-scrobbles")
  /// `listenbrainz-listens`.
  package static let listenBrainz = Self(name: "listenbrainz-listens")
}

extension ImportRegistry {
  /// Every listening format the tool reads, in the order recognition tries them (and `--as`
  /// lists them): the one place a listening format is declared.
  ///
  /// Adding a format is a reader and one entry here (with its kind's name above); the
  /// recognition, the `--as` names, the help's list of files, the messages' list of services,
  /// the store's merge precedence and the ledger's importer names follow from the entries.
  package static let listeningFormats: [ListeningFormat] = [
    ListeningFormat(
      .applePlayActivity, service: "Apple Music", files: "Apple Music Play Activity",
      plays: .init(.appleMusic, rank: 4), recognizes: AppleMusicPlayActivityReader.looksLike,
      reading: .streamed { path, source, plays in
        let read = try AppleMusicPlayActivityReader.stream(
          path: path, source: source, emit: plays.send, restart: plays.restart)
        return (read.rows, read.diagnostics)
      }),
    ListeningFormat(
      .appleDailyTracks, service: "Apple Music", files: "Play History Daily Tracks", plays: nil,
      recognizes: { AppleMusicHistorySummaryReader.kind(of: $0) == .appleDailyTracks },
      reading: .whole(AppleMusicHistorySummaryReader.read(path:source:))),
    ListeningFormat(
      .appleTrackPlayHistory, service: "Apple Music", files: "Track Play History", plays: nil,
      recognizes: { AppleMusicHistorySummaryReader.kind(of: $0) == .appleTrackPlayHistory },
      reading: .whole(AppleMusicHistorySummaryReader.read(path:source:))),
    ListeningFormat(
      .appleLibraryTracks, service: "Apple Music", files: "Library Tracks", plays: nil,
      describesLibrary: true, recognizes: AppleMusicLibraryTracksReader.looksLike,
      reading: .whole(AppleMusicLibraryTracksReader.read(path:source:))),
    ListeningFormat(
      .musicLibraryXML, service: "Music.app", files: "Music.app Library.xml", plays: nil,
      describesLibrary: true, recognizes: MusicLibraryReader.looksLike,
      reading: .whole(MusicLibraryReader.read(path:source:))),
    ListeningFormat(
      .spotifyExtended, service: "Spotify", files: "Spotify Extended Streaming History",
      plays: .init(.spotify, rank: 4), recognizes: SpotifyExtendedReader.looksLike,
      reading: .streamed { path, source, plays in
        try SpotifyExtendedReader.stream(path: path, source: source, emit: plays.send)
      }),
    ListeningFormat(
      .spotifyAccount, service: "Spotify", files: "account StreamingHistory*.json",
      plays: .init(.spotifyAccount, rank: 3), recognizes: SpotifyAccountReader.looksLike,
      reading: .whole(SpotifyAccountReader.read(path:source:))),
    ListeningFormat(
      .lastFM, service: "Last.fm", files: "Last.fm scrobble CSV",
      plays: .init(.lastFM, rank: 2), recognizes: LastFMReader.looksLike,
      reading: .whole(LastFMReader.read(path:source:))),
    ListeningFormat(
      .listenBrainz, service: "ListenBrainz",
      files: "ListenBrainz listens (the export zip's months, or the older JSON array)",
      plays: .init(.listenBrainz, rank: 2), recognizes: ListenBrainzReader.looksLike,
      reading: .streamed { path, source, plays in
        try ListenBrainzReader.stream(path: path, source: source, emit: plays.send)
      }),
  ]
}
