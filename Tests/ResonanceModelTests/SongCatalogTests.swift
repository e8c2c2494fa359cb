import Testing

@testable import ResonanceModel

/// `docs/formats.md`, "Song identity: one Song row per real song", rule by rule.
@Suite("Song identity: the catalog's rules")
struct SongCatalogTests {
  /// A catalog and everything its resolutions changed.
  struct Catalog {
    var catalog = SongCatalog()
    var changes: [SongChange] = []

    mutating func resolve(_ reference: SongReference, isLibrary: Bool = false) -> Int64 {
      catalog.resolve(reference, isLibrary: isLibrary, into: &changes)
    }

    /// Resolves `reference` and returns only what that changed.
    mutating func changes(
      resolving reference: SongReference, isLibrary: Bool = false
    ) -> [SongChange] {
      changes.removeAll()
      _ = resolve(reference, isLibrary: isLibrary)
      return changes
    }

    subscript(id: Int64) -> CatalogSong? { catalog[id] }
  }

  static let lanterns = SongReference(title: "Paper Lanterns", artist: "Lumen Drift")

  @Test("a shared identifier links references however they spell the song")
  func sharedIdentifiers() {
    let identified: [(SongReference, SongReference)] = [
      (
        SongReference(title: "Glass, Houses", artist: "The Hollow Coast", appleCatalogID: "144"),
        SongReference(appleCatalogID: "144")
      ),
      (
        SongReference(title: "Ember", artist: "Signal & Noise", spotifyURI: "spotify:track:7q"),
        SongReference(title: "Ember (Radio Edit)", artist: "S&N", spotifyURI: "spotify:track:7q")
      ),
      (
        SongReference(title: "Blue", artist: "Loko", libraryPersistentID: "0123456789ABCDEF"),
        SongReference(title: "Bleu", libraryPersistentID: "0123456789ABCDEF")
      ),
      (
        SongReference(
          title: "Heroes", artist: "Bowie", musicBrainzRecordingID: "a1b2c3d4-0000-4000-8000-0000"),
        SongReference(
          title: "“Heroes”", artist: "David Bowie",
          musicBrainzRecordingID: "a1b2c3d4-0000-4000-8000-0000")
      ),
    ]
    for (first, second) in identified {
      var c = Catalog()
      let id = c.resolve(first)
      #expect(c.resolve(second) == id, "\(second)")
      #expect(c.catalog.count == 1)
    }
  }

  @Test("artist and title keys: spellings of one song are one song; other songs stay apart")
  func nameKeys() {
    var c = Catalog()
    let id = c.resolve(SongReference(title: "Glass, Houses", artist: "The Hollow Coast"))
    #expect(c.resolve(SongReference(title: "GLASS HOUSES", artist: "the hollow coast")) == id)
    #expect(
      c.resolve(
        SongReference(
          title: "Glass Houses (feat. Mira) - Remastered 2011", artist: "The Hollow Coast"))
        == id)
    #expect(
      c.resolve(SongReference(title: "Glass Houses (Live)", artist: "The Hollow Coast")) != id)
    #expect(c.resolve(SongReference(title: "Glass Houses", artist: "Hollow Coast")) != id)
  }

  @Test("an artistless title and album: the one song with an artist that has them")
  func titleAndAlbum() {
    var c = Catalog()
    let id = c.resolve(
      SongReference(title: "Paper Lanterns", artist: "Lumen Drift", album: "Night Roads"))
    #expect(c.resolve(SongReference(title: "Paper Lanterns", album: "Night Roads")) == id)
    #expect(c.catalog.count == 1)
  }

  @Test("one title on one album by two artists: the duration within 2 s tells them apart")
  func durationTieBreak() {
    var c = Catalog()
    let loko = c.resolve(
      SongReference(title: "Blue", artist: "Loko", album: "Sky", durationMs: 225_653))
    let nysas = c.resolve(
      SongReference(title: "Blue", artist: "The Runaway Nysas", album: "Sky", durationMs: 209_358))
    #expect(c.resolve(SongReference(title: "Blue", album: "Sky", durationMs: 209_000)) == nysas)
    #expect(c.resolve(SongReference(title: "Blue", album: "Sky", durationMs: 227_600)) == loko)
    // Neither within 2 s, or no duration at all: the row stays apart, unresolved.
    let neither = c.resolve(SongReference(title: "Blue", album: "Sky", durationMs: 230_000))
    #expect(![loko, nysas].contains(neither) && c[neither]?.artist == nil)
    #expect(c.resolve(SongReference(title: "Blue", album: "Sky")) == neither)
  }

  @Test("an artistless title alone: the one song with it, unless the albums contradict")
  func titleAlone() {
    var c = Catalog()
    let id = c.resolve(SongReference(title: "Ember", artist: "Signal & Noise"))
    #expect(c.resolve(SongReference(title: "Ember")) == id, "no album on either side")
    #expect(c.resolve(SongReference(title: "Ember", album: "Static Fields")) == id)
    var albums = Catalog()
    let onAlbum = albums.resolve(
      SongReference(title: "Ember", artist: "Signal & Noise", album: "Static Fields"))
    #expect(albums.resolve(SongReference(title: "Ember", album: "Other Fields")) != onAlbum)
    // Two songs of the title: the title alone cannot say which.
    _ = c.resolve(SongReference(title: "Ember", artist: "Ashes"))
    let ambiguous = c.resolve(SongReference(title: "Ember", album: "Unknown Album"))
    #expect(c[ambiguous]?.artist == nil)
  }

  @Test("an unresolved song merges, plays and all, when a later reference names its artist")
  func unresolvedMerges() {
    var c = Catalog()
    let unresolved = c.resolve(SongReference(title: "Paper Lanterns", album: "Night Roads"))
    let lumen = c.resolve(
      SongReference(title: "Paper Lanterns", artist: "Lumen Drift", album: "Night Roads"))
    // A song with an artist came in beside it: it resolves at the end of the file.
    #expect(unresolved != lumen)
    var changes: [SongChange] = []
    c.catalog.resolvePending(into: &changes)
    guard case .merged(let from, let into) = changes.first else {
      Issue.record("expected a merge, found \(changes)")
      return
    }
    #expect(from == unresolved && into.id == lumen && c.catalog.count == 1)
    #expect(c.resolve(SongReference(title: "Paper Lanterns", album: "Night Roads")) == lumen)
  }

  @Test("a summary naming the artist of an unresolved title: the two merge at the file's end")
  func summaryNamesArtist() {
    var c = Catalog()
    let unresolved = c.resolve(SongReference(title: "Paper Lanterns", album: "Night Roads"))
    #expect(c[unresolved]?.artist == nil)
    let named = c.resolve(Self.lanterns)
    #expect(named != unresolved && c.catalog.count == 2)
    c.changes.removeAll()
    c.catalog.resolvePending(into: &c.changes)
    #expect(c.catalog.count == 1 && c[named]?.artist == "Lumen Drift")
    #expect(c.changes.count == 1)
    // The merged song took the album only the unresolved one had.
    #expect(c[named]?.album == "Night Roads")
    #expect(c[named]?.identityKey == "name:lumen drift|paper lanterns")
  }

  @Test("an unresolved song found by an identifier, given its artist, merges into that song")
  func identifierGivesArtist() {
    var c = Catalog()
    let unresolved = c.resolve(SongReference(title: "Paper Lanterns", appleCatalogID: "7"))
    let named = c.resolve(
      SongReference(title: "Paper Lanterns", artist: "Lumen Drift", album: "Night Roads"))
    let changes = c.changes(resolving: SongReference(artist: "Lumen Drift", appleCatalogID: "7"))
    #expect(changes == [.merged(from: unresolved, into: c[named]!)])
    #expect(c[named]?.appleCatalogID == "7" && c.catalog.count == 1)
  }

  @Test("whatever the order, one song: the artist first, or the artistless row first")
  func orderIndependent() {
    let row = SongReference(title: "Paper Lanterns", album: "Night Roads", durationMs: 200_000)
    let library = SongReference(
      title: "Paper Lanterns", artist: "Lumen Drift", album: "Night Roads", genre: "Ambient")
    for order in [[row, library], [library, row]] {
      var c = Catalog()
      for reference in order { _ = c.resolve(reference, isLibrary: reference.artist != nil) }
      c.catalog.resolvePending(into: &c.changes)
      #expect(c.catalog.count == 1, "\(order)")
      #expect(c.resolve(row) == c.resolve(library))
    }
  }

  @Test("a library's spelling of title, artist and album wins over the plays'")
  func librarySpelling() {
    var c = Catalog()
    let id = c.resolve(
      SongReference(title: "GLASS HOUSES", artist: "the hollow coast", album: "night roads"))
    let changes = c.changes(
      resolving: SongReference(
        title: "Glass, Houses", artist: "The Hollow Coast", album: "Night Roads"),
      isLibrary: true)
    #expect(changes.count == 1)
    #expect(c[id]?.title == "Glass, Houses" && c[id]?.artist == "The Hollow Coast")
    #expect(c[id]?.album == "Night Roads")
    // A play's spelling never replaces one.
    #expect(
      c.changes(resolving: SongReference(title: "glass houses", artist: "THE HOLLOW COAST")).isEmpty
    )
    #expect(c[id]?.title == "Glass, Houses")
  }

  @Test("later sources fill what a song lacks; an identifier another song holds stays there")
  func filling() {
    var c = Catalog()
    let glass = c.resolve(SongReference(title: "Glass, Houses", artist: "The Hollow Coast"))
    _ = c.resolve(
      SongReference(
        title: "Glass, Houses", artist: "The Hollow Coast", genre: "Alternative",
        durationMs: 190_000, appleCatalogID: "1", spotifyURI: "spotify:track:0V", bpm: 128,
        playCount: 4, skipCount: 1))
    let song = c[glass]
    #expect(song?.genre == "Alternative" && song?.durationMs == 190_000 && song?.bpm == 128)
    #expect(song?.appleCatalogID == "1" && song?.spotifyURI == "spotify:track:0V")
    #expect(song?.playCount == 4 && song?.skipCount == 1)
    // Counts keep the largest seen; a genre, once known, stays.
    _ = c.resolve(
      SongReference(title: "Glass, Houses", artist: "The Hollow Coast", genre: "Rock", playCount: 2)
    )
    #expect(c[glass]?.playCount == 4 && c[glass]?.genre == "Alternative")
    // Found by its Spotify URI, a reference whose Persistent ID another song holds leaves it
    // there.
    let ember = c.resolve(
      SongReference(title: "Ember", artist: "Signal & Noise", libraryPersistentID: "00FF"))
    #expect(
      c.resolve(SongReference(spotifyURI: "spotify:track:0V", libraryPersistentID: "00FF")) == glass
    )
    #expect(c[glass]?.libraryPersistentID == nil && c[ember]?.libraryPersistentID == "00FF")
  }

  @Test("a merge keeps every identifier of both songs")
  func mergeKeepsIdentifiers() {
    var c = Catalog()
    let unresolved = c.resolve(
      SongReference(title: "Ember", album: "Static Fields", appleCatalogID: "9"))
    let named = c.resolve(
      SongReference(title: "Ember", artist: "Signal & Noise", spotifyURI: "spotify:track:7q"))
    // Naming the artist of the unresolved song reveals the two are one.
    let changes = c.changes(
      resolving: SongReference(title: "Ember", artist: "Signal & Noise", appleCatalogID: "9"))
    guard case .merged(let from, let into) = changes.first else {
      Issue.record("expected a merge, found \(changes)")
      return
    }
    #expect(from == unresolved && into.id == named)
    #expect(into.appleCatalogID == "9" && into.spotifyURI == "spotify:track:7q")
    #expect(into.album == "Static Fields")
    #expect(c.resolve(SongReference(appleCatalogID: "9")) == named)
  }

  @Test("a reference seen before resolves from the cache, changing nothing")
  func cache() {
    var c = Catalog()
    let id = c.resolve(Self.lanterns)
    #expect(c.changes == [.added(c[id]!)])
    #expect(c.changes(resolving: Self.lanterns).isEmpty)
    #expect(c.resolve(Self.lanterns) == id)
  }

  @Test("new songs are numbered after the stored ones; a stored catalog resolves as before")
  func stored() {
    let song = CatalogSong(
      id: 41, title: "Paper Lanterns", artist: "Lumen Drift",
      titleKey: SongIdentity.titleKey("Paper Lanterns"), albumKey: "")
    var c = Catalog(catalog: SongCatalog(songs: [song]))
    #expect(c.resolve(Self.lanterns) == 41 && c.changes.isEmpty)
    #expect(c.resolve(SongReference(title: "Ember", artist: "Signal & Noise")) == 42)
  }

  @Test("identity keys: by name, by title and album, else by an identifier")
  func identityKeys() {
    var c = Catalog()
    let keys = [
      Self.lanterns, SongReference(title: "Quiet Engine", album: "Static Fields"),
      SongReference(appleCatalogID: "1440000002"), SongReference(spotifyURI: "spotify:track:x"),
      SongReference(libraryPersistentID: "ABCDEF0123456789"),
      SongReference(musicBrainzRecordingID: "0f3c2c5e-1111-4222-8333-444455556666"),
      SongReference(),
    ].map { reference in
      let id = c.resolve(reference)
      return c[id]?.identityKey
    }
    #expect(
      keys == [
        "name:lumen drift|paper lanterns", "title:quiet engine|static fields", "apple:1440000002",
        "spotify:spotify:track:x", "library:ABCDEF0123456789",
        "musicbrainz:0f3c2c5e-1111-4222-8333-444455556666", "unnamed",
      ])
    // Every reference naming nothing shares the one unnamed song.
    #expect(c.resolve(SongReference(durationMs: 1)) == c.resolve(SongReference()))
  }
}
