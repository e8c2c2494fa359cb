import ResonanceModel

/// What `resonance ingest` says of each file it imported, as lines for people and as one JSON
/// shape for every importer (`docs/cli.md`).
package enum IngestSummary {
  /// How many of a file's warnings are shown; the rest are counted.
  package static let shownWarnings = 20

  /// The warnings to show before a file's line: the first twenty, then how many more.
  package static func warnings(_ result: ImportResult) -> [String] {
    guard result.status != .alreadyImported else { return [] }
    var lines = result.read.diagnostics.prefix(shownWarnings).map(\.description)
    let total = max(result.read.warnings, result.read.diagnostics.count)
    if total > shownWarnings { lines.append("… and \(total - shownWarnings) more warnings") }
    return lines
  }

  /// The file's summary lines.
  package static func lines(_ r: ImportResult) -> [String] {
    if r.status == .alreadyImported {
      return [
        "ingest: \(r.file): already imported as \(r.entry.file) (same SHA-256); nothing changed"
      ]
    }
    switch r.format {
    case .appleHealth: return healthLines(r)
    case .listening(let kind): return listeningLines(r, kind: kind)
    case .recording(let format):
      let plays = playsStored(r) > 0 ? ", \(Format.grouped(playsStored(r))) plays" : ""
      return [
        "ingest: \(r.file): \(format.rawValue), \(Format.grouped(r.counts.samples)) samples\(plays), \(r.read.warnings) warnings"
      ]
    }
  }

  /// The not-imported parts of a Health export, in a line.
  package static func notImportedLine(_ parts: [String: Int]) -> String {
    "ingest: not imported: "
      + parts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
      .joined(separator: ", ")
  }

  private static func playsStored(_ r: ImportResult) -> Int {
    r.counts.listening.playsAdded + r.counts.listening.playsMerged
  }

  private static func healthLines(_ r: ImportResult) -> [String] {
    let count = Format.grouped(_:) as (Int) -> String
    let duplicates = r.read.rows - r.counts.recordsAdded
    let rate = r.seconds > 0 ? Double(r.bytes) / 1e6 / r.seconds : 0
    var line =
      "ingest: \(r.file): \(count(r.counts.recordsAdded)) records"
      + (duplicates > 0 ? " (\(count(duplicates)) already stored)" : "")
      + ", \(count(r.counts.beatsAdded)) beats, \(count(r.counts.workoutsAdded)) workouts, \(count(r.entry.warnings)) warnings"
      + (r.status == .partial ? ", PARTIAL" : "")
      + " in \(Format.fixed(r.seconds, 1)) s (\(Format.fixed(rate, 0)) MB/s)"
    if r.read.metadataDropped > 0 {
      line += "; \(count(r.read.metadataDropped)) identifying metadata entries dropped"
    }
    if r.counts.playsGivenOffsets > 0 {
      line +=
        "; \(count(r.counts.playsGivenOffsets)) plays stored without a UTC offset now have this export's"
    }
    var lines = [line]
    if !r.notImported.isEmpty { lines.append(notImportedLine(r.notImported)) }
    return lines
  }

  private static func listeningLines(_ r: ImportResult, kind: ListeningFileKind) -> [String] {
    let count = Format.grouped(_:) as (Int) -> String
    let c = r.counts.listening
    var parts: [String] = []
    if r.read.plays > 0 || r.read.songs == 0 {
      var plays = "\(count(c.playsAdded)) plays"
      var notes: [String] = []
      if c.playsMerged > 0 { notes.append("\(count(c.playsMerged)) merged with other sources") }
      if c.playsAlreadyStored > 0 { notes.append("\(count(c.playsAlreadyStored)) already stored") }
      if !notes.isEmpty { plays += " (" + notes.joined(separator: ", ") + ")" }
      parts.append(plays)
    }
    parts.append("\(count(c.songsAdded)) new songs")
    if c.songsMerged > 0 { parts.append("\(count(c.songsMerged)) songs recognised as one") }
    if c.playlists > 0 { parts.append("\(count(c.playlists)) playlists") }
    parts.append("\(count(r.read.warnings)) warnings")
    var lines = [
      "ingest: \(r.file): \(kind.name), \(count(r.read.rows)) rows → "
        + parts.joined(separator: ", ") + " in \(Format.fixed(r.seconds, 1)) s"
    ]
    let borrowed = r.counts.offsetSources.filter { $0.key != .source }
    if !borrowed.isEmpty {
      let said: [OffsetSource: String] = [
        .health: "the Health data's offset", .user: "the --time-zone/TZ offset",
        .utc: "UTC (no Health data or --time-zone covers them)",
      ]
      let text = borrowed.sorted { $0.key.rawValue < $1.key.rawValue }.map {
        "\(count($0.value)) took \(said[$0.key] ?? $0.key.rawValue)"
      }
      lines.append(
        "ingest: \(r.file): \(count(borrowed.values.reduce(0, +))) plays record no UTC offset: "
          + text.joined(separator: ", "))
    }
    return lines
  }

  /// One import as `--json` gives it: the same keys whatever the importer (`docs/cli.md`).
  package static func json(_ r: ImportResult) -> JSONValue {
    let c = r.counts
    var offsets: [String: JSONValue] = [:]
    for source in OffsetSource.allCases where source != .source {
      offsets[source.rawValue] = .integer(c.offsetSources[source] ?? 0)
    }
    return [
      "file": .string(r.file), "importer": .string(r.format.name),
      "status": .string(r.status.rawValue), "sha256": .string(r.entry.sha256),
      "bytes": .integer(r.bytes), "rows": .integer(r.read.rows),
      "records_added": .integer(c.recordsAdded), "beats_added": .integer(c.beatsAdded),
      "workouts_added": .integer(c.workoutsAdded), "plays_read": .integer(r.read.plays),
      "plays_added": .integer(c.listening.playsAdded),
      "plays_merged": .integer(c.listening.playsMerged),
      "plays_already_stored": .integer(c.listening.playsAlreadyStored),
      "songs_added": .integer(c.listening.songsAdded),
      "songs_merged": .integer(c.listening.songsMerged),
      "playlists": .integer(c.listening.playlists), "samples": .integer(c.samples),
      "warnings": .integer(r.status == .alreadyImported ? 0 : r.entry.warnings),
      "metadata_dropped": .integer(r.read.metadataDropped),
      "not_imported": .object(r.notImported.mapValues { .integer($0) }),
      "utc_offsets": .object(offsets), "plays_given_offsets": .integer(c.playsGivenOffsets),
      "seconds": .number(r.seconds),
    ]
  }
}

extension IngestSummary {
  /// The whole run: files imported, already imported and failed; what the imports added;
  /// the plays each kind of file reported; and what the store holds after merging, which is
  /// what `resonance status` counts.
  package static func total(_ run: IngestResult) -> [String] {
    let imported = run.imports.filter { $0.status != .alreadyImported }
    let already = run.imports.count - imported.count
    var parts = [Format.count(imported.count, "file") + " imported"]
    if already > 0 { parts.append("\(Format.grouped(already)) already imported") }
    if !run.unchanged.isEmpty {
      parts.append(
        Format.count(run.unchanged.count, "file") + " unchanged since imported whole (not read)")
    }
    if !run.failures.isEmpty { parts.append("\(Format.grouped(run.failures.count)) failed") }
    var lines = [
      "ingest: " + parts.joined(separator: ", ") + " in \(Format.fixed(run.seconds, 1)) s"
    ]
    let records = imported.reduce(0) { $0 + $1.counts.recordsAdded }
    let samples = imported.reduce(0) { $0 + $1.counts.samples }
    var added: [String] = []
    if records > 0 { added.append(Format.count(records, "Health record")) }
    if samples > 0 { added.append(Format.count(samples, "trace sample")) }
    if !added.isEmpty { lines.append("ingest: added " + added.joined(separator: " and ")) }
    let read = playsRead(imported)
    if !read.isEmpty {
      lines.append(
        "ingest: plays read: "
          + read.map { "\(Format.grouped($0.plays)) from \($0.source)" }.joined(separator: ", "))
    }
    if let stored = run.stored, stored.listening.plays > 0 || !read.isEmpty {
      lines.append(
        "ingest: the store holds \(Format.count(stored.listening.plays, "play")) of "
          + "\(Format.count(stored.listening.songs, "song")) (one play per listen, however many "
          + "sources reported it)")
    }
    return lines
  }

  /// Plays the imports read, by the kind of file that reported them, most first (before any
  /// merging: one listen two sources reported counts in both).
  package static func playsRead(_ imports: [ImportResult]) -> [(source: String, plays: Int)] {
    var bySource: [String: Int] = [:]
    for r in imports where r.read.plays > 0 { bySource[r.format.name, default: 0] += r.read.plays }
    return bySource.map { ($0.key, $0.value) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
  }

  /// The run as `--json` gives it (`docs/cli.md`): every import with the same keys, the
  /// inputs passed over, the failures, the exit status.
  package static func json(_ run: IngestResult) -> JSONValue {
    let read = playsRead(run.imports.filter { $0.status != .alreadyImported })
    return [
      "format_version": 1, "imports": .array(run.imports.map(json)),
      "unchanged": .array(run.unchanged.map { .string($0) }),
      "skipped": .array(
        run.passedOver.map { input in
          let reason: String =
            switch input.reason {
            case .unrecognised: "unrecognised"
            case .tooDeep: "too-deep"
            case .simulationTruth: "simulation-truth"
            }
          return ["file": .string(input.name), "reason": .string(reason)]
        }),
      "failed": .array(
        run.failures.map {
          [
            "file": .text($0.file), "error": .string($0.message),
            "exit_status": .integer(Int($0.kind.exitStatus)),
          ]
        }),
      "plays_read": .object(
        Dictionary(uniqueKeysWithValues: read.map { ($0.source, .integer($0.plays)) })),
      "plays_stored": .integer(run.stored?.listening.plays ?? 0),
      "songs": .integer(run.stored?.listening.songs ?? 0),
      "exit_status": .integer(Int(run.worstFailure?.exitStatus ?? 0)),
      "seconds": .number(run.seconds),
    ]
  }
}
