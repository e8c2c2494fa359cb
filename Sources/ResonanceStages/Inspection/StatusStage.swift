import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance status`: what the store holds, or the songs it cannot yet name.
package struct StatusStage: Stage {
  package let request: StatusRequest

  package init(_ request: StatusRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when there is no store; `StoreError`.
  package func run(progress: any StageProgress) throws -> StatusResult {
    let store = try request.store.reading(for: "status")
    if request.listsUnresolved { return .unresolved(try store.unresolvedSongs()) }
    return .summary(try store.summary(), storePath: request.store.path)
  }
}

extension StatusResult: ConsolePresentable {
  package var text: String {
    switch self {
    case .summary(let summary, let path): StatusReport.text(summary, storePath: path)
    case .unresolved(let songs): StatusReport.unresolvedText(songs)
    }
  }

  package var json: String {
    switch self {
    case .summary(let summary, _): StatusReport.json(summary).text
    case .unresolved(let songs): StatusReport.unresolvedJSON(songs).text
    }
  }
}
