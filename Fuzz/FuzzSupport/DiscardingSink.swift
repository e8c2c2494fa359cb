import ResonanceIngest
import ResonanceModel

/// The store's side of an import, without the store: takes every event, keeps nothing, and
/// makes each message the tool would print (errors, warnings, skipped inputs), so that the
/// message paths run too.
package final class DiscardingSink: ImportSink {
  package init() {}

  package func emit(_ event: ImportEvent) -> Bool {
    switch event {
    case .failed(let error, let partial):
      _ = String(describing: error)
      if let partial { FuzzInput.describe(partial.summary.diagnostics) }
    case .end(_, _, let summary):
      FuzzInput.describe(summary.diagnostics)
    case .skipped(let skipped):
      _ = String(describing: skipped)
    case .begin, .batch, .notImported, .unchanged, .sourceEnded:
      break
    }
    return true
  }

  package func reusableHealthBatch() -> [HealthItem] { [] }

  package func progress(_ bytesRead: Int64) {}
}
