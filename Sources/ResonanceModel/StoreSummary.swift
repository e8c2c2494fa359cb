/// What a store holds, as `resonance status` reports it (its JSON form is `StatusReport`'s).
package struct StoreSummary: Sendable, Equatable {
  package var schemaVersion: Int
  package var health: Health
  package var listening: Listening
  package var traces: Traces
  package var imports: [ImportEntry]

  package init(
    schemaVersion: Int, health: Health = Health(), listening: Listening = Listening(),
    traces: Traces = Traces(), imports: [ImportEntry] = []
  ) {
    self.schemaVersion = schemaVersion
    self.health = health
    self.listening = listening
    self.traces = traces
    self.imports = imports
  }

  /// Apple Health data: records per type identifier, beats, workouts, and the span they cover.
  package struct Health: Sendable, Equatable {
    /// Stored `Record` elements per `type` attribute exactly as in the export (Correlations are
    /// not Records; the Records inside them are counted here).
    package var records: [String: Int] = [:]
    /// Stored beat entries of beat-to-beat series.
    package var heartbeats: Int = 0
    package var workouts: Int = 0
    /// Earliest start over records and workouts.
    package var first: Timestamp?
    /// Latest end over records and workouts.
    package var last: Timestamp?

    package init(
      records: [String: Int] = [:], heartbeats: Int = 0, workouts: Int = 0,
      first: Timestamp? = nil, last: Timestamp? = nil
    ) {
      self.records = records
      self.heartbeats = heartbeats
      self.workouts = workouts
      self.first = first
      self.last = last
    }

  }

  /// Listening history: plays, source-marked skips, songs and the span of the plays.
  package struct Listening: Sendable, Equatable {
    package var plays: Int = 0
    /// Plays their source marked as skipped.
    package var skips: Int = 0
    package var songs: Int = 0
    /// Plays whose song has both a known artist and a genre.
    package var resolved: Int = 0
    /// Plays whose song has a known artist (genre or not).
    package var withArtist: Int = 0
    /// Plays whose song has a genre.
    package var withGenre: Int = 0
    package var first: Timestamp?
    package var last: Timestamp?

    package init(
      plays: Int = 0, skips: Int = 0, songs: Int = 0, resolved: Int = 0, withArtist: Int = 0,
      withGenre: Int = 0, first: Timestamp? = nil, last: Timestamp? = nil
    ) {
      self.plays = plays
      self.skips = skips
      self.songs = songs
      self.resolved = resolved
      self.withArtist = withArtist
      self.withGenre = withGenre
      self.first = first
      self.last = last
    }

  }

  /// Files of our own trace formats: one header each, then samples.
  package struct Traces: Sendable, Equatable {
    package var recordings: Int = 0
    package var samples: Int = 0

    package init(recordings: Int = 0, samples: Int = 0) {
      self.recordings = recordings
      self.samples = samples
    }
  }
}

/// One row of the ingest ledger: a file (or `ZIP!MEMBER`) that was imported into the store.
package struct ImportEntry: Sendable, Equatable {
  /// How completely a file was imported.
  package enum Status: String, Sendable, Equatable {
    /// Every record of the file was read.
    case complete
    /// The file broke part-way and the user asked to keep what parsed before the break.
    case partial
  }

  /// The path as the user gave it, or `ZIP!MEMBER` for a member of an archive.
  package var file: String
  /// Lower-case hex SHA-256 of the file's bytes (of the member's bytes for an archive member).
  package var sha256: String
  /// The reader that imported it, e.g. `apple-health`.
  package var importer: String
  package var status: Status
  /// Domain records the file added (Health records, plays or trace samples).
  package var records: Int
  package var warnings: Int

  package init(
    file: String, sha256: String, importer: String, status: Status, records: Int, warnings: Int
  ) {
    self.file = file
    self.sha256 = sha256
    self.importer = importer
    self.status = status
    self.records = records
    self.warnings = warnings
  }
}

/// A song the store cannot fully name: no artist, or no genre, with how often it was played.
package struct UnresolvedSong: Sendable, Equatable {
  package var title: String
  package var artist: String?
  package var album: String?
  package var genre: String?
  package var appleCatalogID: String?
  package var plays: Int
  package var sources: String

  package init(
    title: String, artist: String?, album: String?, genre: String?, appleCatalogID: String?,
    plays: Int, sources: String
  ) {
    self.title = title
    self.artist = artist
    self.album = album
    self.genre = genre
    self.appleCatalogID = appleCatalogID
    self.plays = plays
    self.sources = sources
  }
}
