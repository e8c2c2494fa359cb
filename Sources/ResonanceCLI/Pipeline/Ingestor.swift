import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// Reads paths into the store by content: folders file by file, zips member by member (zips
/// inside zips too), each file or member its own transaction. What `resonance ingest` and
/// the demo share. A failure is reported and remembered, and the next file runs.
final class Ingestor {
  let store: Store
  let context: CommandContext
  let zone: ListeningImport.ZoneFallback
  let forcedKind: String?
  let keepPartial: Bool
  let isQuiet: Bool
  /// The most severe exit code met so far.
  private(set) var worst = ExitCode.ok
  /// One object per file or member, for `--json`.
  private(set) var json: [[String: Any]] = []
  /// Files and members no reader knows.
  private(set) var skipped: [String] = []

  init(
    store: Store, context: CommandContext, zone: ListeningImport.ZoneFallback,
    forcedKind: String?, keepPartial: Bool, isQuiet: Bool
  ) {
    self.store = store
    self.context = context
    self.zone = zone
    self.forcedKind = forcedKind
    self.keepPartial = keepPartial
    self.isQuiet = isQuiet
  }

  /// One path from the command line: a file or a folder.
  func ingest(_ path: String) {
    attempt {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw IOError(.missing, path: path, reason: "no such file or directory")
      }
      if isDirectory.boolValue {
        try ingestFolder(path)
      } else {
        try ingestFile(path, explicit: true)
      }
    }
  }

  /// Names the files no reader knew, once, after all paths.
  func reportSkipped() {
    guard !skipped.isEmpty, !isQuiet else { return }
    context.report("ingest: skipped (no reader knows them): " + skipped.joined(separator: ", "))
  }

  private func attempt(_ body: () throws -> Void) {
    do {
      try body()
    } catch let partial as PartialImport {
      report(partial.result)
      worst = max(worst, Resonance.fail(partial.error, context: context))
    } catch {
      worst = max(worst, Resonance.fail(error, context: context))
    }
  }

  /// A folder, file by file in name order. A Health export inside it (an `.xml` whose root is
  /// `HealthData`) is read as one export, the rest of its folder named as not imported.
  func ingestFolder(_ path: String) throws {
    guard let walker = FileManager.default.enumerator(atPath: path) else {
      throw IOError(.unreadable, path: path, reason: "cannot list the folder")
    }
    var files: [String] = []
    while let item = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let full = (path as NSString).appendingPathComponent(item)
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue, !(item as NSString).lastPathComponent.hasPrefix(".")
      {
        files.append(full)
      }
    }
    files.sort()
    // Health export folders first, so that their other files are not read one by one.
    var healthFolders: [String] = []
    if forcedKind == nil || forcedKind == "apple-health" {
      for file in files where file.lowercased().hasSuffix(".xml") {
        let folder = (file as NSString).deletingLastPathComponent
        guard !healthFolders.contains(folder),
          let (location, parts) = HealthExportLocator.locate(folder: folder),
          location == .file(path: file)
        else { continue }
        healthFolders.append(folder)
        attempt { try importHealth(location, parts: parts) }
      }
    }
    for file in files where !healthFolders.contains(where: { file.hasPrefix($0 + "/") }) {
      attempt { try ingestFile(file, explicit: false) }
    }
  }

  /// One file on disk, by its content: a zip, a Health export, one of our recordings, or a
  /// listening file. An unknown file given by name is an error; one met in a folder is skipped.
  func ingestFile(_ path: String, explicit: Bool) throws {
    let file = try InputFile(path: path)
    var prefix = [UInt8](repeating: 0, count: 65_536)
    let n = try prefix.withUnsafeMutableBytes { (raw) throws(IOError) in try file.read(into: raw) }
    prefix.removeSubrange(n...)
    if forcedKind == "apple-health"
      || (forcedKind == nil && HealthExportLocator.looksLikeHealthExport(prefix))
    {
      try importHealth(.file(path: path), parts: [:])
      return
    }
    if let forced = forcedKind.flatMap(ListeningFileKind.init(rawValue:)) {
      let (bytes, sha) = try readAllHashing(file)
      try importListening(name: path, bytes: bytes, sha256: sha, kind: forced)
      return
    }
    if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      try ingestZip(path)
      return
    }
    if Decompression.isGzip(prefix)
      || TraceReader.format(ofFirstLine: prefix.prefix { $0 != 0x0A }) != nil
    {
      let raw = try readAll(file)
      if let text = try TraceImport.recognize(bytes: raw, path: path) {
        try importTrace(name: path, raw: raw, text: text)
        return
      }
    }
    if let kind = ListeningImport.recognize(prefix) {
      let (bytes, sha) = try readAllHashing(file)
      try importListening(name: path, bytes: bytes, sha256: sha, kind: kind)
      return
    }
    if !explicit {
      skipped.append(path)
      return
    }
    let start = String(decoding: prefix.prefix(40), as: UTF8.self).replacingOccurrences(
      of: "\n", with: " ")
    throw IngestError(
      .unrecognized, at: SourceLocation(file: path, line: 1, column: 1),
      "expected an export the tool reads (Apple Health, Apple Music, Music.app, Spotify, Last.fm) or a Resonance recording, found '\(start)'"
    )
  }

  /// The whole file, from its start (a fresh handle: `file` has already been read from).
  private func readAll(_ opened: InputFile) throws -> [UInt8] {
    try readAllHashing(opened).bytes
  }

  /// The whole file and its SHA-256, hashed as it is read (one pass over the bytes, not two).
  private func readAllHashing(_ opened: InputFile) throws -> (bytes: [UInt8], sha256: String) {
    let file = try InputFile(path: opened.path)
    let hasher = SHA256()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(file.byteCount))
    try file.forEachChunk {
      hasher.update($0)
      bytes.append(contentsOf: $0)
    }
    return (bytes, hasher.finalize())
  }

  /// A zip: a Health export (read in place, streamed), or an archive of listening files and
  /// recordings, zips inside it included, each member its own import.
  private func ingestZip(_ path: String) throws {
    if let found = try HealthExportLocator.locate(zip: path),
      try HealthExportLocator.isHealthExport(found.0)
    {
      try importHealth(found.0, parts: found.1)
      return
    }
    try ingestArchive(ZipReader(path: path), name: path)
  }

  private func ingestArchive(_ zip: ZipReader, name: String) throws {
    try zip.forEachEntry { entry, read in
      guard !entry.isDirectory else { return }
      let member = "\(name)!\(entry.name)"
      let base = (entry.name as NSString).lastPathComponent
      guard !base.hasPrefix("."), !entry.name.hasPrefix("__MACOSX/") else { return }
      attempt {
        let bytes = try read()
        let prefix = Array(bytes.prefix(65_536))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
          try ingestArchive(ZipReader(bytes: bytes, path: member), name: member)
        } else if let text = try TraceImport.recognize(bytes: bytes, path: member) {
          try importTrace(name: member, raw: bytes, text: text)
        } else if let kind = ListeningImport.recognize(prefix) {
          try importListening(name: member, bytes: bytes, kind: kind)
        } else {
          skipped.append(member)
        }
      }
    }
  }

  private func importHealth(
    _ location: HealthExportLocation, parts: [String: Int]
  ) throws {
    let total: Int64? =
      switch location {
      case .file(let file): (try? InputFile(path: file))?.byteCount
      case .zipMember(_, _, let size): size
      }
    let progress = ProgressReporter(
      label: "ingest \((location.displayName as NSString).lastPathComponent)", total: total,
      unit: .bytes, console: context.console, isEnabled: !isQuiet)
    defer { progress.finish() }
    let result = try HealthImport.run(
      location, notImported: parts, store: store, keepPartial: keepPartial,
      progress: progress)
    progress.finish()
    report(result)
  }

  private func importTrace(name: String, raw: [UInt8], text: [UInt8]) throws {
    let result = try TraceImport.run(path: name, raw: raw, text: text, store: store)
    report(result)
    json.append([
      "file": result.file, "importer": result.format,
      "status": result.previousImport == nil ? "complete" : "already-imported",
      "samples": result.samples, "plays": result.plays, "warnings": result.diagnostics.count,
    ])
  }

  private func importListening(
    name: String, bytes: [UInt8], sha256: String? = nil, kind: ListeningFileKind
  ) throws {
    let result = try ListeningImport.run(
      name: name, bytes: bytes, sha256: sha256, kind: kind, store: store, zone: zone)
    report(result)
    json.append([
      "file": result.file, "importer": kind.rawValue,
      "status": result.previousImport == nil ? "complete" : "already-imported",
      "rows": result.rows, "plays_read": result.plays, "plays_added": result.counts.playsAdded,
      "plays_merged": result.counts.playsMerged,
      "plays_already_stored": result.counts.playsAlreadyStored,
      "songs_added": result.counts.songsAdded, "songs_merged": result.counts.songsMerged,
      "warnings": result.diagnostics.count, "utc_offsets": result.offsets,
      "seconds": result.seconds, "read_seconds": result.readSeconds,
      "write_seconds": result.writeSeconds,
    ])
  }

  /// The lines every file's report starts with: "already imported", or its warnings (the
  /// first 20). Returns false when the file was already imported and nothing more is to say.
  private func reportStart(
    file: String, previous: ImportEntry?, diagnostics: [Diagnostic], warnings: Int? = nil
  ) -> Bool {
    if let previous {
      context.report(
        "ingest: \(file): already imported as \(previous.file) (same SHA-256); nothing changed")
      return false
    }
    for diagnostic in diagnostics.prefix(20) { context.report(diagnostic.description) }
    let total = warnings ?? diagnostics.count
    if total > 20 { context.report("… and \(total - 20) more warnings") }
    return true
  }

  private func report(_ r: ListeningImport.Result) {
    guard !isQuiet,
      reportStart(file: r.file, previous: r.previousImport, diagnostics: r.diagnostics)
    else { return }
    let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
    let c = r.counts
    var parts: [String] = []
    if r.plays > 0 || r.songs == 0 {
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
    parts.append("\(count(r.diagnostics.count)) warnings")
    context.report(
      "ingest: \(r.file): \(r.kind.rawValue), \(count(r.rows)) rows → "
        + parts.joined(separator: ", ") + " in \(ProgressReporter.fixed(r.seconds, 1)) s")
    let borrowed = r.offsets.filter { $0.key != "source" }
    if !borrowed.isEmpty {
      let said = [
        "health": "the Health data's offset", "user": "the --time-zone/TZ offset",
        "utc": "UTC (no Health data or --time-zone covers them)",
      ]
      let text = borrowed.sorted { $0.key < $1.key }.map {
        "\(count($0.value)) took \(said[$0.key] ?? $0.key)"
      }
      context.report(
        "ingest: \(r.file): \(count(borrowed.values.reduce(0, +))) plays record no UTC offset: "
          + text.joined(separator: ", "))
    }
  }

  private func report(_ r: TraceImport.Result) {
    guard !isQuiet,
      reportStart(file: r.file, previous: r.previousImport, diagnostics: r.diagnostics)
    else { return }
    let plays = r.plays > 0 ? ", \(ProgressReporter.grouped(Int64(r.plays))) plays" : ""
    context.report(
      "ingest: \(r.file): \(r.format), \(ProgressReporter.grouped(Int64(r.samples))) samples\(plays), \(r.diagnostics.count) warnings"
    )
  }

  private func report(_ r: HealthImportResult) {
    json.append(Self.json(r))
    guard !isQuiet,
      reportStart(
        file: r.file, previous: r.previousImport, diagnostics: r.diagnostics, warnings: r.warnings)
    else { return }
    let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
    let duplicates = r.recordsRead - r.recordsAdded
    let rate = r.seconds > 0 ? Double(r.bytes) / 1e6 / r.seconds : 0
    var line =
      "ingest: \(r.file): \(count(r.recordsAdded)) records"
      + (duplicates > 0 ? " (\(count(duplicates)) already stored)" : "")
      + ", \(count(r.beatsAdded)) beats, \(count(r.workoutsAdded)) workouts, \(count(r.warnings)) warnings"
      + (r.status == .partial ? ", PARTIAL" : "")
      + " in \(ProgressReporter.fixed(r.seconds, 1)) s (\(ProgressReporter.fixed(rate, 0)) MB/s)"
    if r.metadataDropped > 0 {
      line += "; \(count(r.metadataDropped)) identifying metadata entries dropped"
    }
    if r.playsGivenOffsets > 0 {
      line +=
        "; \(count(r.playsGivenOffsets)) plays stored without a UTC offset now have this export's"
    }
    context.report(line)
    if !r.notImported.isEmpty {
      let parts = r.notImported.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
      context.report("ingest: not imported: " + parts.joined(separator: ", "))
    }
  }

  private static func json(_ r: HealthImportResult) -> [String: Any] {
    [
      "file": r.file, "sha256": r.sha256, "bytes": r.bytes, "importer": HealthImport.importer,
      "status": r.previousImport == nil ? r.status.rawValue : "already-imported",
      "records_read": r.recordsRead, "records_added": r.recordsAdded, "beats_added": r.beatsAdded,
      "workouts_added": r.workoutsAdded, "warnings": r.warnings,
      "not_imported": r.notImported, "seconds": r.seconds,
      "plays_given_offsets": r.playsGivenOffsets,
    ]
  }

  static func json(_ objects: [[String: Any]]) -> String {
    let data =
      (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]))
      ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
