import ResonanceIO
import ResonanceModel

/// One listening format the tool reads: everything the rest of the tool knows of it, declared
/// once, as one entry of `ImportRegistry.listeningFormats`.
///
/// Recognition, the `--as` and ledger name, the reader, the source its plays carry and that
/// source's rank for merges are all here; the registry, the command's help and messages, the
/// store's merge precedence and the reports derive theirs from the entries.
package struct ListeningFormat: Sendable {
  /// The plays a format reports: the source they carry, and that source's rank when two
  /// sources' reports of one listen merge (higher decides start, duration and skip).
  package struct Plays: Sendable, Equatable {
    /// The source the plays carry.
    package let source: ListeningSource
    /// Its rank for merges; higher decides.
    package let rank: Int

    /// Plays of `source`, ranked `rank`.
    package init(_ source: ListeningSource, rank: Int) {
      self.source = source
      self.rank = rank
    }
  }

  /// How the format's reader takes a file.
  enum Reading: Sendable {
    /// Parsed into one `ListeningFile` (songs, playlists, plays) before anything is sent, the
    /// file read a window at a time: memory holds what the file describes, never its bytes.
    case whole(
      @Sendable (_ path: String, _ source: any ByteSource) throws -> (ListeningFile, [Diagnostic]))
    /// Streamed, a window of the file at a time, the plays sent in batches while it parses,
    /// whatever the file's size.
    case streamed(
      @Sendable (_ path: String, _ source: any ByteSource, _ plays: PlayBatches) throws -> (
        rows: Int, diagnostics: [Diagnostic]
      ))
  }

  /// The kind its files are, whose name is `--as`'s and the ledger's `importer`.
  package let kind: ListeningFileKind
  /// The service, as messages name it: `Apple Music`, `Spotify`.
  package let service: String
  /// Its files, as the help names them: `Spotify Extended Streaming History`.
  package let files: String
  /// Its plays, or nil for a file that describes songs only (a library, a summary).
  package let plays: Plays?
  /// Whether its files describe a library, whose spelling of names wins over the plays'.
  package let describesLibrary: Bool
  /// Whether a stream starting with these bytes (up to `ImportRegistry.firstLook`) is one.
  let recognizes: @Sendable (_ prefix: [UInt8]) -> Bool
  let reading: Reading

  init(
    _ kind: ListeningFileKind, service: String, files: String, plays: Plays?,
    describesLibrary: Bool = false, recognizes: @escaping @Sendable ([UInt8]) -> Bool,
    reading: Reading
  ) {
    self.kind = kind
    self.service = service
    self.files = files
    self.plays = plays
    self.describesLibrary = describesLibrary
    self.recognizes = recognizes
    self.reading = reading
  }
}
