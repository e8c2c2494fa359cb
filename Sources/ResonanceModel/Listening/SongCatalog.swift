/// What resolving a reference changed in the catalog, for the store to write, in order.
package enum SongChange: Sendable, Equatable {
  /// A new song.
  case added(CatalogSong)
  /// A song's fields changed (a later source filled them, a library respelled them).
  case updated(CatalogSong)
  /// Song `from` turned out to be `into`: its plays and playlist entries move to `into`, what
  /// was derived for it goes, it goes, and `into` takes the fields shown. Plays of `into` that
  /// now collide are one listen (`ListenMerge.collapse`).
  case merged(from: Int64, into: CatalogSong)
}

/// Every song the store knows, and the rules that resolve a source's reference to one of them
/// (`docs/formats.md`, "Song identity"): one song per real song across every source.
///
/// A reference resolves, in order: by a shared identifier (Apple catalog ID, Spotify URI,
/// library Persistent ID, MusicBrainz recording ID); by its artist and title keys
/// (`SongIdentity`); for a reference without an artist (Apple's play log), by title and album
/// when exactly one song with an artist has them — several are told apart by a duration within
/// 2 s — or by title alone when exactly one song has it and the albums do not contradict; else
/// it becomes a new song. One without an artist stays *unresolved* until a later reference
/// names its artist, when it merges into the song that one names, plays and all. A library's
/// spelling of title, artist and album wins over what plays spelled.
///
/// A value: resolving changes the catalog and reports what changed (`SongChange`), and the
/// caller writes it.
///
/// ```swift
/// var catalog = SongCatalog(songs: stored)
/// var changes: [SongChange] = []
/// let id = catalog.resolve(play.song, into: &changes)
/// for change in changes { write(change) }
/// ```
package struct SongCatalog: Sendable {
  private var songs: [Int64: CatalogSong] = [:]
  private var byCatalog: [String: Int64] = [:]
  private var bySpotify: [String: Int64] = [:]
  private var byLibrary: [String: Int64] = [:]
  private var byMusicBrainz: [String: Int64] = [:]
  /// Songs with an artist, by `artist|title` key.
  private var byName: [String: Int64] = [:]
  /// Songs with an artist, by `title|album` key, and by title key.
  private var byTitleAlbum: [String: [Int64]] = [:]
  private var byTitle: [String: [Int64]] = [:]
  /// Songs without an artist, by `title|album` key.
  private var unresolved: [String: Int64] = [:]
  private var keyCache: [String: String] = [:]
  /// References already resolved (most plays repeat a song), keyed by title alone (hashing
  /// one string, not eleven fields) and compared whole on a hit; emptied when songs merge,
  /// since ids change then.
  private var resolved: [String: [(reference: SongReference, id: Int64)]] = [:]
  /// The id the next new song takes.
  package private(set) var nextID: Int64

  /// A catalog of `songs` (the store's); new songs are numbered from `nextID`, else from one
  /// past the largest id.
  package init(songs: [CatalogSong] = [], nextID: Int64? = nil) {
    self.nextID = nextID ?? ((songs.map(\.id).max() ?? 0) + 1)
    for var song in songs {
      song.artistKey = song.artist.map { artistKey($0) } ?? ""
      register(song)
    }
  }

  /// How many songs it holds.
  package var count: Int { songs.count }

  /// The song with id `id`.
  package subscript(id: Int64) -> CatalogSong? { songs[id] }

  /// The song `reference` names, created or completed as needed.
  ///
  /// - Parameters:
  ///   - isLibrary: the reference comes from a library file, whose spelling of title, artist
  ///     and album replaces the song's.
  ///   - changes: what changed is appended here, in the order to write it.
  /// - Returns: the song's id.
  package mutating func resolve(
    _ reference: SongReference, isLibrary: Bool = false, into changes: inout [SongChange]
  ) -> Int64 {
    let cacheKey = reference.title ?? reference.appleCatalogID ?? reference.spotifyURI ?? ""
    if !isLibrary, let hit = resolved[cacheKey]?.first(where: { $0.reference == reference }) {
      return hit.id
    }
    let id: Int64
    if let found = find(reference) {
      id = enrich(found, with: reference, isLibrary: isLibrary, into: &changes)
    } else {
      id = create(reference, into: &changes)
    }
    resolved[cacheKey, default: []].append((reference, id))
    return id
  }

  /// Gives the unresolved songs another chance once a file's songs are known: each that now
  /// matches exactly one song with an artist (by title and album, or title) merges into it.
  package mutating func resolvePending(into changes: inout [SongChange]) {
    let pending = songs.values.filter { $0.artist == nil && !$0.title.isEmpty }.map(\.id).sorted()
    for id in pending {
      guard let current = songs[id],
        let target = match(
          titleKey: current.titleKey, albumKey: current.albumKey, durationMs: current.durationMs),
        target != current.id, let into = songs[target]
      else { continue }
      unregister(current)
      merge(current, into: into, changes: &changes)
    }
  }

  // MARK: - Finding

  private mutating func find(_ reference: SongReference) -> Int64? {
    if let c = reference.appleCatalogID, let id = byCatalog[c] { return id }
    if let u = reference.spotifyURI, let id = bySpotify[u] { return id }
    if let p = reference.libraryPersistentID, let id = byLibrary[p] { return id }
    if let m = reference.musicBrainzRecordingID, let id = byMusicBrainz[m] { return id }
    guard let title = nonEmpty(reference.title) else {
      // Nothing names it: all such references share the one "unnamed" song.
      let named =
        reference.appleCatalogID ?? reference.spotifyURI ?? reference.libraryPersistentID
        ?? reference.musicBrainzRecordingID
      return named == nil ? songs.values.first(where: \.isUnnamed)?.id : nil
    }
    let tk = titleKey(title)
    if let artist = nonEmpty(reference.artist) {
      return byName[nameKey(artist: artist, titleKey: tk)]
    }
    let ak = albumKey(reference.album)
    return match(titleKey: tk, albumKey: ak, durationMs: reference.durationMs)
      ?? unresolved[tk + "|" + ak]
  }

  /// The one song with an artist that an artistless title (and album) can only mean. Two
  /// songs of one title on one album (different artists) are told apart by duration, when the
  /// reference has one: the same recording's length agrees to within 2 seconds.
  private func match(titleKey tk: String, albumKey ak: String, durationMs: Int64?) -> Int64? {
    if !ak.isEmpty, let ids = byTitleAlbum[tk + "|" + ak] {
      if ids.count == 1 { return ids[0] }
      guard let duration = durationMs else { return nil }
      let sameLength = ids.filter { id in
        songs[id]?.durationMs.map { abs($0 - duration) <= 2_000 } ?? false
      }
      return sameLength.count == 1 ? sameLength[0] : nil
    }
    guard let ids = byTitle[tk], ids.count == 1, let song = songs[ids[0]] else { return nil }
    return ak.isEmpty || song.albumKey.isEmpty ? song.id : nil
  }

  // MARK: - Changing

  private mutating func create(_ r: SongReference, into changes: inout [SongChange]) -> Int64 {
    let song = CatalogSong(
      id: nextID, title: r.title ?? "", artist: nonEmpty(r.artist), album: nonEmpty(r.album),
      genre: nonEmpty(r.genre), durationMs: r.durationMs, appleCatalogID: r.appleCatalogID,
      spotifyURI: r.spotifyURI, libraryPersistentID: r.libraryPersistentID,
      musicBrainzRecordingID: r.musicBrainzRecordingID, bpm: r.bpm, playCount: r.playCount ?? 0,
      skipCount: r.skipCount ?? 0, titleKey: r.title.map { titleKey($0) } ?? "",
      albumKey: albumKey(nonEmpty(r.album)),
      artistKey: nonEmpty(r.artist).map { artistKey($0) } ?? "")
    nextID += 1
    register(song)
    changes.append(.added(song))
    return song.id
  }

  /// Fills what the song lacks from the reference; when that gives it an artist another song
  /// already has with the same title, the two are one song and merge.
  private mutating func enrich(
    _ id: Int64, with r: SongReference, isLibrary: Bool, into changes: inout [SongChange]
  ) -> Int64 {
    guard let old = songs[id] else { return id }
    var song = old
    if song.title.isEmpty || isLibrary, let title = nonEmpty(r.title) {
      song.title = title
      song.titleKey = titleKey(title)
    }
    if song.artist == nil || isLibrary, let artist = nonEmpty(r.artist) {
      song.artist = artist
      song.artistKey = artistKey(artist)
    }
    if song.album == nil || isLibrary, let album = nonEmpty(r.album) {
      song.album = album
      song.albumKey = albumKey(album)
    }
    if song.genre == nil { song.genre = nonEmpty(r.genre) }
    if song.durationMs == nil { song.durationMs = r.durationMs }
    if song.appleCatalogID == nil, let c = r.appleCatalogID, byCatalog[c] == nil {
      song.appleCatalogID = c
    }
    if song.spotifyURI == nil, let u = r.spotifyURI, bySpotify[u] == nil { song.spotifyURI = u }
    if song.libraryPersistentID == nil, let p = r.libraryPersistentID, byLibrary[p] == nil {
      song.libraryPersistentID = p
    }
    if song.musicBrainzRecordingID == nil, let m = r.musicBrainzRecordingID,
      byMusicBrainz[m] == nil
    {
      song.musicBrainzRecordingID = m
    }
    if let bpm = r.bpm { song.bpm = bpm }
    if let n = r.playCount { song.playCount = max(song.playCount, n) }
    if let n = r.skipCount { song.skipCount = max(song.skipCount, n) }
    guard song != old else { return id }

    unregister(old)
    // Gaining a name can reveal that another song is the same song.
    if !song.title.isEmpty, song.identityKey != old.identityKey {
      let other: Int64? =
        if song.artist != nil {
          byName[song.artistKey + "|" + song.titleKey]
        } else {
          unresolved[song.titleKey + "|" + song.albumKey]
        }
      if let other, other != id, let into = songs[other] {
        merge(song, into: into, changes: &changes)
        // The surviving song takes a library's spelling too.
        return isLibrary ? enrich(other, with: r, isLibrary: true, into: &changes) : other
      }
    }
    register(song)
    changes.append(.updated(song))
    return id
  }

  /// Merges song `from` (already out of the indexes) into `into`, which gains the fields it
  /// lacked.
  private mutating func merge(
    _ from: CatalogSong, into: CatalogSong, changes: inout [SongChange]
  ) {
    unregister(into)
    var target = into
    if target.album == nil, let album = from.album {
      target.album = album
      target.albumKey = from.albumKey
    }
    if target.genre == nil { target.genre = from.genre }
    if target.durationMs == nil { target.durationMs = from.durationMs }
    if target.appleCatalogID == nil { target.appleCatalogID = from.appleCatalogID }
    if target.spotifyURI == nil { target.spotifyURI = from.spotifyURI }
    if target.libraryPersistentID == nil { target.libraryPersistentID = from.libraryPersistentID }
    if target.musicBrainzRecordingID == nil {
      target.musicBrainzRecordingID = from.musicBrainzRecordingID
    }
    if target.bpm == nil { target.bpm = from.bpm }
    target.playCount = max(target.playCount, from.playCount)
    target.skipCount = max(target.skipCount, from.skipCount)
    register(target)
    resolved.removeAll()
    changes.append(.merged(from: from.id, into: target))
  }

  // MARK: - Indexes

  private mutating func register(_ song: CatalogSong) {
    songs[song.id] = song
    if let c = song.appleCatalogID { byCatalog[c] = song.id }
    if let u = song.spotifyURI { bySpotify[u] = song.id }
    if let p = song.libraryPersistentID { byLibrary[p] = song.id }
    if let m = song.musicBrainzRecordingID { byMusicBrainz[m] = song.id }
    guard !song.title.isEmpty else { return }
    if song.artist != nil {
      byName[song.artistKey + "|" + song.titleKey] = song.id
      if !song.albumKey.isEmpty {
        byTitleAlbum[song.titleKey + "|" + song.albumKey, default: []].append(song.id)
      }
      byTitle[song.titleKey, default: []].append(song.id)
    } else {
      unresolved[song.titleKey + "|" + song.albumKey] = song.id
    }
  }

  private mutating func unregister(_ song: CatalogSong) {
    songs[song.id] = nil
    if let c = song.appleCatalogID, byCatalog[c] == song.id { byCatalog[c] = nil }
    if let u = song.spotifyURI, bySpotify[u] == song.id { bySpotify[u] = nil }
    if let p = song.libraryPersistentID, byLibrary[p] == song.id { byLibrary[p] = nil }
    if let m = song.musicBrainzRecordingID, byMusicBrainz[m] == song.id { byMusicBrainz[m] = nil }
    guard !song.title.isEmpty else { return }
    if song.artist != nil {
      let name = song.artistKey + "|" + song.titleKey
      if byName[name] == song.id { byName[name] = nil }
      Self.remove(song.id, from: &byTitleAlbum, at: song.titleKey + "|" + song.albumKey)
      Self.remove(song.id, from: &byTitle, at: song.titleKey)
    } else {
      let key = song.titleKey + "|" + song.albumKey
      if unresolved[key] == song.id { unresolved[key] = nil }
    }
  }

  /// Takes `id` out of the list at `key`, and the key out when its list empties: a key with
  /// no songs left reads as one never seen, as it would in a catalog loaded afresh.
  private static func remove(_ id: Int64, from index: inout [String: [Int64]], at key: String) {
    guard var ids = index[key] else { return }
    ids.removeAll { $0 == id }
    index[key] = ids.isEmpty ? nil : ids
  }

  // MARK: - Keys

  private mutating func key(_ text: String, _ make: (String) -> String, tag: Character)
    -> String
  {
    let cacheKey = "\(tag)\u{1F}\(text)"
    if let cached = keyCache[cacheKey] { return cached }
    let value = make(text)
    keyCache[cacheKey] = value
    return value
  }

  private mutating func titleKey(_ title: String) -> String {
    key(title, SongIdentity.titleKey, tag: "t")
  }

  private mutating func albumKey(_ album: String?) -> String {
    album.map { key($0, SongIdentity.albumKey, tag: "b") } ?? ""
  }

  private mutating func artistKey(_ artist: String) -> String {
    key(artist, SongIdentity.artistKey, tag: "a")
  }

  private mutating func nameKey(artist: String, titleKey: String) -> String {
    artistKey(artist) + "|" + titleKey
  }

  private func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
