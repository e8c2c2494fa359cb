import ResonanceModel

/// One use case of the tool — ingest, analyze, sweep, tune, report, … — as a value: the typed
/// request it was given, and `run`, which does the work and returns a typed result.
///
/// Stages are where the modules meet: a stage loads values from the Store, hands them to the
/// Brain or Tuning, and hands the results back to the Store or to Reports. Commands build a
/// request from their options, run one stage and print its result; the demo runs several in
/// sequence. Progress and messages go through `StageProgress`, never to a console.
package protocol Stage: Sendable {
  associatedtype Request: Sendable
  associatedtype Result: Sendable

  var request: Request { get }

  init(_ request: Request)

  /// Does the work.
  ///
  /// - Throws: the lower layers' errors (`StoreError`, `IngestError`, `IOError`, …) and
  ///   `StageError`; `StageError.Kind.of(_:)` says what kind each is.
  func run(progress: any StageProgress) throws -> Result
}

/// A result as the console shows it: the text a person reads, and the one JSON document
/// `--json` prints (each shape documented in `docs/cli.md`, with a `format_version`).
package protocol ConsolePresentable: Sendable {
  /// What is printed on standard output; ends with a line break unless empty.
  var text: String { get }
  /// The JSON document, ending with a line break.
  var json: String { get }
}
