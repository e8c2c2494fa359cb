/// Where a feature estimate comes from.
package enum FeatureSource: String, CaseIterable, Sendable, Codable, Hashable {
  /// The song's own BPM from a library file.
  case library
  /// The genre's prior refined by the ridge fit on this person's library BPMs.
  case genreRidge = "genre-ridge"
  /// The genre's prior alone.
  case genrePrior = "genre-prior"
  /// The `unknown genre` prior: no genre, or one the normalisation does not recognise.
  case fallback
}

/// One estimated feature: its value, its standard deviation, and where it comes from.
package struct Estimate: Sendable, Equatable, Codable, Hashable {
  package var value: Double
  package var sd: Double
  package var source: FeatureSource

  package init(value: Double, sd: Double, source: FeatureSource) {
    self.value = value
    self.sd = sd
    self.source = source
  }
}

/// What the store knows about one song that feature estimation uses.
package struct SongFeatureSource: Sendable, Equatable {
  package var songID: Int64
  /// The genre as the library or history spells it; `nil` when no source named one.
  package var genre: String?
  /// The tempo a library file gives, else `nil` (nothing derived poses as library data).
  package var libraryBPM: Double?
  /// The library's play count, 0 when no library lists the song.
  package var libraryPlayCount: Int
  /// The song's plays in the imported listening history.
  package var historyPlays: Int

  package init(
    songID: Int64, genre: String?, libraryBPM: Double?, libraryPlayCount: Int, historyPlays: Int
  ) {
    self.songID = songID
    self.genre = genre
    self.libraryBPM = libraryBPM
    self.libraryPlayCount = libraryPlayCount
    self.historyPlays = historyPlays
  }
}

/// One song's tempo, energy and valence estimates, each with its SD and source, and its
/// familiarity, 0…1 (`song_features`).
package struct SongFeatureEstimate: Sendable, Equatable {
  package var songID: Int64
  package var bpm: Estimate
  package var energy: Estimate
  package var valence: Estimate
  package var familiarity: Double

  package init(
    songID: Int64, bpm: Estimate, energy: Estimate, valence: Estimate, familiarity: Double
  ) {
    self.songID = songID
    self.bpm = bpm
    self.energy = energy
    self.valence = valence
    self.familiarity = familiarity
  }

  /// The values alone, as the decision engine takes them.
  package var features: SongFeatures {
    SongFeatures(bpm: bpm.value, energy: energy.value, valence: valence.value)
  }
}

/// How one run's songs got their tempo. The four BPM counts add up to `songs`.
package struct SongFeatureSummary: Sendable, Equatable, Codable {
  package var songs = 0
  /// Songs whose library file gives a plausible BPM (source `library`).
  package var libraryBPM = 0
  /// Songs given their genre's ridge estimate (`genre-ridge`).
  package var ridgeBPM = 0
  /// Songs given their genre's prior, the genre having no library BPM (`genre-prior`).
  package var priorBPM = 0
  /// Songs with no library BPM and no recognised genre: the fallback row (`fallback`).
  package var fallbackBPM = 0
  /// Songs whose genre is missing or not recognised, whatever their BPM's source: their
  /// energy and valence are the fallback's.
  package var unknownGenre = 0

  package init() {}
}
