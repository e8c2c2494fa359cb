/// One song as the store keeps it: one row of `songs` per real song across every source, with
/// every identifier any source gave it and the keys its names compare by.
package struct CatalogSong: Sendable, Equatable {
  /// The store's id for it (`songs.id`).
  package var id: Int64
  /// Empty for a song known only by an identifier (a decision log's catalog ID).
  package var title: String
  /// `nil` for an *unresolved* song: no source has named its artist yet.
  package var artist: String?
  /// The album, as a library spells it, else as the first source did.
  package var album: String?
  /// The genre, as the first source that names one does.
  package var genre: String?
  /// The song's length, milliseconds.
  package var durationMs: Int64?
  /// Apple Music's catalog ID.
  package var appleCatalogID: String?
  /// `spotify:track:…`.
  package var spotifyURI: String?
  /// Music.app's 16-hex `Persistent ID`.
  package var libraryPersistentID: String?
  /// The MusicBrainz recording ID, lower-case.
  package var musicBrainzRecordingID: String?
  /// From a library file, never an estimate.
  package var bpm: Double?
  /// A library's counts, the largest seen.
  package var playCount: Int
  /// A library's skip count, the largest seen.
  package var skipCount: Int
  /// `SongIdentity.titleKey(title)`, `""` for no title.
  package var titleKey: String
  /// `SongIdentity.albumKey(album)`, `""` for no album.
  package var albumKey: String
  /// `SongIdentity.artistKey(artist)`, kept by the catalog that holds the song (which
  /// computes each artist's once); `""` for no artist, or before a catalog set it.
  package var artistKey: String

  /// A song with the given fields; `titleKey`, `albumKey` and `artistKey` are the
  /// `SongIdentity` keys of its title, album and artist (a catalog sets the last itself).
  package init(
    id: Int64, title: String, artist: String? = nil, album: String? = nil,
    genre: String? = nil, durationMs: Int64? = nil, appleCatalogID: String? = nil,
    spotifyURI: String? = nil, libraryPersistentID: String? = nil,
    musicBrainzRecordingID: String? = nil, bpm: Double? = nil, playCount: Int = 0,
    skipCount: Int = 0, titleKey: String, albumKey: String, artistKey: String = ""
  ) {
    self.id = id
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
    self.titleKey = titleKey
    self.albumKey = albumKey
    self.artistKey = artistKey
  }

  /// The key no two songs share (the store's `identity_key`): `name:artist|title` for a song
  /// with an artist, `title:title|album` for an unresolved one, else its first identifier
  /// (`apple:`, `spotify:`, `library:`, `musicbrainz:`), else `unnamed`.
  package var identityKey: String {
    if let artist, !title.isEmpty {
      // The kept key, computed only for a song no catalog holds (the key of a name of only
      // punctuation is empty too, and is computed again, to the same).
      return "name:" + (artistKey.isEmpty ? SongIdentity.artistKey(artist) : artistKey) + "|"
        + titleKey
    }
    if !title.isEmpty { return "title:" + titleKey + "|" + albumKey }
    if let appleCatalogID { return "apple:" + appleCatalogID }
    if let spotifyURI { return "spotify:" + spotifyURI }
    if let libraryPersistentID { return "library:" + libraryPersistentID }
    if let musicBrainzRecordingID { return "musicbrainz:" + musicBrainzRecordingID }
    // A reference with neither a title nor an identifier cannot be stored (the readers never
    // make one); one key for all of them keeps the rule total.
    return "unnamed"
  }

  /// Whether nothing names it: no title and no identifier (`identityKey` is `unnamed`).
  var isUnnamed: Bool {
    title.isEmpty && appleCatalogID == nil && spotifyURI == nil && libraryPersistentID == nil
      && musicBrainzRecordingID == nil
  }
}
