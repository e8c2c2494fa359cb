/// What a store holds, as `resonance status` reports it.
///
/// Its JSON form (through `Encodable`) is a stable interface that scripts rely on: keys are
/// snake_case, absent dates are `null`, and empty stores give zeros. Later stages add keys;
/// they never rename or remove one.
package struct StoreSummary: Sendable, Equatable, Encodable {
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
  package struct Health: Sendable, Equatable, Encodable {
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

    enum CodingKeys: String, CodingKey { case records, heartbeats, workouts, first, last }

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(records, forKey: .records)
      try container.encode(heartbeats, forKey: .heartbeats)
      try container.encode(workouts, forKey: .workouts)
      try container.encode(first?.iso8601UTC, forKey: .first)
      try container.encode(last?.iso8601UTC, forKey: .last)
    }
  }

  /// Listening history: plays, source-marked skips, songs and the span of the plays.
  package struct Listening: Sendable, Equatable, Encodable {
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

    enum CodingKeys: String, CodingKey {
      case plays, skips, songs, resolved, first, last
      case withArtist = "with_artist"
      case withGenre = "with_genre"
    }

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(plays, forKey: .plays)
      try container.encode(skips, forKey: .skips)
      try container.encode(songs, forKey: .songs)
      try container.encode(resolved, forKey: .resolved)
      try container.encode(withArtist, forKey: .withArtist)
      try container.encode(withGenre, forKey: .withGenre)
      try container.encode(first?.iso8601UTC, forKey: .first)
      try container.encode(last?.iso8601UTC, forKey: .last)
    }
  }

  /// Files of our own trace formats: one header each, then samples.
  package struct Traces: Sendable, Equatable, Encodable {
    package var recordings: Int = 0
    package var samples: Int = 0

    package init(recordings: Int = 0, samples: Int = 0) {
      self.recordings = recordings
      self.samples = samples
    }
  }

  enum CodingKeys: String, CodingKey {
    case schemaVersion = "schema_version"
    case health, listening, traces, imports
  }
}

/// One row of the ingest ledger: a file (or `ZIP!MEMBER`) that was imported into the store.
package struct ImportEntry: Sendable, Equatable, Encodable {
  /// How completely a file was imported.
  package enum Status: String, Sendable, Equatable, Encodable {
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
