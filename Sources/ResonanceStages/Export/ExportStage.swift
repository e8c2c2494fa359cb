import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance export`: a person's derived tables, their person-level effects and a manifest,
/// under a pseudonym, as one partition of a cohort folder (`DIR/person=ID/`), for a cohort's
/// engine (DuckDB, Spark, `resonance cohort pool`) to read. docs/cohort.md describes every
/// file.
///
/// The manifest is removed first and written last, so a folder is whole exactly when it has
/// one; the same store exports to the same bytes.
package struct ExportStage: Stage {
  package let request: ExportRequest

  package init(_ request: ExportRequest) { self.request = request }

  /// - Throws: `StageError.failure` for a pseudonym that is not one, or a folder holding
  ///   another store's hand-off without `replace`; `StageError.missingInput` without a
  ///   store; `StageError.io` for a file that cannot be written; `StoreError`.
  package func run(progress: any StageProgress) throws -> ExportResult {
    guard HandOffPerson.isValid(request.person) else {
      throw StageError(
        .failure,
        "'\(request.person)' is not a pseudonym: it must match \(HandOffPerson.pattern)")
    }
    let store = try request.store.reading(for: "export")
    return try store.snapshot { try export(store, progress: progress) }
  }

  /// The hand-off of the store as one snapshot shows it.
  private func export(_ store: Store, progress: any StageProgress) throws -> ExportResult {
    let identity = Self.storeIdentity(try store.firstImportDigest())
    let folder = (request.folder as NSString).appendingPathComponent("person=\(request.person)")
    let manifestPath = (folder as NSString).appendingPathComponent("manifest.json")
    let replaced = try checkExisting(manifestPath, identity: identity)
    try removeHandOff(in: folder)

    var files: [ExportResult.File] = []
    let tables = HandOffTable.allCases
    try progress.step("export: tables", total: Int64(tables.count), unit: .items("tables")) {
      for table in tables {
        let columns = try store.handOffTable(table)
        let bytes: [UInt8]
        switch request.format {
        case .parquet:
          bytes = ParquetWriter.file(
            columns, createdBy: "resonance version \(request.toolVersion)")
        case .csv:
          bytes = Array(HandOffCSV.text(columns).utf8)
        }
        let name = "\(table.rawValue).\(request.format.rawValue)"
        files.append(try write(bytes, name, in: folder, rows: columns.rowCount))
        progress.advance(to: Int64(files.count))
      }
    }
    let effects = try Self.effects(store)
    files.append(
      try write(
        Array(
          HandOffDocuments.effects(
            person: request.person, effects,
            tuneRecommendation: try store.latestTuning()?.recommendation.rawValue
          ).utf8), "effects.json",
        in: folder, rows: nil))
    let manifest = HandOffDocuments.Manifest(
      person: request.person, toolVersion: request.toolVersion,
      storeSchemaVersion: try store.schemaVersion(), store: identity, format: request.format,
      range: try store.handOffRange(), files: files)
    try OutputFiles.write(HandOffDocuments.manifest(manifest), to: manifestPath)
    return ExportResult(
      folder: folder, person: request.person, files: files, effects: effects,
      replaced: replaced)
  }

  /// What tells stores apart in a manifest: the SHA-256 of `resonance-store:` and the first
  /// imported file's digest (so the ledger's own digest is not repeated), or of
  /// `resonance-store:empty` for a store with nothing imported.
  static func storeIdentity(_ firstImport: String?) -> String {
    let hasher = SHA256()
    hasher.update(Array("resonance-store:\(firstImport ?? "empty")".utf8))
    return hasher.finalize()
  }

  /// Whether the folder holds a hand-off already; throws when it is another store's and
  /// `replace` was not asked for.
  private func checkExisting(_ manifestPath: String, identity: String) throws -> Bool {
    guard FileManager.default.fileExists(atPath: manifestPath) else { return false }
    let existing = (try? Data(contentsOf: URL(fileURLWithPath: manifestPath)))
      .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    let store = existing?["store"] as? String
    if store != identity, !request.replace {
      let whose = store == nil ? "a manifest that is not a hand-off's" : "another store's hand-off"
      throw StageError(
        .failure,
        "\(manifestPath): the folder holds \(whose); give --replace to write over it, or "
          + "choose another --person")
    }
    return store != identity
  }

  /// Removes the manifest, then every file a hand-off writes, so that a run that stops part
  /// way leaves a folder without a manifest (incomplete) and no file of an earlier format.
  private func removeHandOff(in folder: String) throws(StageError) {
    let names =
      ["manifest.json", "effects.json"]
      + HandOffTable.allCases.flatMap { table in
        HandOffFormat.allCases.map { "\(table.rawValue).\($0.rawValue)" }
      }
    for name in names {
      let path = (folder as NSString).appendingPathComponent(name)
      guard FileManager.default.fileExists(atPath: path) else { continue }
      do {
        try FileManager.default.removeItem(atPath: path)
      } catch {
        throw StageError(.io, "\(path): cannot remove the earlier hand-off's file")
      }
    }
  }

  private func write(_ bytes: [UInt8], _ name: String, in folder: String, rows: Int?)
    throws(StageError) -> ExportResult.File
  {
    try OutputFiles.write(Data(bytes), to: (folder as NSString).appendingPathComponent(name))
    let hasher = SHA256()
    hasher.update(bytes)
    return ExportResult.File(
      name: name, rows: rows, bytes: bytes.count, sha256: hasher.finalize())
  }

  /// The person-level effects (`PersonEffects`), from the values the report's pages use.
  static func effects(_ store: Store) throws -> [PersonEffect] {
    let features = Dictionary(
      try store.songFeatures().map { ($0.songID, $0.bpm) }, uniquingKeysWith: { a, _ in a })
    let songs = try store.effectEstimates().filter { $0.signal == .heartRate }.compactMap {
      estimate in
      features[estimate.songID].map {
        PersonEffects.TempoSong(
          bpm: $0.value, isMeasured: $0.source == .library, estimate: estimate.estimate,
          se: estimate.sd)
      }
    }
    let evenings = ReportStatistics.evenings(
      try store.nightRecords(), sessions: try store.sessionRecords(),
      workouts: try store.workoutSpans())
    let sources = ReportSources(store: store, days: DayRange(), truth: nil)
    let practice = try sources.breathing().isEmpty ? nil : try sources.practice()
    return PersonEffects.all(
      songs: songs, sleep: ReportStatistics.sleepComparisons(evenings), practice: practice,
      heldOut: try store.latestTuning()?.heldOut)
  }
}

extension ExportResult: ConsolePresentable {
  package var text: String { ExportSummary.text(self) }
  package var json: String { ExportSummary.json(self).text }
}
