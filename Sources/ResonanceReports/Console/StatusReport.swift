import ResonanceModel

/// What `resonance status` prints: what the store holds, for people or as JSON.
///
/// The JSON form is a stable interface that scripts rely on (`docs/cli.md`): keys are
/// snake_case, absent dates are `null`, and empty stores give zeros. Later stages add keys;
/// they never rename or remove one.
package enum StatusReport {
  /// The summary as JSON.
  package static func json(_ s: StoreSummary) -> JSONValue {
    [
      "format_version": 1, "schema_version": .integer(s.schemaVersion),
      "health": [
        "records": .object(s.health.records.mapValues { .integer($0) }),
        "heartbeats": .integer(s.health.heartbeats), "workouts": .integer(s.health.workouts),
        "first": .text(s.health.first?.iso8601UTC), "last": .text(s.health.last?.iso8601UTC),
      ],
      "listening": [
        "plays": .integer(s.listening.plays), "skips": .integer(s.listening.skips),
        "songs": .integer(s.listening.songs), "resolved": .integer(s.listening.resolved),
        "with_artist": .integer(s.listening.withArtist),
        "with_genre": .integer(s.listening.withGenre),
        "first": .text(s.listening.first?.iso8601UTC), "last": .text(s.listening.last?.iso8601UTC),
      ],
      "traces": [
        "recordings": .integer(s.traces.recordings), "samples": .integer(s.traces.samples),
      ],
      "imports": .array(
        s.imports.map {
          [
            "file": .string($0.file), "sha256": .string($0.sha256),
            "importer": .string($0.importer), "status": .string($0.status.rawValue),
            "records": .integer($0.records), "warnings": .integer($0.warnings),
          ]
        }),
    ]
  }

  /// The summary for people.
  package static func text(_ summary: StoreSummary, storePath: String) -> String {
    let count = Format.grouped(_:) as (Int) -> String
    var lines = ["store: \(storePath) (schema version \(summary.schemaVersion))"]
    let health = summary.health
    let recordTotal = health.records.values.reduce(0, +)
    lines.append(
      "health: \(count(recordTotal)) records, \(count(health.heartbeats)) "
        + "heartbeats, \(count(health.workouts)) workouts\(span(health.first, health.last))")
    for (type, n) in health.records.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
      lines.append("  \(type): \(count(n))")
    }
    let listening = summary.listening
    lines.append(
      "listening: \(count(listening.plays)) plays (\(count(listening.skips)) "
        + "skipped), \(count(listening.songs)) songs" + span(listening.first, listening.last))
    if listening.plays > 0 {
      let unresolved = listening.plays - listening.resolved
      lines.append(
        "  resolved to an artist and genre: \(count(listening.resolved)) plays"
          + (unresolved > 0
            ? " (\(count(unresolved)) not: see 'resonance status --unresolved')" : ""))
    }
    lines.append(
      "traces: \(count(summary.traces.recordings)) recordings, "
        + "\(count(summary.traces.samples)) samples")
    if summary.imports.isEmpty {
      lines.append("imports: none yet (see 'resonance --help')")
    } else {
      lines.append("imports: \(summary.imports.count)")
      for entry in summary.imports {
        lines.append(
          "  \(entry.file)  \(entry.importer)  \(entry.status.rawValue)  "
            + "\(count(entry.records)) records  \(count(entry.warnings)) warnings  "
            + "sha256 \(entry.sha256.prefix(12))…")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// When the data was lived: the local time, with UTC beside it.
  static func span(_ first: Timestamp?, _ last: Timestamp?) -> String {
    guard let first, let last else { return "" }
    return ", \(first.shown) to \(last.shown)"
  }

  /// The songs no source has named an artist or genre for, as JSON.
  package static func unresolvedJSON(_ songs: [UnresolvedSong]) -> JSONValue {
    [
      "format_version": 1,
      "songs": .array(
        songs.map { song in
          [
            "title": .string(song.title), "plays": .integer(song.plays),
            "sources": .array(song.sources.split(separator: ",").map { .string(String($0)) }),
            "missing": .array(missing(song).map { .string($0) }), "artist": .text(song.artist),
            "album": .text(song.album), "genre": .text(song.genre),
            "apple_catalog_id": .text(song.appleCatalogID),
          ]
        }),
    ]
  }

  /// The same, for people.
  package static func unresolvedText(_ songs: [UnresolvedSong]) -> String {
    guard !songs.isEmpty else { return "every song has an artist and a genre\n" }
    var lines = [
      "\(songs.count) songs without an artist or a genre (plays, title, album, what is missing, sources):"
    ]
    for song in songs {
      let title =
        song.title.isEmpty
        ? "(no title; Apple catalog ID \(song.appleCatalogID ?? "?"))" : song.title
      lines.append(
        "  \(song.plays)  \(title)\(song.artist.map { " — " + $0 } ?? "")"
          + "\(song.album.map { " [" + $0 + "]" } ?? "")  missing "
          + missing(song).joined(separator: ", ")
          + (song.sources.isEmpty ? "" : "  (\(song.sources))"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func missing(_ song: UnresolvedSong) -> [String] {
    [song.artist == nil ? "artist" : nil, song.genre == nil ? "genre" : nil].compactMap { $0 }
  }
}
