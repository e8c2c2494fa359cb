/// The services and recordings a play can come from, as the store names them.
package enum ListeningSource: String, CaseIterable, Sendable, Codable, Hashable {
  /// Apple Music's Play Activity CSV.
  case appleMusic = "apple-music"
  /// Spotify's Extended Streaming History.
  case spotify
  /// Spotify's account-data `StreamingHistory*.json` (a year, minute precision, no skip flag).
  case spotifyAccount = "spotify-account"
  /// Last.fm scrobbles.
  case lastFM = "last-fm"
  /// ListenBrainz listens (its export's months, or the older JSON array).
  case listenBrainz = "listenbrainz"
  /// The Resonance DJ's decision log.
  case decisionLog = "decision-log"

  /// Whether the source is a listening history whose own skip mark decides a merged play
  /// (the decision log's outcome decides only for plays no history reports).
  package var isHistory: Bool { self != .decisionLog }
}

/// A song as one source names it: whatever titles, names and identifiers that source gives.
/// The store resolves references to one Song row per real song.
package struct SongReference: Sendable, Equatable, Hashable {
  package var title: String?
  package var artist: String?
  package var album: String?
  package var genre: String?
  package var durationMs: Int64?
  /// Apple Music catalog ID (`Apple Music Track Identifier`, the decision log's song IDs).
  package var appleCatalogID: String?
  /// `spotify:track:…`.
  package var spotifyURI: String?
  /// Music.app's 16-hex `Persistent ID`.
  package var libraryPersistentID: String?
  /// The MusicBrainz recording ID (a UUID, lower-case), where a source maps the song to one.
  package var musicBrainzRecordingID: String?
  /// Tempo from a library file, when the library gives one (never 0).
  package var bpm: Double?
  /// Library play and skip counts, when the source is a library.
  package var playCount: Int?
  package var skipCount: Int?

  package init(
    title: String? = nil, artist: String? = nil, album: String? = nil, genre: String? = nil,
    durationMs: Int64? = nil, appleCatalogID: String? = nil, spotifyURI: String? = nil,
    libraryPersistentID: String? = nil, musicBrainzRecordingID: String? = nil,
    bpm: Double? = nil, playCount: Int? = nil, skipCount: Int? = nil
  ) {
    self.title = title
    self.artist = artist
    self.album = album
    self.genre = genre
    self.durationMs = durationMs
    self.appleCatalogID = appleCatalogID
    self.spotifyURI = spotifyURI
    self.libraryPersistentID = libraryPersistentID
    self.musicBrainzRecordingID = musicBrainzRecordingID
    self.bpm = bpm
    self.playCount = playCount
    self.skipCount = skipCount
  }
}

/// One listen as a source reports it, after the source's own rules (merged pause and scrub
/// rows, `ts − ms_played`, clamped durations) have been applied.
package struct PlayReport: Sendable, Equatable {
  package var song: SongReference
  package var source: ListeningSource
  /// When the listen began, UTC milliseconds.
  package var startMs: Int64
  /// The source's UTC offset in seconds, when the source records one (Apple Music, the
  /// decision log); `nil` for sources that do not (Spotify, Last.fm), which the import fills
  /// from the Health data or the user's time zone.
  package var utcOffsetSeconds: Int32?
  /// When the listen ended, UTC milliseconds.
  package var endMs: Int64
  /// Milliseconds actually listened; `nil` where the source does not say (Last.fm).
  package var playedMs: Int64?
  package var mediaDurationMs: Int64?
  /// Whether the source marks the play as skipped (`TRACK_SKIPPED_FORWARDS`, `fwdbtn`, …).
  package var wasSkipped: Bool
  /// Whether the source marks the play as played to its end.
  package var completed: Bool?
  /// The source's end reason, as it spells it.
  package var endReason: String?
  package var startReason: String?
  package var shuffle: Bool?
  /// The decision that chose the song, for decision-log plays.
  package var decision: Int?
  /// The line of the source file the play was read from (its last row for merged rows).
  package var line: Int

  package init(
    song: SongReference, source: ListeningSource, startMs: Int64, utcOffsetSeconds: Int32?,
    endMs: Int64, playedMs: Int64?, mediaDurationMs: Int64? = nil, wasSkipped: Bool,
    completed: Bool? = nil, endReason: String? = nil, startReason: String? = nil,
    shuffle: Bool? = nil, decision: Int? = nil, line: Int
  ) {
    self.song = song
    self.source = source
    self.startMs = startMs
    self.utcOffsetSeconds = utcOffsetSeconds
    self.endMs = endMs
    self.playedMs = playedMs
    self.mediaDurationMs = mediaDurationMs
    self.wasSkipped = wasSkipped
    self.completed = completed
    self.endReason = endReason
    self.startReason = startReason
    self.shuffle = shuffle
    self.decision = decision
    self.line = line
  }
}

/// A playlist from a library file, its songs in order.
package struct PlaylistReference: Sendable, Equatable {
  package var name: String
  package var libraryPersistentID: String?
  package var songs: [SongReference]

  package init(name: String, libraryPersistentID: String?, songs: [SongReference]) {
    self.name = name
    self.libraryPersistentID = libraryPersistentID
    self.songs = songs
  }
}

/// What one listening file holds: plays, songs it describes (a library, or the `Artist -
/// Title` pairs of Apple's daily summaries), and playlists.
package struct ListeningFile: Sendable {
  /// The reader that read it, as the ledger names importers (`apple-music-play-activity`, …).
  package var kind: ListeningFileKind
  package var plays: [PlayReport]
  package var songs: [SongReference]
  package var playlists: [PlaylistReference]
  /// Data rows read (plays are fewer: merged rows, rows without a song).
  package var rows: Int

  package init(
    kind: ListeningFileKind, plays: [PlayReport] = [], songs: [SongReference] = [],
    playlists: [PlaylistReference] = [], rows: Int
  ) {
    self.kind = kind
    self.plays = plays
    self.songs = songs
    self.playlists = playlists
    self.rows = rows
  }
}

/// A kind of listening file, by its name: the one `--as` and the ledger's `importer` give it
/// (`apple-music-play-activity`, `spotify-extended-history`, …).
///
/// Not a closed enum: the kinds are Ingest's table's (`ImportRegistry.listeningFormats`,
/// whose comment gives the reasoning), which alone makes them, so a new format adds an entry
/// there and nothing here. Other modules only carry the name.
package struct ListeningFileKind: Sendable, Hashable, CustomStringConvertible {
  /// The `--as` and ledger name.
  package let name: String

  /// The kind named `name`; only Ingest's table of formats makes kinds.
  package init(name: String) { self.name = name }

  /// The name.
  package var description: String { name }
}
