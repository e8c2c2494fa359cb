/// What `resonance ingest` asks: files and folders to read into a store.
package struct IngestRequest: Sendable, Equatable {
  /// Files or folders; `-` is standard input.
  package var paths: [String]
  package var store: StoreLocation
  /// Read every input as this format instead of recognising it (archives are still opened).
  package var forced: ImportFormat?
  /// The offset for plays whose source records none and whose moment the Health data does
  /// not cover.
  package var zone: TimeZoneFallback
  /// Keep what parsed before a break in a Health export (ledger status `partial`).
  package var keepsPartial: Bool

  package init(
    paths: [String], store: StoreLocation, forced: ImportFormat? = nil,
    zone: TimeZoneFallback = .none, keepsPartial: Bool = false
  ) {
    self.paths = paths
    self.store = store
    self.forced = forced
    self.zone = zone
    self.keepsPartial = keepsPartial
  }
}

/// What one input of an ingest came to, told as it happens.
package enum IngestEvent: Sendable {
  /// A file or member was imported (or found already imported).
  case imported(ImportResult)
  /// Parts of a Health export that are not imported, found beside it.
  case notImported(file: String, parts: [String: Int])
  /// A file on disk imported whole before and unchanged since (the same SHA-256 of its
  /// bytes): passed over without reading it further.
  case unchanged(file: String)
}

/// What one `resonance ingest` did across its paths.
package struct IngestResult: Sendable {
  /// Every file or member imported or found already imported, in the order read.
  package var imports: [ImportResult]
  /// The files on disk passed over as unchanged since they were imported whole.
  package var unchanged: [String]
  /// Inputs no reader knew, met in folders and archives (named ones are failures).
  package var passedOver: [SkippedInput]
  /// Inputs that failed; the run went on after each.
  package var failures: [StageFailure]
  /// What the store holds after the run; nil when no store was opened (nothing was
  /// recognised, so none was created).
  package var stored: StoreSummary?
  package var seconds: Double

  package init(
    imports: [ImportResult], unchanged: [String] = [], passedOver: [SkippedInput],
    failures: [StageFailure], stored: StoreSummary?, seconds: Double
  ) {
    self.imports = imports
    self.unchanged = unchanged
    self.passedOver = passedOver
    self.failures = failures
    self.stored = stored
    self.seconds = seconds
  }

  /// The most severe kind of failure met, or nil when every input went well.
  package var worstFailure: StageError.Kind? { failures.map(\.kind).max() }
}
