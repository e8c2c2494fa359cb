/// The apps' own recording formats (`docs/formats.md`), named as their header's `format` and
/// the ledger's `importer` name them.
package enum RecordingFormat: String, CaseIterable, Sendable, Hashable {
  case decisionLog = "resonance.decision-log"
  case watchTrace = "resonance.watch-trace"
  case macContext = "resonance.mac-context"
  case mood = "resonance.mood"
  case breathing = "resonance.breathing"
}

/// Every kind of file the tool imports, named as `--as` and the ledger's `importer` name it.
/// The list of them is Ingest's (`ImportRegistry.formats`), which knows the listening kinds.
package enum ImportFormat: Sendable, Hashable {
  /// An Apple Health export's XML (`export.xml`, whatever its localised name).
  case appleHealth
  /// A listening history or library file.
  case listening(ListeningFileKind)
  /// One of the Resonance apps' recordings, plain or gzip.
  case recording(RecordingFormat)

  /// `apple-health`, `spotify-extended-history`, `resonance.decision-log`, …
  package var name: String {
    switch self {
    case .appleHealth: "apple-health"
    case .listening(let kind): kind.name
    case .recording(let format): format.rawValue
    }
  }

  /// Whether the ledger's `importer` name `name` is a listening file's: one neither
  /// `apple-health` nor a recording format's. The ledger names only these three families, and
  /// the listening kinds are Ingest's to list, so this is how a module that does not know them
  /// tells one.
  package static func isListening(importer name: String) -> Bool {
    name != ImportFormat.appleHealth.name && RecordingFormat(rawValue: name) == nil
  }
}

/// What a reader hands the store, in the order the file holds it. One import's batches go to
/// one unit of work (`Store.beginImport`).
package enum ImportBatch: Sendable {
  /// Records, workouts, correlations and summaries of a Health export, in document order.
  case health([HealthItem])
  /// Songs a library or summary names (no plays); a library's spelling wins.
  case songs([SongReference], isLibrary: Bool)
  case playlists([PlaylistReference])
  /// Plays, each resolved to a song and merged with other sources' reports of it.
  case plays([PlayReport])
  /// The size the plays to come are known to have, when it is large enough to load in bulk.
  case expectedPlays(Int)
  /// One of the apps' recordings, whole.
  case recording(TraceFile)
  /// Everything sent before is void: the reader will send the file again (a Play Activity
  /// file found out of time order part-way, now read whole and sorted).
  case restart
}

/// What a reader found in one file, besides the batches it sent: for the ledger and the
/// summary.
package struct ReadSummary: Sendable, Equatable {
  /// Data rows or records read.
  package var rows = 0
  /// Plays the file reported (before merging with what the store holds).
  package var plays = 0
  /// Songs a library or summary listed.
  package var songs = 0
  /// The warnings kept to show (the first of them; `warnings` counts them all).
  package var diagnostics: [Diagnostic] = []
  /// Every warning, shown or not.
  package var warnings = 0
  /// Parts of the file that are not imported, by kind, with counts.
  package var notImported: [String: Int] = [:]
  /// Metadata entries left out under the privacy rules (docs/privacy.md).
  package var metadataDropped = 0
  /// Samples a recording held.
  package var samples = 0

  package init() {}
}

/// One thing the walk over an input tells the store's side, in order: an import begins, its
/// batches, its end; or an input is passed over, and why.
package enum ImportEvent: Sendable {
  /// A file or member was recognised: what follows are its batches, then `end` or `failed`.
  case begin(file: String, format: ImportFormat, expectedBytes: Int64?)
  case batch(ImportBatch)
  /// The reader read the whole file: its digest (of the file's bytes, or of a member's
  /// inflated bytes), its size, and what it found.
  case end(sha256: String, bytes: Int64, summary: ReadSummary)
  /// The reader stopped on a bad file. `summary` is what it read before the break, when what
  /// it sent may be kept (`--keep-partial`); with it come the digest and size read so far.
  case failed(any Error, partial: PartialRead?)
  /// A file or member no reader knows, or one the walk does not enter.
  case skipped(SkippedInput)
  /// Parts of a Health export that are not imported (ECG files, routes, the CDA document),
  /// found beside the export named `file` once its archive or folder has been walked.
  case notImported(file: String, parts: [String: Int])
  /// A file on disk whose bytes, hashed as they are, a run imported whole before: nothing of
  /// it was read further, and no reader ran.
  case unchanged(file: String, sha256: String)
  /// The walk is done with a file on disk: the digest of its bytes as read — the zip itself
  /// for an archive — when it was read to its end, nil when something in it failed or it was
  /// passed over. Every import and failure since the last such event was this file's: the
  /// store records the file as imported whole when all of them completed.
  case sourceEnded(file: String, digest: FileDigest?)
}

/// The SHA-256 of a file's bytes as they are on disk, and how many bytes it covers.
package struct FileDigest: Sendable, Equatable {
  package var sha256: String
  package var bytes: Int64

  package init(sha256: String, bytes: Int64) {
    self.sha256 = sha256
    self.bytes = bytes
  }
}

/// The files on disk a store records as imported whole (every import in them complete), by
/// size then digest: what lets `ingest` pass over an unchanged file after hashing it, and hash
/// only files whose size one of them has.
package struct ImportedSources: Sendable, Equatable {
  private var digestsBySize: [Int64: Set<String>] = [:]

  package init() {}

  package init(_ sources: [(bytes: Int64, sha256: String)]) {
    for source in sources { digestsBySize[source.bytes, default: []].insert(source.sha256) }
  }

  /// Whether some file recorded has `bytes` bytes (only then is a file worth hashing first).
  package func hasFile(ofSize bytes: Int64) -> Bool { digestsBySize[bytes] != nil }

  /// Whether a file of `bytes` bytes with this digest was imported whole.
  package func contains(bytes: Int64, sha256: String) -> Bool {
    digestsBySize[bytes]?.contains(sha256) ?? false
  }

  /// How many files are recorded.
  package var count: Int { digestsBySize.values.reduce(0) { $0 + $1.count } }
}

/// What a reader read of a file before it broke.
package struct PartialRead: Sendable {
  package var sha256: String
  package var bytes: Int64
  package var summary: ReadSummary

  package init(sha256: String, bytes: Int64, summary: ReadSummary) {
    self.sha256 = sha256
    self.bytes = bytes
    self.summary = summary
  }
}

/// An input the walk passed over.
package struct SkippedInput: Sendable, Equatable {
  package enum Reason: Sendable, Equatable {
    /// No reader recognised its first bytes; `found` is how it starts.
    case unrecognised(found: String)
    /// A zip nested deeper than the walk enters.
    case tooDeep(limit: Int)
    /// `resonance synth`'s truth files, met in a folder: the answer key, never imported.
    case simulationTruth
  }

  /// The names of the files `resonance synth` writes its truth into.
  package static let simulationTruthNames: Set<String> = ["truth.json", "decisions-truth.jsonl.gz"]

  /// The path, or `ZIP!MEMBER`.
  package var name: String
  package var reason: Reason
  /// Whether the user named it on the command line (an unknown file named there is an
  /// error; one met in a folder or an archive is noted).
  package var isExplicit: Bool

  package init(name: String, reason: Reason, isExplicit: Bool) {
    self.name = name
    self.reason = reason
    self.isExplicit = isExplicit
  }
}

/// What the listening writer did with one file's songs and plays.
package struct ListeningCounts: Sendable, Equatable {
  package var playsAdded = 0
  /// Plays merged into another source's report of the same listen.
  package var playsMerged = 0
  /// Plays the store already held from this source (the same history downloaded twice).
  package var playsAlreadyStored = 0
  package var songsAdded = 0
  /// Songs recognised as one and merged.
  package var songsMerged = 0
  package var playlists = 0

  package init() {}
}

/// What one import's writers did, for the summary.
package struct ImportCounts: Sendable, Equatable {
  /// Health records added (duplicates already stored are not), beats and workouts.
  package var recordsAdded = 0
  package var beatsAdded = 0
  package var workoutsAdded = 0
  package var listening = ListeningCounts()
  /// Plays whose UTC offset came from somewhere other than their own source.
  package var offsetSources: [OffsetSource: Int] = [:]
  /// Samples the recordings held.
  package var samples = 0
  /// Plays stored earlier without an offset of their own that took this export's.
  package var playsGivenOffsets = 0

  package init() {}
}

/// How one file's import ended, and what it did.
package struct ImportResult: Sendable {
  package enum Status: String, Sendable, Equatable {
    /// Imported whole.
    case complete
    /// Broken part-way; what parsed before the break was kept (`--keep-partial`).
    case partial
    /// The same content was imported before: nothing changed.
    case alreadyImported = "already-imported"
  }

  package var file: String
  package var format: ImportFormat
  package var status: Status
  /// The ledger entry written, or the earlier one found.
  package var entry: ImportEntry
  package var bytes: Int64
  package var read: ReadSummary
  package var counts: ImportCounts
  /// Parts of a Health export not imported (its ECG files, routes, CDA document).
  package var notImported: [String: Int] = [:]
  /// Wall time from the first byte to the commit.
  package var seconds: Double

  package init(
    file: String, format: ImportFormat, status: Status, entry: ImportEntry, bytes: Int64,
    read: ReadSummary, counts: ImportCounts, seconds: Double
  ) {
    self.file = file
    self.format = format
    self.status = status
    self.entry = entry
    self.bytes = bytes
    self.read = read
    self.counts = counts
    self.seconds = seconds
  }
}

/// A file a command wrote: its path (relative to the folder it wrote into) and size.
package struct WrittenFile: Sendable, Equatable {
  package var path: String
  package var bytes: Int64

  package init(path: String, bytes: Int64) {
    self.path = path
    self.bytes = bytes
  }
}
